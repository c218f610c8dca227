// GET /api/floor/{id} — the same constant answer as /api/floor, on a route with a path parameter as
// /v1/cases/{id} has. bench/rest.ts measures it beside the floor to show how much of the app's cost
// is Next.js resolving a dynamic route rather than VetDx's own work. It reveals nothing and changes
// nothing: the id is not read.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
