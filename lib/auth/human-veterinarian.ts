// How a person signed in at the identity provider becomes a veterinarian, for the dashboard and the
// MCP authorization server alike. Embedded provider: `sub` is the veterinarian id. External
// provider: the veterinarian whose external_subject is `${issuer}|${sub}`, created on first sign-in.
import { and, eq } from "drizzle-orm";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { getEnv } from "@/lib/env";

export interface HumanVeterinarian {
  id: string;
  email: string | null;
  name: string;
  role: "vet" | "admin";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The active human veterinarian for these ID-token claims, or null (unknown, disabled, or not provisionable). */
export async function resolveHumanVeterinarian(
  db: Database,
  claims: { sub: string; email?: string; name?: string },
): Promise<HumanVeterinarian | null> {
  const env = getEnv();
  let condition;
  if (env.embeddedIdentityProvider) {
    if (!UUID.test(claims.sub)) return null;
    condition = eq(veterinarians.id, claims.sub);
  } else {
    const externalSubject = `${env.AUTH_URL}|${claims.sub}`;
    await db
      .insert(veterinarians)
      .values({
        kind: "human",
        email: claims.email?.toLowerCase() ?? null,
        name: claims.name ?? claims.email ?? claims.sub,
        externalSubject,
      })
      .onConflictDoNothing();
    condition = eq(veterinarians.externalSubject, externalSubject);
  }
  const [vet] = await db
    .select({
      id: veterinarians.id,
      email: veterinarians.email,
      name: veterinarians.name,
      role: veterinarians.role,
      disabledAt: veterinarians.disabledAt,
    })
    .from(veterinarians)
    .where(and(condition, eq(veterinarians.kind, "human")));
  if (!vet || vet.disabledAt) return null;
  return { id: vet.id, email: vet.email, name: vet.name, role: vet.role };
}
