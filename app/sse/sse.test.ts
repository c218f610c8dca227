// GET /sse: each caller (the veterinarian its token acts as) may hold 5 event streams at once, and
// each client address 20; the next answers 429 with a message saying why, and closing a stream
// frees its slot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken } from "@/test/support";
import { GET } from "./route";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const open: Response[] = [];
afterAll(async () => {
  await Promise.all(open.map((response) => response.body?.cancel()));
});

async function openStream(token: string, ip: string): Promise<Response> {
  const response = await call(GET as never, "/sse", { token, ip });
  if (response.status === 200) open.push(response);
  return response;
}

describe("GET /sse", () => {
  it("holds 5 streams per caller; the 6th answers 429 until one closes", async () => {
    const { token } = await machineToken(handle.db, ["vetdx/read"], "Stream hoarder");
    const streams: Response[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await openStream(token, `198.51.100.${10 + index}`);
      expect(response.status).toBe(200);
      streams.push(response);
    }
    const refused = await openStream(token, "198.51.100.20");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((await refused.json()).detail).toMatch(/5 open \/sse streams/);

    await streams[0]!.body!.cancel();
    expect((await openStream(token, "198.51.100.21")).status).toBe(200);
  });

  it("holds 20 streams per client address, whichever callers open them", async () => {
    const address = "203.0.113.50";
    for (let caller = 0; caller < 4; caller += 1) {
      const { token } = await machineToken(handle.db, ["vetdx/read"], `Shared office ${caller}`);
      for (let index = 0; index < 5; index += 1) expect((await openStream(token, address)).status).toBe(200);
    }
    const { token } = await machineToken(handle.db, ["vetdx/read"], "Shared office 5");
    const refused = await openStream(token, address);
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/20 open \/sse streams from this address/);
    expect((await openStream(token, "203.0.113.51")).status).toBe(200);
  });
});
