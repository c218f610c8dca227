// Response headers for the component page (GET /components/diagnostics/<session id>), which a
// server component cannot set per session: who may frame it, no referrer (the URL is a
// capability), and 404 for unknown sessions, 410 for expired ones and those whose creator's access
// was withdrawn. server.ts applies them. The page shows case notes, so its CSP is the full page
// policy with frame-ancestors changed, and scripts allowed by a fresh nonce only (server.ts puts the
// policy on the request too, where Next.js finds the nonce for its scripts).
import { randomBytes } from "node:crypto";
import type { Database } from "@/db";
import { getEnv } from "@/lib/env";
import { htmlContentSecurityPolicy } from "@/lib/http/security-headers";
import { findComponentSession } from "./find-session";

const COMPONENT_PAGE = /^\/components\/diagnostics\/([^/]+)\/?$/;

export interface ComponentPageHeaders {
  status: 200 | 404 | 410;
  headers: Record<string, string>;
}

/** The headers for a component page path, or null for any other path. */
export async function componentPageHeaders(
  db: Database,
  pathname: string,
): Promise<ComponentPageHeaders | null> {
  const match = COMPONENT_PAGE.exec(pathname);
  if (!match?.[1]) return null;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(match[1]);
  } catch {
    sessionId = "";
  }
  const lookup = await findComponentSession(db, sessionId);
  // Origins were validated (scheme://host[:port]) when the session was created.
  const ancestors = lookup.state === "active" ? lookup.session.allowedOrigins.join(" ") : "'none'";
  const env = getEnv();
  const options = { appUrl: env.APP_URL, authUrl: env.AUTH_URL, dev: env.NODE_ENV === "development" };
  return {
    status: lookup.state === "active" ? 200 : lookup.state === "unknown" ? 404 : 410,
    headers: {
      "content-security-policy": htmlContentSecurityPolicy(
        options,
        ancestors || "'none'",
        randomBytes(16).toString("base64"),
      ),
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    },
  };
}
