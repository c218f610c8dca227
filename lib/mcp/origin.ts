// DNS-rebinding protection for the MCP transports (the MCP spec requires servers to validate
// Origin): a browser request must come from VetDx's own origin, and the Host must be ours.
import { getEnv } from "@/lib/env";

export function checkMcpOrigin(request: Request): string | null {
  const env = getEnv();
  const own = new URL(env.APP_URL);
  const origin = request.headers.get("origin");
  if (origin && origin !== own.origin) return `Origin ${origin} is not allowed to call this MCP server`;
  const host = (env.TRUST_PROXY ? request.headers.get("x-forwarded-host") : null) ?? request.headers.get("host");
  if (host && host.toLowerCase() !== own.host.toLowerCase()) return `Host ${host} is not this MCP server`;
  return null;
}
