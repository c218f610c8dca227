// Machine clients: client-credentials credentials, each provisioned with its own machine
// veterinarian so that its calls have a user identity and see only that account's data.
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db";
import { machineClients, veterinarians } from "@/db/schema";
import { AppError, invalid, notFound } from "@/lib/errors";
import { announceIdentityChange } from "@/lib/auth/identity-cache";
import { randomToken, sha256 } from "@/lib/auth/secrets";
import { scopeSchema, SCOPES } from "@/lib/auth/scopes";
import { originSchema, zodIssuesToFieldErrors } from "@/lib/validation";

const clientInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scopes: z
    .array(scopeSchema)
    .min(1)
    .default([...SCOPES]),
  embedOrigins: z.array(originSchema).max(20).default([]),
});
export type MachineClientInput = z.input<typeof clientInput>;

const linkInput = clientInput.extend({
  clientId: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/),
});

export interface MachineClientView {
  clientId: string;
  name: string;
  veterinarianId: string;
  scopes: string[];
  embedOrigins: string[];
  createdAt: Date;
  revokedAt: Date | null;
  hasSecret: boolean;
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid("Invalid machine client", zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

async function insertClient(
  db: Database,
  fields: {
    clientId: string;
    name: string;
    scopes: string[];
    embedOrigins: string[];
    secretHash: string | null;
  },
) {
  return db.transaction(async (tx) => {
    const [vet] = await tx
      .insert(veterinarians)
      .values({ kind: "machine", name: fields.name })
      .returning({ id: veterinarians.id });
    if (!vet) throw new Error("machine veterinarian not created");
    const [row] = await tx
      .insert(machineClients)
      .values({ ...fields, veterinarianId: vet.id })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("conflict", `Client ${fields.clientId} is already registered`);
    return row;
  });
}

const toView = (row: typeof machineClients.$inferSelect): MachineClientView => ({
  clientId: row.clientId,
  name: row.name,
  veterinarianId: row.veterinarianId,
  scopes: row.scopes,
  embedOrigins: row.embedOrigins,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
  hasSecret: row.secretHash !== null,
});

/** Creates a client with a generated secret; the secret is returned once and stored only hashed. */
export async function createMachineClient(db: Database, input: MachineClientInput) {
  const { name, scopes, embedOrigins } = parse(clientInput, input);
  const clientId = `m2m_${randomBytes(12).toString("hex")}`;
  const clientSecret = randomToken(32);
  const row = await insertClient(db, {
    clientId,
    name,
    scopes,
    embedOrigins,
    secretHash: sha256(clientSecret),
  });
  return { ...toView(row), clientSecret };
}

/** Maps a client that exists at an external identity provider to a new machine veterinarian. */
export async function linkMachineClient(db: Database, input: z.input<typeof linkInput>) {
  const { clientId, name, scopes, embedOrigins } = parse(linkInput, input);
  return toView(await insertClient(db, { clientId, name, scopes, embedOrigins, secretHash: null }));
}

export async function listMachineClients(db: Database): Promise<MachineClientView[]> {
  const rows = await db.select().from(machineClients).orderBy(asc(machineClients.createdAt));
  return rows.map(toView);
}

export async function findMachineClient(db: Database, clientId: string) {
  const [row] = await db.select().from(machineClients).where(eq(machineClients.clientId, clientId));
  return row;
}

export async function rotateMachineClientSecret(db: Database, clientId: string) {
  const existing = await findMachineClient(db, clientId);
  if (!existing) throw notFound(`Client ${clientId}`);
  if (existing.revokedAt) throw new AppError("conflict", `Client ${clientId} is revoked`);
  if (existing.secretHash === null) {
    throw new AppError(
      "conflict",
      `Client ${clientId} is linked from the external identity provider; rotate it there`,
    );
  }
  const clientSecret = randomToken(32);
  const [row] = await db
    .update(machineClients)
    .set({ secretHash: sha256(clientSecret), secretRotatedAt: new Date() })
    .where(eq(machineClients.clientId, clientId))
    .returning();
  if (!row) throw notFound(`Client ${clientId}`);
  return { ...toView(row), clientSecret };
}

/** Revokes a client: its secret stops working and its unexpired tokens are refused at once. */
export async function revokeMachineClient(db: Database, clientId: string) {
  const [row] = await db
    .update(machineClients)
    .set({ revokedAt: new Date() })
    .where(eq(machineClients.clientId, clientId))
    .returning();
  if (!row) throw notFound(`Client ${clientId}`);
  await announceIdentityChange(db, clientId);
  return toView(row);
}
