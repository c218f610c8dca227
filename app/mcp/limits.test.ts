// /mcp and /message limits: bodies over 1 MiB are refused before parsing, and each caller has a
// request budget (mcp-token) answered with 429, Retry-After and RateLimit headers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "mcp-token=3/60"));

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken } from "@/test/support";
import { POST as message } from "@/app/message/route";
import { POST } from "./route";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "vetdx.test",
};
const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

describe("MCP limits", () => {
  it("refuses a body over 1 MiB on /mcp and /message with 413", async () => {
    const { token } = await machineToken(handle.db, undefined, "Big sender");
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(1_100_000) },
    });
    const mcp = await call(POST as never, "/mcp", { method: "POST", token, headers: HEADERS, body: huge });
    expect(mcp.status).toBe(413);
    const legacy = await call(message as never, "/message?sessionId=x", {
      method: "POST",
      token,
      headers: HEADERS,
      body: huge,
    });
    expect(legacy.status).toBe(413);
  });

  it("gives each caller a budget: RateLimit headers, then 429 with Retry-After", async () => {
    const { token } = await machineToken(handle.db, undefined, "Chatty agent");
    const first = await call(POST as never, "/mcp", { method: "POST", token, headers: HEADERS, body: ping });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"mcp-token";q=3;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"mcp-token";r=2;t=\d+$/);
    let last: Response | undefined;
    for (let i = 0; i < 3; i++)
      last = await call(POST as never, "/mcp", { method: "POST", token, headers: HEADERS, body: ping });
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-policy")).toBe('"mcp-token";q=3;w=60');
    expect(last!.headers.get("ratelimit")).toMatch(/^"mcp-token";r=0;t=\d+$/);
  });
});
