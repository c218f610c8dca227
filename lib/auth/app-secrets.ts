// Generated secrets kept in the database (app_secrets): created once by whichever instance needs
// them first, then read by every instance, so several instances on one database agree.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { appSecrets } from "@/db/schema";

export async function getOrCreateSecret<T>(
  db: Database,
  name: string,
  create: () => Promise<T> | T,
): Promise<T> {
  const [existing] = await db
    .select({ value: appSecrets.value })
    .from(appSecrets)
    .where(eq(appSecrets.name, name));
  if (existing) return existing.value as T;
  const value = await create();
  await db.insert(appSecrets).values({ name, value }).onConflictDoNothing();
  const [stored] = await db
    .select({ value: appSecrets.value })
    .from(appSecrets)
    .where(eq(appSecrets.name, name));
  return (stored?.value ?? value) as T;
}
