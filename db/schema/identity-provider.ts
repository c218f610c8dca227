// State of the embedded OpenID provider and generated secrets, kept in the database so that every
// instance on one database signs and verifies with the same keys.
import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Generated secrets: signing key sets, cookie keys. Created once, never printed. */
export const appSecrets = pgTable("app_secrets", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** oidc-provider's adapter storage: sessions, interactions, grants, codes, tokens. */
export const identityProviderPayloads = pgTable(
  "identity_provider_payloads",
  {
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").notNull(),
    grantId: text("grant_id"),
    userCode: text("user_code"),
    uid: text("uid"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ name: "identity_provider_payloads_pk", columns: [table.model, table.id] }),
    index("identity_provider_payloads_grant_idx").on(table.grantId),
    index("identity_provider_payloads_uid_idx").on(table.uid),
    index("identity_provider_payloads_expires_idx").on(table.expiresAt),
  ],
);
