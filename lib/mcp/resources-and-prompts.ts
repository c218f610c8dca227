// Everything on the MCP server besides tools and the MCP Apps view: case and catalogue resources,
// prompts and their argument completion, for the caller /mcp or /sse resolved.
import type { McpServer } from "@modelcontextprotocol/server";
import type { Identity } from "@/lib/auth/identity";
import { registerPrompts } from "./prompts";
import { registerResources, type SurfaceContext } from "./resources";

/** The identity the route put on the request's auth info (lib/mcp/authenticate.ts). */
export function identityOf(authInfo: unknown): Identity | undefined {
  return (authInfo as { extra?: { identity?: Identity } } | undefined)?.extra?.identity;
}

export function registerResourcesAndPrompts(server: McpServer, context: SurfaceContext): void {
  registerResources(server, context);
  registerPrompts(server, context);
}
