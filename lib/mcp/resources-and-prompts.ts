// Everything on the MCP server besides tools and the MCP Apps view: case and catalogue resources,
// prompts and their argument completion, for the caller /mcp or /sse resolved.
import type { McpServer } from "@modelcontextprotocol/server";
import type { Identity } from "@/lib/auth/identity";
import { registerPrompts } from "./prompts";
import { registerResources, type SurfaceContext } from "./resources";
import { registerResourceSubscriptions } from "./subscriptions";

/** The identity the route put on the request's auth info (lib/mcp/authenticate.ts). */
export function identityOf(authInfo: unknown): Identity | undefined {
  return (authInfo as { extra?: { identity?: Identity } } | undefined)?.extra?.identity;
}

/** `session`: the transport keeps a stream per client (/sse) to send resource updates on. */
export function registerResourcesAndPrompts(
  server: McpServer,
  context: SurfaceContext,
  transport: "session" | "stateless",
): void {
  registerResources(server, context);
  registerResourceSubscriptions(server, context, transport);
  registerPrompts(server, context);
}
