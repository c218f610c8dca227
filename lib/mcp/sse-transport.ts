// The legacy HTTP+SSE transport (MCP 2024-11-05) for older clients: GET /sse opens an event stream
// whose first event names the endpoint (/message?sessionId=…) where the client POSTs JSON-RPC
// messages; answers come back over the stream. A session's stream lives in the process that opened
// it; with REDIS_URL set, a message posted to any other instance reaches it through Redis
// (lib/mcp/sse-bus.ts, docs/deploy.md).
import { randomUUID } from "node:crypto";
import { McpServer, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { getDb } from "@/db";
import type { Identity } from "@/lib/auth/identity";
import type { CaseRunner } from "@/lib/cases/case-runner";
import { logger } from "@/lib/logger";
import { registerDiagnosticsView } from "./app-view/diagnostics-view";
import { registerTools } from "./define-tool";
import { registerResourcesAndPrompts } from "./resources-and-prompts";
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO } from "./server-info";
import { publishToBusSession, registerBusSession, unregisterBusSession } from "./sse-bus";
import { tools } from "./tools";

const KEEP_ALIVE_MS = 20_000;
const MAX_SESSION_MS = 60 * 60 * 1000;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class SseTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    readonly sessionId: string,
    private readonly write: (chunk: string) => void,
    private readonly end: () => void,
    private readonly authInfo: {
      token: string;
      clientId: string;
      scopes: string[];
      extra: { identity: Identity };
    },
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    this.end();
    this.onclose?.();
  }

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message, { authInfo: this.authInfo });
  }
}

interface SseSession {
  transport: SseTransport;
  veterinarianId: string;
}

const globalKey = Symbol.for("vetdx.mcp-sse-sessions");
type Holder = { [globalKey]?: Map<string, SseSession> };
function sessions(): Map<string, SseSession> {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new Map();
  return holder[globalKey];
}

/** Opens a session for an authenticated caller and returns its event stream. */
export function openSseSession(
  identity: Identity,
  token: string,
  caseRunner: CaseRunner,
): ReadableStream<Uint8Array> {
  const sessionId = randomUUID();
  const encoder = new TextEncoder();
  let timers: NodeJS.Timeout[] = [];
  let closed = false;
  // Set when the client went away: the stream is closed already, and closing it again would throw.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start: async (controller) => {
      const write = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      };
      const end = () => {
        if (closed) return;
        closed = true;
        timers.forEach(clearTimeout);
        sessions().delete(sessionId);
        void unregisterBusSession(sessionId);
        if (!cancelled) controller.close();
      };
      const transport = new SseTransport(sessionId, write, end, {
        token,
        clientId: identity.clientId ?? "",
        scopes: identity.scopes,
        extra: { identity },
      });
      const server = new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS });
      registerTools(server, tools, {
        db: getDb,
        identity: (authInfo) =>
          (authInfo as { extra?: { identity?: Identity } } | undefined)?.extra?.identity,
        caseRunner,
      });
      registerDiagnosticsView(server);
      registerResourcesAndPrompts(server, { db: getDb, identity }, "session");
      await server.connect(transport);
      sessions().set(sessionId, { transport, veterinarianId: identity.veterinarianId });
      // Announce the session before naming its endpoint, so that a POST to any instance finds it.
      // Without Redis the session still works for messages that reach this instance.
      await registerBusSession(sessionId, identity.veterinarianId, MAX_SESSION_MS, (envelope) => {
        if (envelope.veterinarianId === identity.veterinarianId) transport.deliver(envelope.message);
      }).catch((error: unknown) => logger.warn({ err: error }, "SSE session not shared: Redis unreachable"));
      write(`event: endpoint\ndata: /message?sessionId=${sessionId}\n\n`);
      timers = [
        setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS),
        setTimeout(() => void transport.close(), MAX_SESSION_MS),
      ];
    },
    cancel: async () => {
      cancelled = true;
      await sessions().get(sessionId)?.transport.close();
    },
  });
}

export type DeliveryResult = "accepted" | "unknown_session" | "forbidden";

/**
 * Hands a client message to its session, here or (with REDIS_URL) on the instance holding its
 * stream; only the session's own veterinarian may post to it.
 */
export async function deliverSseMessage(
  sessionId: string,
  identity: Identity,
  message: JSONRPCMessage,
): Promise<DeliveryResult> {
  if (!SESSION_ID.test(sessionId)) return "unknown_session";
  const session = sessions().get(sessionId);
  if (!session) return publishToBusSession(sessionId, identity.veterinarianId, message);
  if (session.veterinarianId !== identity.veterinarianId) return "forbidden";
  session.transport.deliver(message);
  return "accepted";
}
