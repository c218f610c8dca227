// The runner the surfaces hand to createCase when Inngest is configured: POST /v1/cases sends a
// case/created event to the Inngest event API (a local stand-in here) instead of running the case in
// this process, and a case whose event cannot be sent ends in ERROR with a 503.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before inngest/client.ts reads them (hoisted above the imports); the port is bound in beforeAll.
const eventApi = vi.hoisted(() => {
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
  vi.stubEnv("INNGEST_BASE_URL", `http://127.0.0.1:${port}`);
  return { port };
});

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { call, machineToken } from "@/test/support";
import { POST as createCase } from "@/app/v1/cases/route";

let handle: DatabaseHandle;
let server: http.Server;
let answer = 200;
const received: { path: string; body: unknown }[] = [];

beforeAll(async () => {
  handle = await openTestDatabase();
  server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: JSON.parse(body || "null") });
      response.writeHead(answer, { "content-type": "application/json" });
      response.end(JSON.stringify({ ids: ["01J0000000000000000000000"], status: answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(eventApi.port, "127.0.0.1", resolve));
  expect((server.address() as AddressInfo).port).toBe(eventApi.port);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});

const post = (token: string) =>
  call(createCase, "/v1/cases", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ notes: "Dog, 4 years, vomiting since yesterday." }),
  });

const readCase = async (caseId: string) =>
  (await handle.db.select().from(cases).where(eq(cases.id, caseId)))[0]!;

describe("POST /v1/cases with Inngest configured", () => {
  it("sends a case/created event and leaves the case PENDING for the Inngest function", async () => {
    const { token } = await machineToken(handle.db, undefined, "Inngest clinic");
    received.length = 0;
    const response = await post(token);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string };
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe("/e/test-event-key");
    const events = [received[0]!.body].flat() as { name: string; data: Record<string, string> }[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ name: "case/created", data: { case_id: created.id } });
    expect(events[0]!.data.veterinarian_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await readCase(created.id)).status).toBe("PENDING");
  });

  it("answers 503 and ends the case in ERROR when the event API refuses the event", async () => {
    const { token } = await machineToken(handle.db, undefined, "Unlucky clinic");
    answer = 400;
    try {
      const response = await post(token);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
    } finally {
      answer = 200;
    }
    const failed = await handle.db.select().from(cases).where(eq(cases.status, "ERROR"));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatchObject({ code: "dispatch_failed", step: "dispatch" });
  });
});
