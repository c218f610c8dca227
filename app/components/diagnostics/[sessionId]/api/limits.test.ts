// The component API's budgets: per session for every call, a tighter one for SOAP notes (a model
// call when AI_MODEL is set), and per client address for session ids that lead nowhere (probing).
// Over budget: 429 problem+json with Retry-After and the RateLimit headers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { POST as createSession } from "@/app/v1/sessions/route";
import { POST as soapNotes } from "./soap-notes/route";
import { GET as searchSymptoms } from "./symptoms/route";

vi.hoisted(() =>
  vi.stubEnv("RATE_LIMITS", "component-session=5/60,component-soap=2/60,component-probe-ip=3/60"),
);

let handle: DatabaseHandle;
let token: string;

async function newSession() {
  const response = await call(createSession, "/v1/sessions", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ component: "diagnostics", parent_origin: "https://pims.example" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { session_id: string }).session_id;
}

function api(
  handler: RouteHandler,
  sessionId: string,
  path: string,
  init: { method?: string; body?: unknown; ip?: string } = {},
) {
  return call(handler, `/components/diagnostics/${sessionId}/api${path}`, {
    method: init.method ?? "GET",
    params: { sessionId },
    ip: init.ip,
    headers: init.body === undefined ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function expectLimited(response: Response, policy: string) {
  expect(response.status).toBe(429);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(response.headers.get("ratelimit-policy")).toContain(`"${policy}"`);
  expect(response.headers.get("ratelimit")).toContain(`"${policy}";r=0`);
  expect(await response.json()).toMatchObject({ status: 429, type: expect.stringContaining("rate-limited") });
}

beforeAll(async () => {
  handle = await openTestDatabase();
  token = (await machineToken(handle.db)).token;
});
afterAll(() => handle.close());

describe("component API budgets", () => {
  it("limits each session's calls, and leaves other sessions alone", async () => {
    const busy = await newSession();
    const other = await newSession();
    for (let i = 0; i < 5; i++) {
      const response = await api(searchSymptoms, busy, "/symptoms?q=cough");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit")).toContain(`"component-session";r=${4 - i}`);
    }
    await expectLimited(await api(searchSymptoms, busy, "/symptoms?q=cough"), "component-session");
    expect((await api(searchSymptoms, other, "/symptoms?q=cough")).status).toBe(200);
  });

  it("gives SOAP notes a tighter budget of their own", async () => {
    const session = await newSession();
    const soap = () =>
      api(soapNotes, session, "/soap-notes", { method: "POST", body: { animal_type_id: 2, signs: [] } });
    expect((await soap()).status).toBe(200);
    expect((await soap()).status).toBe(200);
    await expectLimited(await soap(), "component-soap");
    // The session's other calls still have budget left.
    expect((await api(searchSymptoms, session, "/symptoms?q=cough")).status).toBe(200);
  });

  it("refuses an address that keeps naming unknown sessions, before looking them up", async () => {
    const prober = "198.51.100.7";
    for (let i = 0; i < 3; i++) {
      const guess = `${"G".repeat(42)}${i}`;
      expect((await api(searchSymptoms, guess, "/symptoms?q=cough", { ip: prober })).status).toBe(404);
    }
    await expectLimited(
      await api(searchSymptoms, "H".repeat(43), "/symptoms?q=cough", { ip: prober }),
      "component-probe-ip",
    );
    // Another address is unaffected, for unknown sessions and real ones alike.
    expect((await api(searchSymptoms, "J".repeat(43), "/symptoms?q=x", { ip: "198.51.100.8" })).status).toBe(
      404,
    );
    const real = await newSession();
    expect((await api(searchSymptoms, real, "/symptoms?q=cough", { ip: "198.51.100.8" })).status).toBe(200);
  });
});
