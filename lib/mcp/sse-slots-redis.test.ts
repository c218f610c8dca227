// Open /sse streams counted in Redis (the local one at 127.0.0.1:6379, or REDIS_TEST_URL), so every
// instance sees the others' streams; an entry a crashed instance never released lapses on its own.
import net from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
const redisUrl = vi.hoisted(() => {
  // eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
  const url = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
  vi.stubEnv("REDIS_URL", url);
  return new URL(url);
});

import { AppError } from "@/lib/errors";
import { closeRateLimitRedis, rateLimitRedis } from "@/lib/http/rate-limit-store";
import { claimSseSlots, MAX_STREAMS_PER_CALLER } from "./sse-slots";

async function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}
const available = await redisReachable();

afterAll(() => closeRateLimitRedis());

async function ready() {
  const client = rateLimitRedis(redisUrl.toString());
  const until = Date.now() + 5000;
  while (client.status !== "ready" && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return client;
}

describe.skipIf(!available)("open /sse streams in Redis", () => {
  it("counts the streams another instance holds for the same caller", async () => {
    const client = await ready();
    const vet = randomUUID();
    // Another instance's streams, as its claims left them.
    const lapse = Date.now() + 60_000;
    for (let index = 1; index < MAX_STREAMS_PER_CALLER; index += 1)
      await client.zadd(`vetdx:sse:open:vet:${vet}`, lapse, `elsewhere-${index}`);

    const last = await claimSseSlots(vet, "198.51.100.60");
    await expect(claimSseSlots(vet, "198.51.100.61")).rejects.toThrow(AppError);
    expect(await client.zcard(`vetdx:sse:open:vet:${vet}`)).toBe(MAX_STREAMS_PER_CALLER);

    await last.release();
    expect(await client.zcard(`vetdx:sse:open:vet:${vet}`)).toBe(MAX_STREAMS_PER_CALLER - 1);
    await (await claimSseSlots(vet, "198.51.100.61")).release();
  });

  it("lets a stream whose instance died without releasing it lapse", async () => {
    const client = await ready();
    const vet = randomUUID();
    const lapsed = Date.now() - 1;
    for (let index = 0; index < MAX_STREAMS_PER_CALLER; index += 1)
      await client.zadd(`vetdx:sse:open:vet:${vet}`, lapsed, `crashed-${index}`);
    const slots = await claimSseSlots(vet, "198.51.100.62");
    expect(await client.zcard(`vetdx:sse:open:vet:${vet}`)).toBe(1);
    await slots.release();
  });
});
