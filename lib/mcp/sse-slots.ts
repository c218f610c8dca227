// Concurrent legacy /sse streams: each holds a connection, an MCP server and timers for up to an
// hour, so a caller (the veterinarian its token acts as) may hold 5 at once and a client address 20.
// With REDIS_URL the open streams are counted in Redis, across every instance (one sorted set per
// caller and per address, scored by when each entry lapses, so a crashed instance's streams expire
// on their own); without it, or while Redis is down, in this process.
import { randomUUID } from "node:crypto";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { rateLimitRedis } from "@/lib/http/rate-limit-store";
import { logger } from "@/lib/logger";

export const MAX_STREAMS_PER_CALLER = 5;
export const MAX_STREAMS_PER_ADDRESS = 20;
/** Longer than a session lives (lib/mcp/sse-transport.ts), so only a lost stream's entry lapses. */
const SLOT_LIFETIME_MS = 65 * 60 * 1000;
const RETRY_AFTER_SECONDS = 30;

interface Pool {
  key: string;
  max: number;
  refusal: string;
}

// KEYS: the pools; ARGV: now, lapse time, the stream's id, then each pool's maximum. Returns 0 when
// the stream took a slot in every pool, else the (1-based) index of the first full pool.
const CLAIM_SCRIPT = `
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', key, ARGV[2])
end
return 0`;

const globalKey = Symbol.for("vetdx.mcp-sse-slots");
type Holder = { [globalKey]?: Map<string, Set<string>> };
function localPools(): Map<string, Set<string>> {
  return ((globalThis as Holder)[globalKey] ??= new Map());
}

function claimLocally(pools: Pool[], streamId: string): Pool | undefined {
  const full = pools.find((pool) => (localPools().get(pool.key)?.size ?? 0) >= pool.max);
  if (full) return full;
  for (const pool of pools) {
    const members = localPools().get(pool.key) ?? new Set<string>();
    localPools().set(pool.key, members.add(streamId));
  }
  return undefined;
}

function releaseLocally(pools: Pool[], streamId: string): void {
  for (const pool of pools) {
    const members = localPools().get(pool.key);
    members?.delete(streamId);
    if (members?.size === 0) localPools().delete(pool.key);
  }
}

/** A claim on slots for one stream; release it when the stream ends. */
export interface SseSlots {
  release(): Promise<void>;
}

/** Takes a slot for a new stream of `veterinarianId` from `address`, or throws 429 when either is full. */
export async function claimSseSlots(veterinarianId: string, address: string): Promise<SseSlots> {
  const pools: Pool[] = [
    {
      key: `vetdx:sse:open:vet:${veterinarianId}`,
      max: MAX_STREAMS_PER_CALLER,
      refusal: `This client already has ${MAX_STREAMS_PER_CALLER} open /sse streams; close one before opening another`,
    },
    {
      key: `vetdx:sse:open:ip:${address}`,
      max: MAX_STREAMS_PER_ADDRESS,
      refusal: `There are already ${MAX_STREAMS_PER_ADDRESS} open /sse streams from this address; close one before opening another`,
    },
  ];
  const streamId = randomUUID();
  const url = getEnv().REDIS_URL;
  let shared = false;
  let full: Pool | undefined;
  if (url) {
    try {
      const now = Date.now();
      const answer = await rateLimitRedis(url).eval(
        CLAIM_SCRIPT,
        pools.length,
        ...pools.map((pool) => pool.key),
        now,
        now + SLOT_LIFETIME_MS,
        streamId,
        ...pools.map((pool) => pool.max),
      );
      full = Number(answer) > 0 ? pools[Number(answer) - 1] : undefined;
      shared = true;
    } catch (error) {
      logger.warn({ err: error }, "open /sse streams counted in this instance only: Redis unreachable");
    }
  }
  if (!shared) full = claimLocally(pools, streamId);
  if (full) throw new AppError("rate_limited", full.refusal, { retryAfterSeconds: RETRY_AFTER_SECONDS });

  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      if (!shared) return releaseLocally(pools, streamId);
      await Promise.all(pools.map((pool) => rateLimitRedis(url!).zrem(pool.key, streamId))).catch(
        (error: unknown) => logger.warn({ err: error }, "open /sse stream not released in Redis; it lapses"),
      );
    },
  };
}

/** `stream`, releasing `slots` once it ends, whether it closes or the client goes away. */
export function holdingSlots(
  stream: ReadableStream<Uint8Array>,
  slots: SseSlots,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        await slots.release();
        throw error;
      }
      if (!chunk.done) return controller.enqueue(chunk.value);
      await slots.release();
      controller.close();
    },
    cancel: async (reason) => {
      await slots.release();
      await reader.cancel(reason);
    },
  });
}
