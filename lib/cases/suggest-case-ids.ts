// Case ids of the calling vet whose id or patient name starts with what the vet has typed, newest
// first (MCP argument completion).
import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import type { Database } from "@/db";
import { cases } from "@/db/schema";

const patientName = sql<string>`coalesce(${cases.patient}->>'name', ${cases.aiExtractedPatient}->>'name', '')`;

/** `%`, `_` and `\` match themselves: the vet types text, not patterns. */
function startsWith(text: string): string {
  return `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export async function suggestCaseIds(
  db: Database,
  options: { veterinarianId: string; prefix: string; limit: number },
): Promise<string[]> {
  const pattern = startsWith(options.prefix.trim());
  const rows = await db
    .select({ id: cases.id })
    .from(cases)
    .where(
      and(
        eq(cases.veterinarianId, options.veterinarianId),
        or(ilike(sql`${cases.id}::text`, pattern), sql`${patientName} ilike ${pattern}`),
      ),
    )
    .orderBy(desc(cases.createdAt), desc(cases.id))
    .limit(options.limit);
  return rows.map((row) => row.id);
}
