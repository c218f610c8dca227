// Lists veterinarians for operators (the admin CLI and the operators' dashboard).
import { asc } from "drizzle-orm";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";

export async function listVeterinarians(db: Database) {
  return db
    .select({
      id: veterinarians.id,
      kind: veterinarians.kind,
      email: veterinarians.email,
      name: veterinarians.name,
      role: veterinarians.role,
      createdAt: veterinarians.createdAt,
      disabledAt: veterinarians.disabledAt,
    })
    .from(veterinarians)
    .orderBy(asc(veterinarians.createdAt));
}
