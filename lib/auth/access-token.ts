// Verifies identity-provider JWTs (client-credentials tokens and user access tokens) and resolves
// the veterinarian they act as: the machine veterinarian mapped from the client id, or the human.
import { and, eq, isNull } from "drizzle-orm";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type { Database } from "@/db";
import { machineClients, veterinarians } from "@/db/schema";
import type { Env } from "@/lib/env";
import { mcpOAuthUrls } from "./mcp-oauth/urls";
import { AuthError, IdentityProviderUnavailableError, type Identity } from "./identity";
import { cachedIdentityRows } from "./identity-cache";
import { isScope, parseScopeString, type Scope } from "./scopes";
import { getSigningKeys, publicJwks } from "./signing-keys";

const ACCEPTED_ALGORITHMS = ["RS256", "PS256", "ES256"];
const CLOCK_TOLERANCE_SECONDS = 30;

type KeyResolver = Parameters<typeof jwtVerify>[1];

/** What a token must be for: the REST API (and components API), or the MCP endpoint. */
export type ProtectedResource = "api" | "mcp";

export interface TokenVerifierConfig {
  issuer: string;
  /** `aud` must include this: OIDC_AUDIENCE (default APP_URL) for the API, {APP_URL}/mcp for /mcp. */
  audience: string;
  /**
   * RFC 9068 `typ: at+jwt`, required where we issue the tokens (the embedded provider and the
   * client-credentials endpoint both set it), so an ID token or any other JWT signed with the same
   * keys is never taken for an access token. External providers are not held to it (many omit it).
   */
  accessTokenType: "at+jwt" | undefined;
  /** Embedded provider: keys straight from the database; external provider: its JWKS over HTTPS. */
  keys: () => Promise<KeyResolver>;
  embedded: boolean;
}

const localKeySets = new WeakMap<object, ReturnType<typeof createLocalJWKSet>>();
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

async function discoverJwksUri(issuer: string): Promise<URL> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const metadata = (await response.json()) as { jwks_uri?: string; issuer?: string };
  if (!metadata.jwks_uri) throw new Error("discovery has no jwks_uri");
  return new URL(metadata.jwks_uri);
}

/**
 * The remote key set, with every failure to fetch the JWKS (refused, timed out, 5xx, not a key set)
 * an outage (503) rather than an invalid token (401). Only failing to pick a key from a fetched set
 * (unknown key id, unsupported algorithm) stays the token's fault.
 */
function failClosedOnFetchErrors(keySet: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (
        error instanceof joseErrors.JWKSNoMatchingKey ||
        error instanceof joseErrors.JWKSMultipleMatchingKeys ||
        error instanceof joseErrors.JOSENotSupported
      )
        throw error;
      throw new IdentityProviderUnavailableError(
        `The identity provider's keys could not be fetched: ${String(error)}`,
      );
    }
  };
}

export function tokenVerifierConfig(
  db: Database,
  env: Env,
  resource: ProtectedResource = "api",
): TokenVerifierConfig {
  // RFC 8707 / MCP authorization: /mcp takes only tokens meant for it, never the API's tokens.
  const audience =
    resource === "mcp" ? mcpOAuthUrls(env.APP_URL).resource : (env.OIDC_AUDIENCE ?? env.APP_URL);
  if (env.embeddedIdentityProvider) {
    return {
      issuer: env.AUTH_URL,
      audience,
      accessTokenType: "at+jwt",
      embedded: true,
      // One key set per signing-key set: building it per request re-imported the key every time.
      keys: async () => {
        const signingKeys = await getSigningKeys(db);
        let keySet = localKeySets.get(signingKeys);
        if (!keySet) {
          keySet = createLocalJWKSet(publicJwks(signingKeys));
          localKeySets.set(signingKeys, keySet);
        }
        return keySet;
      },
    };
  }
  return {
    issuer: env.AUTH_URL,
    audience,
    accessTokenType: undefined,
    embedded: false,
    keys: async () => {
      let keySet = remoteKeySets.get(env.AUTH_URL);
      if (!keySet) {
        keySet = failClosedOnFetchErrors(
          createRemoteJWKSet(await discoverJwksUri(env.AUTH_URL), {
            timeoutDuration: 5000,
            cooldownDuration: 30_000,
          }),
        );
        remoteKeySets.set(env.AUTH_URL, keySet);
      }
      return keySet;
    },
  };
}

function describeVerificationFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "The access token expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "The access token was not issued by this service's identity provider";
    if (error.claim === "aud") return "The access token is not meant for this API (audience)";
    if (error.claim === "nbf") return "The access token is not valid yet";
    if (error.claim === "typ") return "The token is not an access token (typ at+jwt)";
    return `The access token's ${error.claim} claim is invalid`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return "The access token is signed with an algorithm this API does not accept";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return "The access token signature is invalid";
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "The access token was signed by an unknown key";
  return "The access token is malformed or invalid";
}

