// The embedded identity provider's signing keys: one RS256 key pair generated on first start and
// stored in the database. oidc-provider signs ID tokens with it, the client-credentials endpoint
// signs access tokens with it, and /idp/jwks publishes its public half.
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from "jose";
import { randomUUID } from "node:crypto";
import type { Database } from "@/db";
import { getOrCreateSecret } from "./app-secrets";

export const SIGNING_ALGORITHM = "RS256";

export interface SigningKeys {
  /** Private JWKs, newest first; oidc-provider takes them as its `jwks`. */
  keys: JWK[];
}

async function generateSigningKeys(): Promise<SigningKeys> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, kid: randomUUID(), alg: SIGNING_ALGORITHM, use: "sig" }] };
}

const cache = new WeakMap<Database, Promise<SigningKeys>>();

export function getSigningKeys(db: Database): Promise<SigningKeys> {
  const cached = cache.get(db);
  if (cached) return cached;
  const loading = getOrCreateSecret(db, "idp_signing_keys", generateSigningKeys);
  cache.set(db, loading);
  // A failed load (database briefly down) must not stick until restart: the next call tries again.
  loading.catch(() => {
    if (cache.get(db) === loading) cache.delete(db);
  });
  return loading;
}

export function publicJwks(keys: SigningKeys): { keys: JWK[] } {
  return {
    keys: keys.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) =>
      Object.fromEntries(
        Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined),
      ),
    ),
  };
}

export async function currentSigningKey(keys: SigningKeys): Promise<{ key: CryptoKey; kid: string }> {
  const jwk = keys.keys[0];
  if (!jwk?.kid) throw new Error("No signing key");
  return { key: (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey, kid: jwk.kid };
}
