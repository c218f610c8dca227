import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Parallel builds (several engineers or CI jobs in one checkout) can each use their own directory.
  distDir: process.env.VETDX_NEXT_DIST_DIR ?? ".next",
  // PGlite loads its WASM and extension bundles from node_modules at run time; argon2 and esbuild
  // (which bundles the MCP App view, lib/mcp/app-view) are native.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "esbuild",
    "oidc-provider",
    "postgres",
    "pino",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // The build checks the app's own code; `npm run typecheck` checks everything, tests included.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // bench/rest.ts builds its own copy with VETDX_BENCH_ROUTES=1, which adds the benchmark's fixture
  // routes (app/**/route.bench.ts); every other build leaves them out, so they never ship.
  ...(process.env.VETDX_BENCH_ROUTES === "1" && { pageExtensions: ["tsx", "ts", "jsx", "js", "bench.ts"] }),
};

export default nextConfig;
