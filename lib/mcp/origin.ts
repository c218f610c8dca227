// DNS-rebinding protection for the MCP transports (the MCP spec requires servers to validate
// Origin): a browser request's Origin and the request's Host must name VetDx's own host. Ports
// are not compared (proxies and local tools differ), and the loopback names count as one host.
import { getEnv } from "@/lib/env";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function sameHost(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x === y || (LOOPBACK.has(x) && LOOPBACK.has(y));
}

function hostnameOf(hostHeader: string): string {
  return hostHeader.startsWith("[")
    ? hostHeader.slice(0, hostHeader.indexOf("]") + 1)
    : (hostHeader.split(":")[0] ?? "");
}

export function checkMcpOrigin(request: Request): string | null {
  const env = getEnv();
  const own = new URL(env.APP_URL).hostname;
  const origin = request.headers.get("origin");
  if (origin) {
    let originHost: string;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      return `Origin ${origin} is not allowed to call this MCP server`;
    }
    if (!sameHost(originHost, own)) return `Origin ${origin} is not allowed to call this MCP server`;
  }
  // Behind trusted proxies the host that counts is the one the nearest proxy reports: the right-most
  // X-Forwarded-Host entry (proxies in a chain append; entries further left may come from anyone).
  const forwarded = env.TRUST_PROXY ? request.headers.get("x-forwarded-host") : null;
  const host = forwarded ? (forwarded.split(",").at(-1)?.trim() ?? "") : request.headers.get("host");
  if (host && !sameHost(hostnameOf(host), own)) return `Host ${host} is not this MCP server`;
  return null;
}
