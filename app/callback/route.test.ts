// GET /callback when the identity provider reports an error: the page never repeats the error text
// from the query (anyone can put a phishing message there), the detail goes to the log instead.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { startAuthorization } from "@/lib/auth/mcp-oauth/authorize";
import { fakeUpstream, pkcePair, registerTestClient } from "@/lib/auth/mcp-oauth/testing";
import { logger } from "@/lib/logger";
import { call } from "@/test/support";
import { GET as callback } from "./route";

let handle: DatabaseHandle;
let clientId = "";

beforeAll(async () => {
  handle = await openTestDatabase();
  ({ client_id: clientId } = await registerTestClient(handle.db, {
    redirect_uris: ["https://client.example/cb"],
  }));
});
afterAll(() => handle.close());

/** A pending authorization request, as /authorize leaves it; returns the state the IdP echoes. */
async function pendingState(): Promise<string> {
  const { requestId } = await startAuthorization(
    handle.db,
    new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "https://client.example/cb",
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
    }),
    { clientIp: "192.0.2.40", upstream: fakeUpstream(() => ({ sub: "x" })) },
  );
  return requestId;
}

describe("GET /callback with an error from the identity provider", () => {
  it("shows a generic page without the attacker's text and logs what the provider said", async () => {
    const phishing = "Your account is locked. Call +1 555 0100 and read out your password";
    const warn = vi.spyOn(logger, "warn");
    try {
      const state = await pendingState();
      const query = new URLSearchParams({
        state,
        error: "server_error<b>call us</b>",
        error_description: phishing,
      });
      const response = await call(callback, `/callback?${query}`);
      const page = await response.text();
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
      expect(page).toMatch(/Sign-in failed/);
      expect(page).not.toContain("Call +1 555");
      expect(page).not.toContain("locked");
      expect(page).not.toContain("call us");
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ error: "server_error<b>call us</b>", error_description: phishing }),
        expect.any(String),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
