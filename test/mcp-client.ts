// The official MCP client talking to the /mcp route handler in-process, for integration tests.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { POST } from "@/app/mcp/route";
import { APP_URL, call } from "./support";

/** A connected client for `token`: the 2026-07-28 era (pinned) or a 2025-era `initialize`. */
export async function connectMcpClient(token: string, era: "modern" | "legacy" = "modern"): Promise<Client> {
  const client = new Client(
    { name: "vetdx-test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${APP_URL}/mcp`), {
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set("host", "vetdx.test");
        return call(POST as never, new URL(String(url)).pathname, { ...init, headers, token });
      },
    }),
  );
  return client;
}
