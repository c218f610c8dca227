// The component page's script policy (issue 14, finding 14c): no 'unsafe-inline'; a fresh nonce
// per response, with 'strict-dynamic' so the scripts Next.js loads from its nonced ones run too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken } from "@/test/support";
import { POST as createSession } from "@/app/v1/sessions/route";
import { componentPageHeaders } from "@/lib/sessions/component-headers";

let handle: DatabaseHandle;
let pagePath: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  const { token } = await machineToken(handle.db, undefined, "CSP clinic");
  const response = await call(createSession, "/v1/sessions", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ component: "diagnostics", parent_origin: "https://pms.example" }),
  });
  expect(response.status).toBe(201);
  pagePath = `/components/diagnostics/${(await response.json()).session_id}`;
});
afterAll(() => handle.close());

const scriptSrcOf = (csp: string) =>
  csp.split(";").find((directive) => directive.trim().startsWith("script-src"))!;

describe("the component page's script policy", () => {
  it.each([
    ["a live session", () => pagePath],
    ["an unknown session", () => `/components/diagnostics/${"C".repeat(43)}`],
  ])("for %s allows scripts by a fresh nonce only, never inline ones", async (_which, path) => {
    const first = await componentPageHeaders(handle.db, path());
    const second = await componentPageHeaders(handle.db, path());
    const scriptSrc = scriptSrcOf(first!.headers["content-security-policy"]!);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'/);
    expect(scriptSrcOf(second!.headers["content-security-policy"]!)).not.toBe(scriptSrc);
  });
});
