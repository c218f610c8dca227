// How an MCP tool is declared: schemas (zod, shared with REST), the four annotations, the scopes
// it needs, and a `run` that calls the same lib/ functions REST does. `registerTools` turns
// these into MCP tools with structuredContent, JSON text and `isError` results a model can act on.
import type { McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Database } from "@/db";
import { AuthError, type Identity } from "@/lib/auth/identity";
import type { Scope } from "@/lib/auth/scopes";
import type { CaseRunner } from "@/lib/cases/case-runner";
import { AppError, containsNul, isNulTextError, NUL_MESSAGE } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { listToolsByScope } from "./scoped-tools-list";
import { resultContent, runWithinBudget } from "./tool-results";

export interface ToolContext {
  db: Database;
  identity: Identity;
  signal: AbortSignal;
  /** Where create_case hands new cases; the transport's route chooses it (inngest/runner.ts). */
  caseRunner: CaseRunner;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  /** The caller needs one of these scopes. */
  scopes: readonly Scope[];
  run(args: z.output<I>, context: ToolContext): Promise<z.input<O>>;
  /**
   * An MCP Apps view that shows the answer: `meta` links it in tools/list, `data` adds what only
   * the view needs to the result's `_meta` (lib/mcp/app-view).
   */
  view?: {
    meta: Record<string, unknown>;
    data(args: z.output<I>, context: ToolContext): Promise<Record<string, unknown>>;
  };
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return tool;
}

/** Read-only catalogue and case lookups. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

function errorResult(message: string) {
  return { isError: true, content: [{ type: "text" as const, text: message }] };
}

export interface ToolRegistryContext {
  db: () => Promise<Database>;
  /** The identity the /mcp route resolved for this request. */
  identity: (authInfo: unknown) => Identity | undefined;
  caseRunner: CaseRunner;
}

// Stateless /mcp builds a server, and registers every tool, per request. The SDK memoises a tool's
// output schema as JSON Schema on the registered tool, which lives one request; converting it
// again for every call cost ~0.3 ms. The conversion is kept here, per tool definition, instead.
const outputSchemaJson = new WeakMap<ToolDefinition, Record<string, unknown> | undefined>();

export function registerTools(
  server: McpServer,
  tools: ToolDefinition[],
  registry: ToolRegistryContext,
): void {
  for (const tool of tools) {
    const registered = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
        ...(tool.view && { _meta: tool.view.meta }),
      },
      async (args: unknown, ctx) => {
        const identity = registry.identity(ctx.http?.authInfo);
        if (!identity) return errorResult("Not authenticated");
        if (tool.scopes.length && !tool.scopes.some((scope) => identity.scopes.includes(scope))) {
          return errorResult(
            `This tool needs the scope ${tool.scopes.join(" or ")}, which your token does not have.`,
          );
        }
        if (containsNul(args)) return errorResult(NUL_MESSAGE);
        try {
          const parsed = tool.input.parse(args ?? {});
          const context = {
            db: await registry.db(),
            identity,
            signal: ctx.mcpReq.signal,
            caseRunner: registry.caseRunner,
          };
          const result = await runWithinBudget(tool, parsed, context);
          return {
            structuredContent: result.structured,
            content: resultContent(result),
            ...(tool.view && { _meta: await tool.view.data(parsed, context) }),
          };
        } catch (error) {
          if (isNulTextError(error)) return errorResult(NUL_MESSAGE);
          // A scope the operation needs besides the tool's own (e.g. a component session's read scope).
          if (error instanceof AuthError) return errorResult(error.description);
          if (error instanceof AppError) {
            const details = error.details.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
            return errorResult(details ? `${error.message} (${details})` : error.message);
          }
          logger.error({ err: error, tool: tool.name }, "tool failed");
          return errorResult(
            "The tool failed unexpectedly; the error has been logged. Try again or use another tool.",
          );
        }
      },
    );
    if (outputSchemaJson.has(tool)) registered.outputSchemaJson = outputSchemaJson.get(tool);
    else outputSchemaJson.set(tool, registered.outputSchemaJson);
  }
  listToolsByScope(server, new Map(tools.map((tool) => [tool.name, tool.scopes])), registry.identity);
}
