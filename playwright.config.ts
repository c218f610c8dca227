// Playwright: the `api` project drives the REST and token endpoints, the `ui` project a real
// Chromium (Debian's, or CHROMIUM_PATH). Both run against `npm start` on a fresh DATA_DIR.
import { defineConfig } from "@playwright/test";
import { e2eServer } from "./e2e/fixtures/server";

export default defineConfig({
  testDir: "./e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [["list"]],
  globalSetup: "./e2e/fixtures/global-setup.ts",
  use: {
    baseURL: e2eServer.url,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: e2eServer.chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /api\/.*\.spec\.ts/ },
    {
      name: "ui",
      testMatch: /ui\/.*\.spec\.ts/,
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${e2eServer.url}/readyz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: e2eServer.env,
  },
});
