// Client authentication at /token (RFC 6749 2.3), by the method the client registered:
// client_secret_basic, client_secret_post, or none (public clients name themselves with client_id
// and must not send a secret). Secrets are compared with their stored SHA-256 in constant time.
import { secretMatches } from "@/lib/auth/secrets";
import { findClient, type OAuthClientRow } from "./clients";
import { OAuthServerError } from "./errors";
import type { Database } from "@/db";

interface PresentedCredentials {
  method: "client_secret_basic" | "client_secret_post" | "none";
  clientId: string;
  clientSecret?: string;
}

function decodeBasic(header: string): { clientId: string; clientSecret: string } {
  const malformed = () =>
    new OAuthServerError("invalid_client", "Malformed Basic authorization header", { basicChallenge: true });
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header)?.[1];
  if (!encoded) throw malformed();
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw malformed();
  // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
    };
  } catch {
    throw malformed();
  }
}

function presentedCredentials(authorization: string | null, form: URLSearchParams): PresentedCredentials {
  const bodyId = form.get("client_id") || undefined;
  const bodySecret = form.get("client_secret") || undefined;
  if (authorization) {
    if (!/^Basic /i.test(authorization)) {
      throw new OAuthServerError("invalid_client", "Use HTTP Basic client authentication", {
        basicChallenge: true,
      });
    }
    if (bodySecret)
      throw new OAuthServerError("invalid_request", "Use one client authentication method, not two");
    const basic = decodeBasic(authorization);
    if (bodyId && bodyId !== basic.clientId) {
      throw new OAuthServerError("invalid_request", "client_id does not match the Authorization header");
    }
    return { method: "client_secret_basic", ...basic };
  }
  if (!bodyId)
    throw new OAuthServerError("invalid_client", "Client authentication is required (client_id is missing)");
  return bodySecret
    ? { method: "client_secret_post", clientId: bodyId, clientSecret: bodySecret }
    : { method: "none", clientId: bodyId };
}

/** The authenticated client, or OAuthServerError invalid_client (401; a Basic challenge when Basic was used). */
export async function authenticateClient(
  db: Database,
  authorization: string | null,
  form: URLSearchParams,
): Promise<OAuthClientRow> {
  const presented = presentedCredentials(authorization, form);
  const basicChallenge = presented.method === "client_secret_basic";
  const refuse = (description: string) =>
    new OAuthServerError("invalid_client", description, { basicChallenge });
  const client = await findClient(db, presented.clientId);
  // Unknown clients get invalid_client so that MCP clients drop a stale registration (spec 5.5).
  if (!client) throw refuse("Unknown client: register again");
  if (client.tokenEndpointAuthMethod === "none") {
    if (presented.method !== "none") throw refuse("This is a public client: it has no secret to send");
    return client;
  }
  if (presented.method === "none") throw refuse("Client authentication is required for this client");
  if (presented.method !== client.tokenEndpointAuthMethod) {
    throw refuse(`This client authenticates with ${client.tokenEndpointAuthMethod}`);
  }
  if (!secretMatches(presented.clientSecret ?? "", client.secretHash))
    throw refuse("Client authentication failed");
  return client;
}
