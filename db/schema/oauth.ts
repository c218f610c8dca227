// The MCP authorization server's records: registered clients, pending authorizations, consents,
// grants, codes and tokens. Codes and tokens are stored only as SHA-256 hashes.
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { veterinarians } from "./veterinarians";

export const oauthClients = pgTable("oauth_clients", {
  clientId: text("client_id").primaryKey(),
  /** SHA-256 of the secret for confidential clients; null for public clients (auth method none). */
  secretHash: text("secret_hash"),
  tokenEndpointAuthMethod: text("token_endpoint_auth_method", {
    enum: ["client_secret_basic", "client_secret_post", "none"],
  }).notNull(),
  clientName: text("client_name"),
  redirectUris: text("redirect_uris").array().notNull(),
  grantTypes: text("grant_types").array().notNull(),
  /** The full RFC 7591 metadata as registered, or as fetched from a client ID metadata document. */
  metadata: jsonb("metadata").notNull(),
  /** "registration" (RFC 7591) or "metadata_document" (an https client_id URL). */
  source: text("source", { enum: ["registration", "metadata_document"] }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  metadataFetchedAt: timestamp("metadata_fetched_at", { withTimezone: true }),
  /** Metadata documents only: when the cached copy goes stale (its Cache-Control max-age, bounded). */
  metadataExpiresAt: timestamp("metadata_expires_at", { withTimezone: true }),
});

/** An /authorize request waiting for the vet to sign in upstream and consent. */
export const oauthAuthorizationRequests = pgTable(
  "oauth_authorization_requests",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    state: text("state"),
    scopes: text("scopes").array().notNull(),
    resource: text("resource"),
    codeChallenge: text("code_challenge").notNull(),
    codeChallengeMethod: text("code_challenge_method", { enum: ["S256", "plain"] }).notNull(),
    /** Upstream (identity provider) PKCE verifier and nonce for the /callback exchange. */
    upstream: jsonb("upstream").notNull(),
    veterinarianId: uuid("veterinarian_id").references(() => veterinarians.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("oauth_authorization_requests_expires_idx").on(table.expiresAt)],
);

export const oauthConsents = pgTable(
  "oauth_consents",
  {
    veterinarianId: uuid("veterinarian_id")
      .notNull()
      .references(() => veterinarians.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("oauth_consents_vet_client_unique").on(table.veterinarianId, table.clientId)],
);

/** One authorization of one client by one vet; revoking it revokes every code and token it issued. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    veterinarianId: uuid("veterinarian_id")
      .notNull()
      .references(() => veterinarians.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    resource: text("resource"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
  },
  (table) => [index("oauth_grants_vet_idx").on(table.veterinarianId)],
);

export const oauthAuthorizationCodes = pgTable("oauth_authorization_codes", {
  codeHash: text("code_hash").primaryKey(),
  grantId: uuid("grant_id")
    .notNull()
    .references(() => oauthGrants.id, { onDelete: "cascade" }),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  codeChallengeMethod: text("code_challenge_method", { enum: ["S256", "plain"] }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
});

export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    veterinarianId: uuid("veterinarian_id").notNull(),
    scopes: text("scopes").array().notNull(),
    resource: text("resource"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when a refresh token is exchanged; a second use of it is reuse and revokes the grant. */
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    index("oauth_tokens_grant_idx").on(table.grantId),
    index("oauth_tokens_expires_idx").on(table.expiresAt),
  ],
);
