// oidc-provider's storage adapter on our database (table identity_provider_payloads), so sessions,
// grants and codes survive restarts and are shared by every instance on one database.
import { and, eq, lt } from "drizzle-orm";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "@/db";
import { identityProviderPayloads as payloads } from "@/db/schema";

// Models looked up by grant id when a grant is revoked.
const GRANTABLE = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
]);

export function createAdapterClass(db: Database) {
  return class DatabaseAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload,
        grantId: GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
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

    find(id: string) {
      return this.findWhere(eq(payloads.id, id));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(payloads.userCode, userCode));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(payloads.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(payloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(payloads.model, this.model), eq(payloads.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(payloads).where(and(eq(payloads.model, this.model), eq(payloads.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(payloads).where(eq(payloads.grantId, grantId));
    }
  };
}

/** Deletes expired entries; run periodically by the server. */
export async function purgeExpiredIdentityProviderPayloads(db: Database): Promise<void> {
  await db.delete(payloads).where(lt(payloads.expiresAt, new Date()));
}
