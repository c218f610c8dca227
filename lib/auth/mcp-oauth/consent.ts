// The consent screen (one per vet and client): shown after sign-in unless the vet already allowed
// this client these scopes. The form is bound to the authorization request and the signed-in vet by
// an HMAC token that must come back both in the form and in a cookie only this browser holds.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthAuthorizationRequests, oauthConsents } from "@/db/schema";
import { getOrCreateSecret } from "@/lib/auth/app-secrets";
import type { HumanVeterinarian } from "@/lib/auth/human-veterinarian";
import { IDENTITY_PROVIDER_PAGE_HEADERS } from "@/lib/auth/idp/pages";
import { accessLevelOf, isScope, scopesForAccess, type AccessLevel, type Scope } from "@/lib/auth/scopes";
import { randomToken } from "@/lib/auth/secrets";
import { getEnv } from "@/lib/env";
import type { OAuthClientRow } from "./clients";
import { AuthorizationPageError } from "./errors";
import { authorizationResponseUrl } from "./http";
import { issueAuthorizationCode, type AuthorizationRequestRow } from "./issue-authorization-code";
import { renderConsentPage } from "./pages";

export const CONSENT_COOKIE_PREFIX = "vetdx_consent_";

async function csrfTokenFor(db: Database, requestId: string, veterinarianId: string): Promise<string> {
  const key = await getOrCreateSecret(db, "mcp_consent_csrf_key", () => randomToken(32));
  return createHmac("sha256", key).update(`consent|${requestId}|${veterinarianId}`).digest("base64url");
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the vet already allowed this client at least these scopes. */
export async function hasConsent(
  db: Database,
  veterinarianId: string,
  clientId: string,
  scopes: readonly string[],
): Promise<boolean> {
  const [row] = await db
    .select({ scopes: oauthConsents.scopes })
    .from(oauthConsents)
    .where(and(eq(oauthConsents.veterinarianId, veterinarianId), eq(oauthConsents.clientId, clientId)));
  return !!row && scopes.every((scope) => row.scopes.includes(scope));
}

/** Where the client will receive the answer, for the page and for its CSP form-action. */
function redirectTarget(redirectUri: string): { label: string; source: string } {
  const url = new URL(redirectUri);
  if (url.protocol === "http:" || url.protocol === "https:") return { label: url.host, source: url.origin };
  return { label: `${url.protocol} (an app on this device)`, source: url.protocol };
}

/** The levels worth offering for a request (one that grants nothing, or no more than another, is not) and the default: all it asked for. */
function accessOffer(requested: readonly string[]): { offered: AccessLevel[]; chosen: AccessLevel } {
  const levels = scopesForAccess(requested.filter(isScope));
  const offered: AccessLevel[] = [];
  if (levels.read.length) offered.push("read");
  if (accessLevelOf(levels.read_write) === "read_write") offered.push("read_write");
  return { offered, chosen: offered.at(-1) ?? "read" };
}

export interface ConsentScreen {
  html: string;
  headers: Record<string, string>;
  cookie: string;
}

export async function buildConsentScreen(
  db: Database,
  request: AuthorizationRequestRow,
  client: OAuthClientRow,
  vet: HumanVeterinarian,
): Promise<ConsentScreen> {
  const csrfToken = await csrfTokenFor(db, request.id, vet.id);
  const target = redirectTarget(request.redirectUri);
  const metadataDocument = client.source === "metadata_document";
  const html = renderConsentPage({
    requestId: request.id,
    csrfToken,
    clientName: client.clientName ?? (metadataDocument ? new URL(client.clientId).host : "An unnamed app"),
    redirectTarget: target.label,
    verifiedBy: metadataDocument ? new URL(client.clientId).host : null,
    scopes: request.scopes.filter(isScope),
    access: accessOffer(request.scopes),
    signedInAs: vet.email ?? vet.name,
  });
  // Chrome applies form-action to the redirect after submitting, so the client's origin is allowed.
  const csp = (IDENTITY_PROVIDER_PAGE_HEADERS["content-security-policy"] ?? "").replace(
    "form-action 'self'",
    `form-action 'self' ${target.source}`,
  );
  const secure = getEnv().APP_URL.startsWith("https://") ? "; Secure" : "";
  const cookie = `${CONSENT_COOKIE_PREFIX}${request.id}=${csrfToken}; Path=/consent; Max-Age=600; HttpOnly; SameSite=Strict${secure}`;
  return { html, headers: { "content-security-policy": csp }, cookie };
}

export interface ConsentDecision {
  requestId: string;
  csrfToken: string;
  /** The value of this request's consent cookie, if the browser sent it. */
  cookieToken: string | undefined;
  decision: string;
  /** The access level the vet chose (`read` or `read_write`); required to allow. */
  access?: string;
}

/** Records the vet's answer; returns the client redirect (code, or error=access_denied), with state and iss. */
export async function decideConsent(db: Database, input: ConsentDecision, now = new Date()): Promise<string> {
  const [request] = await db
    .select()
    .from(oauthAuthorizationRequests)
    .where(
      and(eq(oauthAuthorizationRequests.id, input.requestId), gt(oauthAuthorizationRequests.expiresAt, now)),
    );
  if (!request?.veterinarianId) {
    throw new AuthorizationPageError(
      "This request has expired",
      "This authorization request has expired or was already answered. Go back to your app and connect again.",
    );
  }
  const expected = await csrfTokenFor(db, request.id, request.veterinarianId);
  if (
    !input.cookieToken ||
    !sameSecret(input.csrfToken, expected) ||
    !sameSecret(input.cookieToken, expected)
  ) {
    throw new AuthorizationPageError(
      "Could not confirm your answer",
      "The consent form did not come from this browser's VetDx page. Go back to your app and connect again.",
      403,
    );
  }
  if (input.decision === "deny") {
    const removed = await db
      .delete(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, request.id))
      .returning({ id: oauthAuthorizationRequests.id });
    if (removed.length === 0) {
      throw new AuthorizationPageError(
        "Already answered",
        "This authorization request has already been answered.",
      );
    }
    return authorizationResponseUrl(request.redirectUri, {
      error: "access_denied",
      error_description: "The veterinarian denied access",
      state: request.state ?? undefined,
    });
  }
  if (input.decision !== "allow")
    throw new AuthorizationPageError("Invalid request", "Choose Allow or Deny.");
  const { offered } = accessOffer(request.scopes);
  const access = offered.find((level) => level === input.access);
  if (!access) {
    throw new AuthorizationPageError(
      "Invalid request",
      `Choose what the app may do: ${offered.map((level) => (level === "read" ? "read only" : "read and write")).join(" or ")}.`,
    );
  }
  // The form's choice picks among the scopes this request asked for; it cannot add any.
  const scopes = scopesForAccess(request.scopes.filter(isScope))[access];
  await recordConsent(db, request.veterinarianId, request.clientId, scopes);
  return issueAuthorizationCode(db, request, request.veterinarianId, now, scopes);
}

async function recordConsent(
  db: Database,
  veterinarianId: string,
  clientId: string,
  scopes: readonly Scope[],
) {
  // The latest answer replaces the remembered one: a vet who now chose read only is asked again
  // before the client gets write access back.
  await db
    .insert(oauthConsents)
    .values({ veterinarianId, clientId, scopes: [...scopes] })
    .onConflictDoUpdate({
      target: [oauthConsents.veterinarianId, oauthConsents.clientId],
      set: { scopes: [...scopes], grantedAt: new Date() },
    });
}

/** The consent cookie's value for a request, from a Cookie header. */
export function consentCookieValue(cookieHeader: string | null, requestId: string): string | undefined {
  const name = `${CONSENT_COOKIE_PREFIX}${requestId}`;
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
