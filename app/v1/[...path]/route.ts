// Any other /v1 path: a problem+json 404 instead of the HTML not-found page.
import { problemResponse } from "@/lib/http/problem";

export const dynamic = "force-dynamic";

function notFound(request: Request): Response {
  return problemResponse(
    404,
    "not_found",
    `No endpoint ${new URL(request.url).pathname}; see /v1/openapi.json`,
  );
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
