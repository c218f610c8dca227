// GET /api/floor — a benchmark fixture, compiled only into bench/rest.ts's own build
// (VETDX_BENCH_ROUTES=1 adds `.bench.ts` to next.config.ts's pageExtensions); `npm run build` and
// `npm start` leave it out, so it never ships. A constant JSON answer with no database, no
// authentication and no I/O: the cheapest dynamic route handler this build can serve, i.e. what
// Next.js itself costs per request (the "framework floor").
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
