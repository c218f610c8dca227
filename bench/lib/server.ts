// Starts `npm start` (scripts/start.mjs) on a free port with a fresh DATA_DIR for a benchmark,
// and gives an M2M token of the demo client.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../test/free-port";

export interface BenchServer {
  url: string;
  token(scope?: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "vetdx-bench-"));
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("server did not become ready");
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const credentials = JSON.parse(readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
  return {
    url,
    async token(scope?: string) {
      const body = new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) });
      const basic = Buffer.from(
        `${credentials.client.client_id}:${credentials.client.client_secret}`,
      ).toString("base64");
      const response = await fetch(`${url}/idp/oauth2/token`, {
        method: "POST",
        body,
        headers: { authorization: `Basic ${basic}` },
      });
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async stop() {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;
  return { p50: Math.round(at(0.5)), p95: Math.round(at(0.95)), p99: Math.round(at(0.99)) };
}
