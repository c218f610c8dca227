// GET /mcp-app/{file} — the script of the diagnostics MCP App view (lib/mcp/app-view), which hosts
// load into the view's sandboxed frame. Public: it is code, no data. Its name carries its hash.
import { diagnosticsViewBundle } from "@/lib/mcp/app-view/view-html";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const [{ file }, bundle] = await Promise.all([params, diagnosticsViewBundle()]);
  if (file !== bundle.file) return new Response("Not found", { status: 404 });
  return new Response(bundle.script, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      // Loaded by a frame with an opaque origin (sandbox without allow-same-origin).
      "cross-origin-resource-policy": "cross-origin",
    },
  });
}