export async function verifyAccessToken(config: TokenVerifierConfig, token: string): Promise<JWTPayload> {
  let keys: KeyResolver;
  try {
    keys = await config.keys();
  } catch (error) {
    throw new IdentityProviderUnavailableError(
      `The identity provider's keys could not be loaded: ${String(error)}`,
    );
  }
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: config.issuer,
      audience: config.audience,
      typ: config.accessTokenType,
      algorithms: ACCEPTED_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["sub", "exp", "iat"],
    });
    return payload;
  } catch (error) {
    if (error instanceof IdentityProviderUnavailableError) throw error;
    throw new AuthError("invalid_token", describeVerificationFailure(error), { tokenPresent: true });
  }
}

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return parseScopeString(payload.scope);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  if (typeof payload.scp === "string") return parseScopeString(payload.scp);
  return [];
}

/** Maps verified claims to the veterinarian the request acts as. */
export async function resolveTokenIdentity(
  db: Database,
  config: TokenVerifierConfig,
  payload: JWTPayload,
): Promise<Identity> {
  const subject = String(payload.sub);
  const tokenScopes = scopesOf(payload);
  const clientIdClaim =
    typeof payload.client_id === "string"
      ? payload.client_id
      : typeof payload.azp === "string"
        ? payload.azp
        : null;

  const [machine] = await cachedIdentityRows(db, `client:${subject}`, () =>
    db
      .select({ client: machineClients, vet: veterinarians })
      .from(machineClients)
      .innerJoin(veterinarians, eq(veterinarians.id, machineClients.veterinarianId))
      .where(eq(machineClients.clientId, subject)),
  );
  if (machine) {
    if (machine.client.revokedAt)
      throw new AuthError("invalid_token", "The client's credentials were revoked", { tokenPresent: true });
    // A token never carries more than the client is allowed now, so narrowing a client takes effect at once.
    const scopes = tokenScopes.filter((s): s is Scope => isScope(s) && machine.client.scopes.includes(s));
    return {
      veterinarianId: machine.vet.id,
      kind: "machine",
      email: machine.vet.email,
      name: machine.vet.name,
      role: machine.vet.role,
      scopes,
      clientId: machine.client.clientId,
      authMethod: "jwt",
    };
  }
  // A client-credentials token (sub = client id) whose client is not mapped to a machine veterinarian.
  if (clientIdClaim === subject) {
    throw new AuthError("invalid_token", `Client ${subject} is not registered as a machine veterinarian`, {
      tokenPresent: true,
    });
  }

  const scopes = tokenScopes.filter(isScope);
  const human = config.embedded
    ? await cachedIdentityRows(db, `human:${subject}`, () => findEmbeddedHuman(db, subject))
    : await cachedIdentityRows(db, `external:${config.issuer}|${subject}`, () =>
        findOrProvisionExternalHuman(db, config.issuer, subject, payload),
      );
  if (!human || human.disabledAt)
    throw new AuthError("invalid_token", "The token's user is not a VetDx veterinarian", {
      tokenPresent: true,
    });
  return {
    veterinarianId: human.id,
    kind: "human",
    email: human.email,
    name: human.name,
    role: human.role,
    scopes,
    clientId: clientIdClaim,
    authMethod: "jwt",
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findEmbeddedHuman(db: Database, subject: string) {
  if (!UUID.test(subject)) return undefined;
  const [vet] = await db
    .select()
    .from(veterinarians)
    .where(and(eq(veterinarians.id, subject), eq(veterinarians.kind, "human")));
  return vet;
}

/** People at an external provider become veterinarians the first time they present a valid token. */
async function findOrProvisionExternalHuman(
  db: Database,
  issuer: string,
  subject: string,
  payload: JWTPayload,
) {
  const externalSubject = `${issuer}|${subject}`;
  const [existing] = await db
    .select()
    .from(veterinarians)
    .where(eq(veterinarians.externalSubject, externalSubject));
  if (existing) return existing;
  const email = typeof payload.email === "string" ? payload.email.toLowerCase() : null;
  const name =
    (typeof payload.name === "string" && payload.name) ||
    (typeof payload.username === "string" && payload.username) ||
    email ||
    subject;
  await db
    .insert(veterinarians)
    .values({ kind: "human", email, name, externalSubject })
    .onConflictDoNothing();
  const [created] = await db
    .select()
    .from(veterinarians)
    .where(and(eq(veterinarians.externalSubject, externalSubject), isNull(veterinarians.disabledAt)));
  return created;
}
