// Rate limits shared through Redis (the local one at 127.0.0.1:6379, or REDIS_TEST_URL), and what
// happens when Redis goes away: answers from memory, never an error, and shared again after.
import net from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/logger";
import { startTcpProxy } from "@/test/faults/tcp-proxy";
import { buildLimiter, checkWith, type LimiterSpec } from "./rate-limit";
import { closeRateLimitRedis, rateLimitRedis } from "./rate-limit-store";

// eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
const redisUrl = new URL(process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379");

async function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

const available = await redisReachable();
const spec = (points: number): LimiterSpec => ({
  name: `test-${process.pid}-${Math.random().toString(36).slice(2)}`,
  points,
  durationSeconds: 60,
});
const waitFor = async (condition: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
};

afterAll(() => closeRateLimitRedis());

describe.skipIf(!available)("Redis-backed rate limits", () => {
  it("share one budget between instances (two limiters on one Redis)", async () => {
    const limits = spec(4);
    const first = buildLimiter(limits, redisUrl.toString());
    const second = buildLimiter(limits, redisUrl.toString());
    const client = rateLimitRedis(redisUrl.toString());
    await waitFor(() => client.status === "ready");
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await checkWith(i % 2 ? second : first, limits, "203.0.113.9"));
    expect(results.map((r) => r.limited)).toEqual([false, false, false, false, true]);
    expect(results[4]!.resetSeconds).toBeGreaterThan(0);
  });

  it("fall back to memory while Redis is unreachable, then share again when it is back", async () => {
    const proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    const url = `redis://127.0.0.1:${proxy.port}`;
    const limits = spec(3);
    const instance = buildLimiter(limits, url);
    const client = rateLimitRedis(url);
    await waitFor(() => client.status === "ready");
    expect((await checkWith(instance, limits, "k")).remaining).toBe(2);

    const warn = vi.spyOn(logger, "warn");
    await proxy.down();
    await waitFor(() => client.status !== "ready");
    await waitFor(() => warn.mock.calls.length > 0);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ event: "rate_limit_store_down" }),
      expect.stringContaining("fall back"),
    );
    // Redis is gone: answers come from this instance's memory, counted and limited, never thrown.
    const during = [];
    for (let i = 0; i < 4; i++) during.push(await checkWith(instance, limits, "other-key"));
    expect(during.map((d) => d.limited)).toEqual([false, false, false, true]);

    await proxy.up();
    await waitFor(() => client.status === "ready", 10_000);
    expect(client.status).toBe("ready");
    // Back on Redis: the key consumed before the outage still has its Redis count.
    expect((await checkWith(instance, limits, "k")).remaining).toBe(1);
    await proxy.close();
  });

  it("never fails when Redis cannot be reached at all", async () => {
    const limits = spec(1);
    const instance = buildLimiter(limits, "redis://127.0.0.1:1");
    expect((await checkWith(instance, limits, "x")).limited).toBe(false);
    expect((await checkWith(instance, limits, "x")).limited).toBe(true);
  });
});
