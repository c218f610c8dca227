// GET /api/floor — a constant JSON answer with no database, no authentication and no I/O. It exists
// for bench/rest.ts: the cheapest dynamic route handler this build can serve, i.e. what Next.js
// itself costs per request (the "framework floor"). It reveals nothing and changes nothing.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
