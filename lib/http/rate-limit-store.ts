// The Redis connection behind the rate limiters when REDIS_URL is set: one per process (kept on
// globalThis because server.ts and the Next.js bundles load this module separately). It never
// queues commands while disconnected, so a Redis outage costs nothing: the limiters answer from
// this instance's memory (their insurance limiter) and the outage is logged once, not per request.
import { Redis } from "ioredis";
import { logger } from "@/lib/logger";

const globalKey = Symbol.for("vetdx.rate-limit-redis");
type Holder = { [globalKey]?: Map<string, Redis> };

/** A Redis client for `url`, connecting in the background; commands fail fast while it is down. */
export function rateLimitRedis(url: string): Redis {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new Map();
  let client = holder[globalKey].get(url);
  if (client) return client;
  client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
  });
  let healthy = true;
  client.on("ready", () => {
    if (!healthy)
      logger.info({ event: "rate_limit_store_up" }, "Redis is back; rate limits are shared again");
    healthy = true;
  });
  client.on("error", (error: Error) => {
    if (healthy) {
      logger.warn(
        { event: "rate_limit_store_down", err: { message: error.message } },
        "Redis unreachable; rate limits fall back to this instance's memory",
      );
    }
    healthy = false;
  });
  holder[globalKey].set(url, client);
  return client;
}

/** Closes the clients (tests and shutdown). */
export async function closeRateLimitRedis(): Promise<void> {
  const holder = globalThis as Holder;
  const clients = [...(holder[globalKey]?.values() ?? [])];
  holder[globalKey]?.clear();
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
}
