// The legacy SSE stream when the client goes away: the session closes quietly (no "Controller is
// already closed" error with a stack trace in the server output) and is forgotten.
import { describe, expect, it } from "vitest";
import type { Identity } from "@/lib/auth/identity";
import type { CaseRunner } from "@/lib/cases/case-runner";
import { deliverSseMessage, openSseSession } from "./sse-transport";

const identity: Identity = {
  veterinarianId: "00000000-0000-4000-8000-000000000001",
  kind: "machine",
  email: null,
  name: "SSE test client",
  role: "vet",
  scopes: ["vetdx/read"],
  clientId: "m2m_sse_test",
  authMethod: "jwt",
};
const noCases: CaseRunner = {
  dispatch: async () => {
    throw new Error("no case is created in this test");
  },
};

describe("legacy SSE stream", () => {
  it("closes the session without an error when the client disconnects", async () => {
    const reader = openSseSession(identity, "token", noCases).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const sessionId = /sessionId=([0-9a-f-]{36})/.exec(first)?.[1];
    expect(sessionId).toBeDefined();
    const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };
    expect(await deliverSseMessage(sessionId!, identity, ping)).toBe("accepted");

    await expect(reader.cancel()).resolves.toBeUndefined();
    expect(await deliverSseMessage(sessionId!, identity, ping)).toBe("unknown_session");
  });
});
