// tools/list shows a caller only the tools its token's scopes allow (as GitHub's and Sentry's MCP
// servers do), so a read-only connection does not offer the model tools it would be refused. A
// hidden tool stays callable: tools/call answers the tool error that names the missing scope.
import type { ListToolsResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { Identity } from "@/lib/auth/identity";

/** Whether a token with `scopes` may use a tool that needs one of `required` (none: anyone). */
export function scopesAllow(required: readonly string[], scopes: readonly string[]): boolean {
  return required.length === 0 || required.some((scope) => scopes.includes(scope));
}

type ListTools = (request: unknown, ctx: ServerContext) => Promise<ListToolsResult>;

/**
 * Wraps the SDK's own tools/list (schemas, annotations and `_meta` as it builds them) in a filter
 * by the caller's scopes. `required` names the scopes of each tool; tools not in it stay listed.
 */
export function listToolsByScope(
  server: McpServer,
  required: ReadonlyMap<string, readonly string[]>,
  identity: (authInfo: unknown) => Identity | undefined,
): void {
  // The SDK offers no hook into the list it builds; its stored handler is reached the way its own
  // Client reaches one (a protected accessor), and replaced through the public API.
  const protocol = server.server as unknown as { _getRequestHandler(method: string): ListTools | undefined };
  const listAll = protocol._getRequestHandler("tools/list");
  if (!listAll) return;
  server.server.removeRequestHandler("tools/list");
  server.server.setRequestHandler("tools/list", async (request, ctx) => {
    const result = await listAll(request, ctx);
    const scopes = identity(ctx.http?.authInfo)?.scopes ?? [];
    const visible = (name: string) => scopesAllow(required.get(name) ?? [], scopes);
    // A spread keeps the SDK's symbol-keyed cache hint; the list depends on the token, so it is
    // never a shared-cache answer (the SDK's default cacheScope is private).
    return { ...result, tools: result.tools.filter((tool) => visible(tool.name)) };
  });
}
