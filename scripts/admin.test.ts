// The admin CLI as an operator runs it, with no server: it opens the embedded database itself,
// and refuses to when another process holds it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "vetdx-admin-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("npm run admin (embedded database, no server)", () => {
  it("creates a client and lists it", () => {
    const created = admin("clients", "create", "--name", "CLI client", "--scopes", "vetdx/read", "--json");
    expect(created.status, created.stderr).toBe(0);
    const client = JSON.parse(created.stdout);
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^m2m_/),
      client_secret: expect.any(String),
    });
    const listed = admin("clients", "list", "--json");
    expect(JSON.parse(listed.stdout).map((c: { client_id: string }) => c.client_id)).toContain(
      client.client_id,
    );
  });

  it("explains bad input with a non-zero exit", () => {
    const result = admin("clients", "create", "--name", "X", "--scopes", "vetdx/everything");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Invalid machine client/);
    expect(admin("vets", "create", "--name", "No email").stderr).toMatch(/--email is required/);
  });

  it("never opens a database that another live process holds", async () => {
    const holder = spawn("sleep", ["30"]);
    try {
      writeFileSync(
        path.join(dataDir, "pglite.lock"),
        JSON.stringify({ pid: holder.pid, role: "server", startedAt: "" }),
      );
      const result = admin("clients", "list");
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`Process ${holder.pid} \\(server\\) holds`));
    } finally {
      holder.kill();
      rmSync(path.join(dataDir, "pglite.lock"), { force: true });
    }
  });
});
