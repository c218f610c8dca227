// List cursors and database errors (issue 14, finding 9): a cursor this API did not issue is a 400
// on every list, never a failed query; and when a query does fail, its log line says which error
// it was (class, SQLSTATE, constraint) without the SQL or the values bound to it.
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { logger, loggerOptions } from "@/lib/logger";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { POST as mcp } from "@/app/mcp/route";
import { GET as breeds } from "@/app/v1/breeds/route";
import { GET as diagnoses } from "@/app/v1/diagnoses/route";
import { GET as symptoms } from "@/app/v1/symptoms/route";
import { GET as listCases, POST as createCase } from "./route";

let handle: DatabaseHandle;
let token: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  token = (await machineToken(handle.db, undefined, "Cursor clinic")).token;
});
afterAll(() => handle.close());
afterEach(() => vi.restoreAllMocks());

/** Every line the process logger writes at warn or error, as pino (with its options) would write it. */
function captureLogLines(): string[] {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const capture = pino(loggerOptions("info"), stream);
  vi.spyOn(logger, "error").mockImplementation(((...args: Parameters<pino.LogFn>) =>
    capture.error(...args)) as pino.LogFn);
  vi.spyOn(logger, "warn").mockImplementation(((...args: Parameters<pino.LogFn>) =>
    capture.warn(...args)) as pino.LogFn);
  return lines;
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

const FORGED_KEYSET_CURSORS = {
  "an id that is not a uuid": cursorOf({ createdAt: "2024-01-01T00:00:00.000Z", id: "x' or '1'='1" }),
  "a number for the id": cursorOf({ createdAt: "2024-01-01T00:00:00.000Z", id: 42 }),
  "a date PostgreSQL cannot hold": cursorOf({ createdAt: 8.64e15, id: crypto.randomUUID() }),
  "the year 0": cursorOf({ createdAt: "0000-01-01T00:00:00Z", id: crypto.randomUUID() }),
  "a date that is not a date": cursorOf({ createdAt: "yesterday", id: crypto.randomUUID() }),
  "an object for the date": cursorOf({ createdAt: { $gt: 0 }, id: crypto.randomUUID() }),
  "an array": cursorOf(["2024-01-01T00:00:00.000Z", crypto.randomUUID()]),
  "a catalogue cursor": cursorOf({ offset: 20 }),
  "JSON null": cursorOf(null),
  "not JSON": Buffer.from("not json at all").toString("base64url"),
  "not base64url JSON": "AAAA",
};

const FORGED_OFFSET_CURSORS = {
  "a string offset": cursorOf({ offset: "20; drop table cases" }),
  "a negative offset": cursorOf({ offset: -1 }),
  "a fractional offset": cursorOf({ offset: 1.5 }),
  "a huge offset": cursorOf({ offset: 1e300 }),
  "a cases cursor": cursorOf({ createdAt: "2024-01-01T00:00:00.000Z", id: crypto.randomUUID() }),
  "an array": cursorOf([20]),
  "not JSON": Buffer.from("{offset:").toString("base64url"),
};

async function expectProblem400(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json();
  expect(body).toMatchObject({ status: 400, title: "Invalid request" });
}

describe("a forged cursor", () => {
  it.each(Object.entries(FORGED_KEYSET_CURSORS))(
    "GET /v1/cases with %s answers 400 problem+json and logs nothing",
    async (_shape, cursor) => {
      const lines = captureLogLines();
      const response = await call(listCases as RouteHandler, `/v1/cases?cursor=${cursor}`, { token });
      await expectProblem400(response);
      expect(lines).toEqual([]);
    },
  );

  it.each(Object.entries(FORGED_OFFSET_CURSORS))(
    "the catalogue searches with %s answer 400 problem+json",
    async (_shape, cursor) => {
      const lines = captureLogLines();
      for (const [handler, path] of [
        [symptoms, "/v1/symptoms?q=vomiting"],
        [breeds, "/v1/breeds?animal_type_id=1"],
        [diagnoses, "/v1/diagnoses?q=renal"],
      ] as const) {
        await expectProblem400(await call(handler as RouteHandler, `${path}&cursor=${cursor}`, { token }));
      }
      expect(lines).toEqual([]);
    },
  );

  it("the MCP tool list_cases answers a tool error naming the cursor, not a failure", async () => {
    const lines = captureLogLines();
    for (const cursor of Object.values(FORGED_KEYSET_CURSORS)) {
      const response = await call(mcp as RouteHandler, "/mcp", {
        method: "POST",
        token,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "vetdx.test",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_cases", arguments: { cursor } },
        }),
      });
      const text = await response.text();
      const result = JSON.parse(text.startsWith("{") ? text : text.split("data: ")[1]!).result;
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/cursor/i);
    }
    expect(lines).toEqual([]);
  });

  it("a cursor the API issued still pages", async () => {
    const first = await call(listCases as RouteHandler, "/v1/cases?limit=1", { token });
    expect(first.status).toBe(200);
    const issued = cursorOf({ createdAt: new Date().toISOString(), id: crypto.randomUUID() });
    const next = await call(listCases as RouteHandler, `/v1/cases?limit=1&cursor=${issued}`, { token });
    expect(next.status).toBe(200);
  });
});

describe("a failed query's log line", () => {
  it("names the error class, SQLSTATE and constraint, never the SQL or its parameter values", async () => {
    // A constraint only this test's database has, so inserting these notes fails inside PostgreSQL.
    await handle.db.execute(
      sql`alter table cases add constraint cases_notes_audit_probe check (notes not like '%CONFIDENTIAL%')`,
    );
    const notes = "Bella, 4yo FS Labrador, owner jane.owner@example.com, CONFIDENTIAL history of vomiting";
    const lines = captureLogLines();
    const response = await call(createCase as RouteHandler, "/v1/cases", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notes }),
    });
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(JSON.parse(line)).toMatchObject({
      level: 50,
      err: { code: "23514", constraint: "cases_notes_audit_probe", table: "cases" },
    });
    for (const leaked of ["jane.owner@example.com", "CONFIDENTIAL", "Labrador", "insert into", "params"]) {
      expect(line).not.toContain(leaked);
    }
  });
});
