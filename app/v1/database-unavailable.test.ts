// Fault: the database becomes unreachable. Connection errors of postgres.js and PGlite (bare or
// wrapped by drizzle) answer 503 with Retry-After, and the API recovers by itself when the
// database is back: PostgreSQL behind a TCP proxy this test takes down and brings back up.
import net from "node:net";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabaseHandle, type DatabaseHandle } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { call, machineToken } from "@/test/support";
import { startTcpProxy, type TcpProxy } from "@/test/faults/tcp-proxy";
import { GET as animalTypes } from "@/app/v1/animal-types/route";
import { isDatabaseUnavailable } from "@/lib/http/database-unavailable";
import { errorToResponse } from "@/lib/http/problem";

// eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
const postgresUrl = new URL(process.env.FAULT_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");

async function reachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(postgresUrl.port || 5432), postgresUrl.hostname);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("isDatabaseUnavailable", () => {
  const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });
  it.each([
    [
      "a refused connection",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    ],
    [
      "postgres.js CONNECTION_CLOSED",
      Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }),
    ],
    ["a terminated backend (57P01)", Object.assign(new Error("terminating connection"), { code: "57P01" })],
    ["a connection exception (08006)", Object.assign(new Error("connection failure"), { code: "08006" })],
    [
      "a database refusing connections",
      Object.assign(new Error('database "x" is not currently accepting connections'), { code: "55000" }),
    ],
    [
      "drizzle wrapping a refused connection",
      wrapped(Object.assign(new Error("refused"), { code: "ECONNREFUSED" })),
    ],
    ["a closed PGlite", wrapped(new Error("PGlite is closed"))],
  ])("recognises %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", Object.assign(new Error("duplicate key"), { code: "23505" })],
    ["another 55000", Object.assign(new Error("lock not available"), { code: "55000" })],
    ["a plain bug", new TypeError("undefined is not a function")],
    ["not an error", "boom"],
  ])("leaves %s a 500", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("answers 503 with Retry-After and no internals", async () => {
    const response = errorToResponse(
      wrapped(Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" })),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const text = await response.text();
    expect(text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|select|stack/i);
  });
});

describe.skipIf(!(await reachable()))("PostgreSQL going away and coming back", () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  const admin = postgres(postgresUrl.toString(), { max: 1, onnotice: () => {} });
  const name = `vetdx_fault_${process.pid}_${Date.now().toString(36)}`;

  afterAll(async () => {
    await handle?.close().catch(() => {});
    await proxy?.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("answers 503 with Retry-After while it is unreachable and 200 again once it is back", async () => {
    await admin.unsafe(`create database ${name}`);
    proxy = await startTcpProxy({ host: postgresUrl.hostname, port: Number(postgresUrl.port || 5432) });
    const url = new URL(postgresUrl);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    await migrateDatabase(handle, url.toString());
    setDatabaseHandle(handle);
    const { token } = await machineToken(handle.db);
    expect((await call(animalTypes, "/v1/animal-types", { token })).status).toBe(200);

    await proxy.down();
    const during = await call(animalTypes, "/v1/animal-types", { token });
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBe("5");
    const body = await during.json();
    expect(body).toMatchObject({ status: 503, detail: expect.stringContaining("database") });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select|at /);

    await proxy.up();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await call(animalTypes, "/v1/animal-types", { token })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});
