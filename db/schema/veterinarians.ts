// Veterinarians: people who sign in (human) and the accounts machine clients act as (machine).
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const veterinarians = pgTable(
  "veterinarians",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["human", "machine"] }).notNull(),
    email: text("email"),
    name: text("name").notNull(),
    role: text("role", { enum: ["vet", "admin"] })
      .notNull()
      .default("vet"),
    /** argon2id hash; null for machine veterinarians and for people who sign in at an external provider. */
    passwordHash: text("password_hash"),
    /** `issuer|sub` of the person at an external OpenID provider. */
    externalSubject: text("external_subject"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("veterinarians_email_unique").on(sql`lower(${table.email})`),
    uniqueIndex("veterinarians_external_subject_unique").on(table.externalSubject),
    index("veterinarians_kind_idx").on(table.kind),
  ],
);

/** Client-credentials clients, each mapped to the machine veterinarian it acts as. */
export const machineClients = pgTable(
  "machine_clients",
  {
    clientId: text("client_id").primaryKey(),
    veterinarianId: uuid("veterinarian_id")
      .notNull()
      .references(() => veterinarians.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the 256-bit random secret; null for clients linked from an external provider. */
    secretHash: text("secret_hash"),
    scopes: text("scopes").array().notNull(),
    embedOrigins: text("embed_origins")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("machine_clients_veterinarian_idx").on(table.veterinarianId)],
);
