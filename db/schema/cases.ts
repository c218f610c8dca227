// Cases (spec 2.1) and the component sessions that embed them (spec 2.6).
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { oauthGrants } from "./oauth";
import { machineClients, veterinarians } from "./veterinarians";

export const caseStatuses = [
  "PENDING",
  "PROCESSING",
  "INITIAL_AI_PROCESSING_DONE",
  "SANITIZING",
  "COMPLETED",
  "ERROR",
] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export const cases = pgTable(
  "cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    veterinarianId: uuid("veterinarian_id")
      .notNull()
      .references(() => veterinarians.id, { onDelete: "cascade" }),
    notes: text("notes").notNull(),
    status: text("status", { enum: caseStatuses }).notNull().default("PENDING"),
    aiExtractedPatient: jsonb("ai_extracted_patient"),
    suggestedSymptoms: jsonb("suggested_symptoms"),
    rawAiResponse: jsonb("raw_ai_response"),
    sanitizedSymptoms: jsonb("sanitized_symptoms"),
    patient: jsonb("patient"),
    selectedSymptoms: jsonb("selected_symptoms")
      .notNull()
      .default(sql`'[]'::jsonb`),
    deSelectedSymptoms: jsonb("de_selected_symptoms")
      .notNull()
      .default(sql`'[]'::jsonb`),
    attachmentIds: jsonb("attachment_ids")
      .notNull()
      .default(sql`'[]'::jsonb`),
    selectedDiagnoses: jsonb("selected_diagnoses")
      .notNull()
      .default(sql`'[]'::jsonb`),
    soapNotes: jsonb("soap_notes"),
    error: jsonb("error"),
    /** Incremented by every write; the ETag of GET /v1/cases/{id}. */
    version: integer("version").notNull().default(1),
    /** Pipeline bookkeeping: attempts so far and when the current run last claimed the case. */
    processingAttempts: integer("processing_attempts").notNull().default(0),
    processingClaimedAt: timestamp("processing_claimed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("cases_vet_created_idx").on(table.veterinarianId, table.createdAt.desc(), table.id),
    index("cases_status_idx").on(table.status),
  ],
);

export const componentSessions = pgTable(
  "component_sessions",
  {
    /** SHA-256 of the session id; the id itself is a bearer capability and is never stored. */
    idHash: text("id_hash").primaryKey(),
    component: text("component", { enum: ["diagnostics"] }).notNull(),
    veterinarianId: uuid("veterinarian_id")
      .notNull()
      .references(() => veterinarians.id, { onDelete: "cascade" }),
    caseId: uuid("case_id").references(() => cases.id, { onDelete: "cascade" }),
    allowedOrigins: text("allowed_origins").array().notNull(),
    clientId: text("client_id"),
    /** The creator's scopes: a session may do no more than the credential that created it. */
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Set when a machine client created it: revoking the client ends the session. */
    machineClientId: text("machine_client_id").references(() => machineClients.clientId, {
      onDelete: "cascade",
    }),
    /** Set when an MCP connection created it: revoking the grant ends the session. */
    grantId: uuid("grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("component_sessions_expires_idx").on(table.expiresAt),
    // Deleting a client or a grant (revocation, housekeeping) finds its sessions by these.
    index("component_sessions_machine_client_idx").on(table.machineClientId),
    index("component_sessions_grant_idx").on(table.grantId),
  ],
);
