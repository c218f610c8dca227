// Columns every write to a case sets: a new updated_at and the next version (the ETag).
import { sql } from "drizzle-orm";
import { cases } from "@/db/schema";

export function touched() {
  return { updatedAt: sql`now()`, version: sql`${cases.version} + 1` };
}
