// POST /register: RFC 7591 dynamic client registration. Registrations are rows in oauth_clients, so
// they survive restarts and are shared by every instance; confidential clients get a secret that is
// stored only as its SHA-256.
import type { Database } from "@/db";
import { oauthClients } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/auth/secrets";
import { checkRateLimit, type LimiterSpec } from "@/lib/http/rate-limit";
import { normaliseClientMetadata } from "./client-metadata";
import { OAuthServerError } from "./errors";

export const MAX_REGISTRATION_BYTES = 16 * 1024;

/** Registrations per client IP: generous for people, a wall for scripts filling the table. */
export const REGISTRATIONS_PER_IP: LimiterSpec = {
  name: "mcp-registrations",
  points: 30,
  durationSeconds: 3600,
};

export interface RegistrationResponse {
  client_id: string;
  client_secret?: string;
  client_id_issued_at: number;
  client_secret_expires_at?: 0;
  [field: string]: unknown;
}

/** Reads the registration request: JSON only, at most MAX_REGISTRATION_BYTES. */
export async function readRegistrationBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new OAuthServerError("invalid_client_metadata", "Send the client metadata as application/json");
  }
  const tooLarge = () =>
    new OAuthServerError(
      "invalid_client_metadata",
      `The client metadata exceeds ${MAX_REGISTRATION_BYTES} bytes`,
      {
        status: 413,
      },
    );
  if (Number(request.headers.get("content-length") ?? "0") > MAX_REGISTRATION_BYTES) throw tooLarge();
  const body = await request.arrayBuffer();
  if (body.byteLength > MAX_REGISTRATION_BYTES) throw tooLarge();
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new OAuthServerError("invalid_client_metadata", "The body is not valid JSON");
  }
}

export async function registerClient(
  db: Database,
  body: unknown,
  options: { clientIp: string },
): Promise<RegistrationResponse> {
  const client = normaliseClientMetadata(body);
  const registrations = await checkRateLimit(REGISTRATIONS_PER_IP, options.clientIp);
  if (registrations.limited) {
    throw new OAuthServerError(
      "temporarily_unavailable",
      "Too many registrations from this address; try later",
      { status: 429, rateLimit: registrations },
    );
  }
  const clientId = `mcp_${randomToken(18)}`;
  const clientSecret = client.tokenEndpointAuthMethod === "none" ? undefined : randomToken(32);
  const [row] = await db
    .insert(oauthClients)
    .values({
      clientId,
      secretHash: clientSecret ? sha256(clientSecret) : null,
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      clientName: client.clientName,
      redirectUris: client.redirectUris,
      grantTypes: client.grantTypes,
      metadata: client.metadata,
      source: "registration",
    })
    .returning({ createdAt: oauthClients.createdAt });
  return {
    client_id: clientId,
    ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 as const } : {}),
    client_id_issued_at: Math.floor((row?.createdAt ?? new Date()).getTime() / 1000),
    ...client.metadata,
  };
}
