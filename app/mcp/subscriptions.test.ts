// Case resources announce their updates: a 2026-07-28 subscriptions/listen stream on /mcp and a
// 2025-era resources/subscribe on /sse hear notifications/resources/updated as the pipeline moves
// the case on; subscribing to another vet's, an unknown or a non-case resource is refused and
// nothing is subscribed; stateless 2025-era /mcp says where to subscribe instead.
import {
  Client,
  ProtocolError,
  SSEClientTransport,
  type ResourceUpdatedNotification,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { cases } from "@/db/schema";
import { openTestDatabase } from "@/db/testing";
import { followingCaseUpdates } from "@/lib/cases/case-updates";
import { startStep } from "@/lib/pipeline/steps";
import { connectMcpClient } from "@/test/mcp-client";
import { APP_URL, call, machineToken } from "@/test/support";
import { POST as postMessage } from "../message/route";
import { GET as openSse } from "../sse/route";

let handle: DatabaseHandle;
let tokenA: string;
let tokenB: string;
let vetA: string;

async function newCase(): Promise<string> {
  const [row] = await handle.db
    .insert(cases)
    .values({ veterinarianId: vetA, notes: "Bella, 4mo dog, vomiting." })
    .returning({ id: cases.id });
  return row!.id;
}

async function rpcError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected an MCP error").toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

function updates(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", (note: ResourceUpdatedNotification) => {
    seen.push(note.params.uri);
  });
  return seen;
}

async function eventually(check: () => void, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

beforeAll(async () => {
  handle = await openTestDatabase();
  const a = await machineToken(handle.db, undefined, "Clinic A");
  tokenA = a.token;
  vetA = a.client.veterinarianId;
  tokenB = (await machineToken(handle.db, undefined, "Clinic B")).token;
});
afterAll(() => handle.close());

describe("case resource subscriptions", () => {
  it("2026-07-28: a listen stream hears the pipeline move the vet's case on", async () => {
    const caseId = await newCase();
    const uri = `vetdx://cases/${caseId}`;
    const client = await connectMcpClient(tokenA);
    const seen = updates(client);
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
    await followingCaseUpdates();
    const other = await newCase();
    await startStep(handle.db, other);
    await startStep(handle.db, caseId);
    await eventually(() => expect(seen).toEqual([uri]));
    await subscription.close();
    await client.close();
  });

  it("2026-07-28: hears the vet's own changes too (a patient edit, a working diagnosis)", async () => {
    const [row] = await handle.db
      .insert(cases)
      .values({ veterinarianId: vetA, notes: "Rex, dog, limping.", status: "COMPLETED" })
      .returning({ id: cases.id });
    const uri = `vetdx://cases/${row!.id}`;
    const client = await connectMcpClient(tokenA);
    const seen = updates(client);
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    await followingCaseUpdates();
    const edited = await client.callTool({
      name: "update_case_patient",
      arguments: { case_id: row!.id, patient: { name: "Rex B" } },
    });
    expect(edited.isError, JSON.stringify(edited.content)).toBeFalsy();
    await eventually(() => expect(seen).toEqual([uri]));
    await subscription.close();
    await client.close();
  });

  it("2026-07-28: refuses another vet's, an unknown or a catalogue resource, subscribing nothing", async () => {
    const caseId = await newCase();
    const client = await connectMcpClient(tokenB);
    for (const uri of [
      `vetdx://cases/${caseId}`,
      "vetdx://cases/00000000-0000-4000-8000-000000000000",
      "vetdx://symptoms/1",
      "ui://vetdx/diagnostics.html",
    ]) {
      const error = await rpcError(client.listen({ resourceSubscriptions: [uri] }));
      expect(error.code).toBe(-32602);
    }
    const tooMany = Array.from({ length: 101 }, (_, i) => `vetdx://cases/${i}`);
    expect((await rpcError(client.listen({ resourceSubscriptions: tooMany }))).code).toBe(-32602);
    await client.close();
  });

  it("2025-era /mcp: resources/subscribe says to use subscriptions/listen or /sse", async () => {
    const client = await connectMcpClient(tokenA, "legacy");
    const error = await rpcError(client.subscribeResource({ uri: `vetdx://cases/${await newCase()}` }));
    expect(error.message).toMatch(/subscriptions\/listen.*\/sse/);
    await client.close();
  });

  it("2025-era /sse: resources/subscribe on the session hears updates; another vet's case is refused", async () => {
    const caseId = await newCase();
    const uri = `vetdx://cases/${caseId}`;
    const connectSse = async (token: string) => {
      const client = new Client({ name: "vetdx-test", version: "1.0.0" });
      await client.connect(
        new SSEClientTransport(new URL(`${APP_URL}/sse`), {
          fetch: (url, init) => {
            const path = new URL(String(url));
            const route = path.pathname === "/sse" ? openSse : postMessage;
            const headers = new Headers(init?.headers);
            headers.set("host", "vetdx.test");
            return call(route as never, `${path.pathname}${path.search}`, { ...init, headers, token });
          },
        }),
      );
      return client;
    };
    const asB = await connectSse(tokenB);
    expect((await rpcError(asB.subscribeResource({ uri }))).code).toBe(-32602);
    await asB.close();
    const asA = await connectSse(tokenA);
    const seen = updates(asA);
    await asA.subscribeResource({ uri });
    await followingCaseUpdates();
    await startStep(handle.db, caseId);
    await eventually(() => expect(seen).toEqual([uri]));
    await asA.close();
  });
});
