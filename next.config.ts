import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Parallel builds (several engineers or CI jobs in one checkout) can each use their own directory.
  distDir: process.env.VETDX_NEXT_DIST_DIR ?? ".next",
  // PGlite loads its WASM and extension bundles from node_modules at run time; argon2 is native.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "oidc-provider", "postgres", "pino"],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // The build checks the app's own code; `npm run typecheck` checks everything, tests included.
  typescript: { tsconfigPath: "tsconfig.build.json" },
};

export default nextConfig;
