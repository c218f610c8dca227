import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WASM and extension bundles from node_modules at run time; argon2 is native.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "oidc-provider", "postgres", "pino"],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
