// Unit and integration tests beside their sources (*.test.ts), on a real database: PGlite by
// default, PostgreSQL when DATABASE_URL is set (test/global-setup.ts prepares a migrated, seeded
// template that each test file copies).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}` },
      // Route handlers import "server-only"; tests run them outside React's server graph.
      { find: /^server-only$/, replacement: `${root}test/server-only-stub.ts` },
    ],
  },
  test: {
    include: ["{app,lib,db,inngest,scripts,test}/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      APP_URL: "http://vetdx.test",
      NEXT_TELEMETRY_DISABLED: "1",
      // Model-timeout tests wait this long per attempt.
      AI_TIMEOUT_SECONDS: "1",
      // Rate limits in memory, even when the shell has REDIS_URL: a shared Redis would carry the
      // counts of the tests' fixed addresses and accounts from one run (or database) to the next.
      // rate-limit-redis.test.ts covers Redis, through REDIS_TEST_URL.
      REDIS_URL: "",
    },
  },
});
