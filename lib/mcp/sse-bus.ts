// Routes legacy /sse messages between instances through Redis (only when REDIS_URL is set).
// The instance holding a session's event stream registers the session (key
// `vetdx:sse:session:<id>` = its veterinarian, expiring with the session) and subscribes to the
// channel `vetdx:sse:msg:<id>`. A POST /message that lands on any other instance checks the key
// (unknown session → 404, another veterinarian → 403) and publishes the message; the holder
// checks the veterinarian again and delivers it. Without REDIS_URL every session is local.
import { Redis } from "ioredis";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";

const SESSION_KEY = (sessionId: string) => `vetdx:sse:session:${sessionId}`;
const CHANNEL_PREFIX = "vetdx:sse:msg:";

export interface BusEnvelope {
  veterinarianId: string;
  message: JSONRPCMessage;
}
type Handler = (envelope: BusEnvelope) => void;

interface Bus {
  commands: Redis;
  subscriber: Redis;
  handlers: Map<string, Handler>;
}

const globalKey = Symbol.for("vetdx.mcp-sse-bus");
type Holder = { [globalKey]?: Bus | null };

function connect(url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 5000,
  });
  // ioredis reconnects by itself; log, never crash the process.
  client.on("error", (error: Error) => logger.warn({ err: error }, "SSE bus: Redis error"));
  return client;
}

function bus(): Bus | null {
  const holder = globalThis as Holder;
  if (holder[globalKey] !== undefined) return holder[globalKey];
  const url = getEnv().REDIS_URL;
  if (!url) return (holder[globalKey] = null);
  const created: Bus = { commands: connect(url), subscriber: connect(url), handlers: new Map() };
  created.subscriber.on("message", (channel: string, payload: string) => {
    const handler = created.handlers.get(channel.slice(CHANNEL_PREFIX.length));
    if (!handler) return;
    try {
      handler(JSON.parse(payload) as BusEnvelope);
    } catch (error) {
      logger.warn({ err: error }, "SSE bus: undeliverable message");
    }
  });
  return (holder[globalKey] = created);
}

/** True when sessions are shared across instances (REDIS_URL set). */
export function sseBusEnabled(): boolean {
  return bus() !== null;
}

function unavailable(error: unknown): AppError {
  logger.warn({ err: error }, "SSE bus: Redis unreachable");
  return new AppError("unavailable", "Message routing is unavailable; try again shortly", {
    retryAfterSeconds: 5,
  });
}

/** Announces a session held by this instance and subscribes to its messages. */
export async function registerBusSession(
  sessionId: string,
  veterinarianId: string,
  ttlMs: number,
  handler: Handler,
): Promise<void> {
  const current = bus();
  if (!current) return;
  current.handlers.set(sessionId, handler);
  await current.subscriber.subscribe(CHANNEL_PREFIX + sessionId);
  await current.commands.set(SESSION_KEY(sessionId), veterinarianId, "PX", ttlMs);
}

/** Forgets a closed session (best effort: the key expires on its own). */
export async function unregisterBusSession(sessionId: string): Promise<void> {
  const current = bus();
  if (!current) return;
  current.handlers.delete(sessionId);
  await Promise.allSettled([
    current.subscriber.unsubscribe(CHANNEL_PREFIX + sessionId),
    current.commands.del(SESSION_KEY(sessionId)),
  ]);
}

export type BusDelivery = "accepted" | "unknown_session" | "forbidden";

/** Sends a message to a session held by another instance. */
export async function publishToBusSession(
  sessionId: string,
  veterinarianId: string,
  message: JSONRPCMessage,
): Promise<BusDelivery> {
  const current = bus();
  if (!current) return "unknown_session";
  try {
    const owner = await current.commands.get(SESSION_KEY(sessionId));
    if (owner === null) return "unknown_session";
    if (owner !== veterinarianId) return "forbidden";
    const envelope: BusEnvelope = { veterinarianId, message };
    const receivers = await current.commands.publish(CHANNEL_PREFIX + sessionId, JSON.stringify(envelope));
    // The key outlived its stream (the holder died without cleaning up).
    return receivers > 0 ? "accepted" : "unknown_session";
  } catch (error) {
    throw unavailable(error);
  }
}
