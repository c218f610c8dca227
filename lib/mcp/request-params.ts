// Checks each JSON-RPC request's params against the protocol's own schema for its method before the
// SDK sees it. The SDK's built-in handlers (initialize, resources/read, prompts/get,
// completion/complete…) parse their params inside the handler, and a failed parse surfaces as
// -32603 "internal error" carrying zod's issue list; a client that sent bad params should hear
// -32602 "invalid params" instead. Methods the protocol does not define pass through untouched
// (the SDK answers -32601 for them).
import { ClientRequestSchema } from "@modelcontextprotocol/core";

type RequestSchema = (typeof ClientRequestSchema.options)[number];

const SCHEMAS = new Map<string, RequestSchema>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

interface JsonRpcError {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

function isRequest(message: unknown): message is { id: string | number; method: string; params?: unknown } {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
  const { id, method } = message as Record<string, unknown>;
  return (typeof id === "string" || typeof id === "number") && typeof method === "string";
}

function invalidParams(message: unknown): string | null {
  if (!isRequest(message)) return null;
  const schema = SCHEMAS.get(message.method);
  if (!schema) return null;
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (parsed.success) return null;
  const where = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "params"}: ${issue.message}`)
    .join("; ");
  return `Invalid params for ${message.method}: ${where}`;
}

/**
 * The JSON-RPC answer for a body holding requests with params their method's schema refuses, or
 * null when there are none. In a batch, every request is answered: those with bad params -32602,
 * the others -32600 (the batch is refused whole, so nothing in it runs).
 */
export function refuseInvalidParams(body: unknown): Response | null {
  const messages = Array.isArray(body) ? body : [body];
  const problems = messages.map(invalidParams);
  if (problems.every((problem) => problem === null)) return null;
  const badIds = messages
    .filter((message, index) => isRequest(message) && problems[index] !== null)
    .map((message) => JSON.stringify((message as { id: string | number }).id));
  const answers: JsonRpcError[] = messages.filter(isRequest).map((message) => {
    const problem = invalidParams(message);
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: problem
        ? { code: -32602, message: problem }
        : { code: -32600, message: `Batch refused: invalid params in request ${badIds.join(", ")}` },
    };
  });
  return Response.json(Array.isArray(body) ? answers : answers[0], { status: 200 });
}
