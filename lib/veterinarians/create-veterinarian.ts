// Creates a human veterinarian who signs in at the embedded identity provider.
import { z } from "zod";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { AppError, invalid } from "@/lib/errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { randomToken } from "@/lib/auth/secrets";
import { zodIssuesToFieldErrors } from "@/lib/validation";

export const createVeterinarianInput = z.strictObject({
  email: z
    .email()
    .max(254)
    .transform((email) => email.toLowerCase()),
  name: z.string().trim().min(1).max(200),
  password: z.string().min(MIN_PASSWORD_LENGTH).max(1024).optional(),
  role: z.enum(["vet", "admin"]).default("vet"),
});
export type CreateVeterinarianInput = z.input<typeof createVeterinarianInput>;

export interface CreatedVeterinarian {
  id: string;
  email: string;
  name: string;
  role: "vet" | "admin";
  /** Only when the password was generated here; shown once. */
  generatedPassword?: string;
}

export async function createVeterinarian(
  db: Database,
  input: CreateVeterinarianInput,
): Promise<CreatedVeterinarian> {
  const parsed = createVeterinarianInput.safeParse(input);
  if (!parsed.success) throw invalid("Invalid veterinarian", zodIssuesToFieldErrors(parsed.error));
  const { email, name, role } = parsed.data;
  const generatedPassword = parsed.data.password ? undefined : randomToken(15);
  const password = parsed.data.password ?? generatedPassword ?? "";
  const [row] = await db
    .insert(veterinarians)
    .values({ kind: "human", email, name, role, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning({ id: veterinarians.id });
  if (!row) throw new AppError("conflict", `A veterinarian with email ${email} already exists`);
  return { id: row.id, email, name, role, generatedPassword };
}
