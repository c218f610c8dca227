// A case resource announces its updates (notifications/resources/updated) to subscribers while the
// pipeline moves it on, so an assistant need not poll. Two ways in:
// - 2026-07-28 on /mcp: `subscriptions/listen` with `resourceSubscriptions`; the SDK's handler holds
//   the stream and filters by URI, fed by `CaseEventBus`. The SDK does not ask who may subscribe to
//   what, so the route checks every URI first (`refuseForeignSubscriptions`).
// - 2025-era on /sse: `resources/subscribe` on the session, answered on its event stream. Stateless
//   2025-era /mcp has no stream to answer on, so it says where to go instead.
import {
  InMemoryServerEventBus,
  ProtocolError,
  ProtocolErrorCode,
  type McpServer,
  type ServerEvent,
  type ServerEventBus,
} from "@modelcontextprotocol/server";
import { onCaseUpdate } from "@/lib/cases/case-updates";
import { CASE_URI_PREFIX, caseUri, readOwnCase, type SurfaceContext } from "./resources";

/** At most this many resources in one subscription. */
export const MAX_SUBSCRIBED_RESOURCES = 100;

/** The SDK's in-process bus, fed by case updates from every instance once anyone listens. */
export class CaseEventBus implements ServerEventBus {
  private readonly local = new InMemoryServerEventBus();
  private following = false;

  publish(event: ServerEvent): void {
    this.local.publish(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    if (!this.following) {
      this.following = true;
      onCaseUpdate((caseId) => this.local.publish({ kind: "resource_updated", uri: caseUri(caseId) }));
    }
    return this.local.subscribe(listener);
  }
}

/** The case id in a case URI, or undefined for any other URI. */
function caseIdOf(uri: string): string | undefined {
  return uri.startsWith(CASE_URI_PREFIX) ? uri.slice(CASE_URI_PREFIX.length) : undefined;
}

/** Only the caller's own cases can be subscribed to; anything else is an invalid-params error. */
export async function assertSubscribable(context: SurfaceContext, uri: string): Promise<void> {
  const caseId = caseIdOf(uri);
  if (caseId === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Only your cases (${CASE_URI_PREFIX}{id}) announce updates; ${uri.slice(0, 200)} does not`,
      { uri: uri.slice(0, 2000) },
    );
  }
  await readOwnCase(context, caseId);
}

function jsonRpcError(id: unknown, error: ProtocolError): Response {
  return Response.json({
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    },
  });
}

/**
 * For a `subscriptions/listen` request: a JSON-RPC error response when it names a resource the
 * caller may not subscribe to (nothing is subscribed then); undefined for anything else.
 */
export async function refuseForeignSubscriptions(
  body: Uint8Array,
  context: SurfaceContext,
): Promise<Response | undefined> {
  let message: {
    id?: unknown;
    method?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  };
  try {
    message = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  if (message?.method !== "subscriptions/listen") return undefined;
  const uris = message.params?.notifications?.resourceSubscriptions;
  if (uris === undefined) return undefined;
  try {
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string")) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "resourceSubscriptions must be a list of URIs",
      );
    }
    if (uris.length > MAX_SUBSCRIBED_RESOURCES) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `At most ${MAX_SUBSCRIBED_RESOURCES} resources can be subscribed to at once`,
      );
    }
    for (const uri of new Set(uris as string[])) await assertSubscribable(context, uri);
    return undefined;
  } catch (error) {
    if (error instanceof ProtocolError) return jsonRpcError(message.id, error);
    throw error;
  }
}

/**
 * resources/subscribe and resources/unsubscribe for 2025-era clients: on a session (/sse) updates
 * of the subscribed cases go out on its stream; without one (stateless /mcp) subscribing is refused
 * with directions.
 */
export function registerResourceSubscriptions(
  server: McpServer,
  context: SurfaceContext,
  mode: "session" | "stateless",
): void {
  server.server.registerCapabilities({ resources: { subscribe: true } });
  if (mode === "stateless") {
    server.server.setRequestHandler("resources/subscribe", async () => {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        "Subscriptions on /mcp need protocol 2026-07-28 (subscriptions/listen); 2025-era clients subscribe on /sse",
      );
    });
    server.server.setRequestHandler("resources/unsubscribe", async () => ({}));
    return;
  }
  const subscribed = new Set<string>();
  let stop: (() => void) | undefined;
  server.server.setRequestHandler("resources/subscribe", async (request) => {
    const uri = request.params.uri;
    await assertSubscribable(context, uri);
    if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIBED_RESOURCES) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `At most ${MAX_SUBSCRIBED_RESOURCES} resources can be subscribed to at once`,
      );
    }
    subscribed.add(uri);
    stop ??= onCaseUpdate((caseId) => {
      const updated = caseUri(caseId);
      if (subscribed.has(updated)) void server.server.sendResourceUpdated({ uri: updated }).catch(() => {});
    });
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const previous = server.server.onclose;
  server.server.onclose = () => {
    stop?.();
    previous?.();
  };
}
