// oidc-provider's storage adapter on our database (table identity_provider_payloads), so sessions,
// grants and codes survive restarts and are shared by every instance on one database.
//
// Stored like the MCP authorization server's codes and tokens: under the SHA-256 of the id (the
// session cookie, interaction id, code or token itself), with the id left out of the payload and
// given back by `find`, which is called with it. The uid, user-code and grant-id lookups are keyed
// by their SHA-256 too. A copy of the table thus holds no usable session cookie, code or token.
import { and, eq, lt } from "drizzle-orm";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "@/db";
import { identityProviderPayloads as payloads } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";

// Models looked up by grant id when a grant is revoked.
const GRANTABLE = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
]);

/**
 * A device code is found by its user code and then saved again under its own id, so its payload
 * must keep the id. (The device flow is off; this keeps it working should it be turned on.)
 */
const KEEPS_ID = new Set(["DeviceCode"]);

const digest = (value: unknown) => (typeof value === "string" ? sha256(value) : null);

/** The payload without the raw id; an interaction also drops its copy of the session cookie. */
function storable(model: string, payload: AdapterPayload): AdapterPayload {
  const { jti, ...rest } = payload;
  const stored: AdapterPayload = KEEPS_ID.has(model) ? { jti, ...rest } : rest;
  // oidc-provider copies the session id into an interaction as `session.cookie` and never reads it.
  if (model === "Interaction" && stored.session) {
    const { cookie: _cookie, ...session } = stored.session as AdapterPayload["session"] & { cookie?: string };
    stored.session = session;
  }
  return stored;
}

export function createAdapterClass(db: Database) {
  return class DatabaseAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id: sha256(id),
        payload: storable(this.model, payload),
        grantId: GRANTABLE.has(this.model) ? digest(payload.grantId) : null,
        userCode: digest(payload.userCode),
        uid: digest(payload.uid),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(payloads)
        .values(row)
        .onConflictDoUpdate({
          target: [payloads.model, payloads.id],
          set: {
            payload: row.payload,
            grantId: row.grantId,
            userCode: row.userCode,
            uid: row.uid,
            expiresAt: row.expiresAt,
          },
        });
    }

    private async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(payloads)
        .where(and(eq(payloads.model, this.model), condition));
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    async find(id: string) {
      const payload = await this.findWhere(eq(payloads.id, sha256(id)));
      return payload && { ...payload, jti: id };
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(payloads.userCode, sha256(userCode)));
    }

    /**
     * A session by its uid, without its id (the cookie value is not stored). oidc-provider only reads
     * such a session (who is signed in, which grant); it saves and destroys sessions found by cookie.
     */
    findByUid(uid: string) {
      return this.findWhere(eq(payloads.uid, sha256(uid)));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(payloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(payloads.model, this.model), eq(payloads.id, sha256(id))));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(payloads).where(and(eq(payloads.model, this.model), eq(payloads.id, sha256(id))));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(payloads).where(eq(payloads.grantId, sha256(grantId)));
    }
  };
}

/** Deletes expired entries; run periodically by the server. */
export async function purgeExpiredIdentityProviderPayloads(db: Database): Promise<void> {
  await db.delete(payloads).where(lt(payloads.expiresAt, new Date()));
}
