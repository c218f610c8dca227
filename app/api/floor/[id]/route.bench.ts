// GET /api/floor/{id} — a benchmark fixture like /api/floor (compiled only into bench/rest.ts's own
// build, never shipped): the same constant answer on a route with a path parameter, as
// /v1/cases/{id} has. bench/rest.ts measures it beside the floor to show how much of the app's cost
// is Next.js resolving a dynamic route rather than VetDx's own work. The id is not read.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
