// GET /v1/openapi.json — the OpenAPI 3.1 description of the REST API (public).
import { getEnv } from "@/lib/env";
import { openApiDocument } from "@/lib/http/openapi";

export const dynamic = "force-dynamic";

export function GET(): Response {
  const env = getEnv();
  return Response.json(openApiDocument({ appUrl: env.APP_URL, authUrl: env.AUTH_URL }), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}
