// What the component shows of its session's case: the case resource plus the names of every sign
// it refers to (selected_symptoms carry ids only; signs added from the catalogue are not among the
// suggestions) and of the breed, and whether the session may change it.
import { eq, inArray } from "drizzle-orm";
import type { Database } from "@/db";
import { breeds, symptomCategories, symptoms, type cases } from "@/db/schema";
import { toCaseResource } from "@/lib/cases/case-resource";
import type { CaseResource } from "@/lib/cases/schemas";

export interface ComponentCaseView {
  case: CaseResource;
  symptoms: { id: number; symptom_name: string; category_name: string }[];
  /** The patient's breed by name, for display. */
  breed: { id: number; name: string } | null;
  /** The session may only look: its creator had no write scope, so the component offers no edits. */
  read_only: boolean;
}

export async function componentCaseView(
  db: Database,
  row: typeof cases.$inferSelect,
  access: { readOnly: boolean },
): Promise<ComponentCaseView> {
  const resource = toCaseResource(row);
  const ids = [
    ...resource.selected_symptoms.map((s) => s.id),
    ...resource.de_selected_symptoms.map((s) => s.id),
    ...(resource.suggested_symptoms ?? []).map((s) => s.symptom.id),
  ];
  const breedId = resource.patient?.breed_id ?? null;
  const [breed] =
    breedId === null
      ? []
      : await db.select({ id: breeds.id, name: breeds.name }).from(breeds).where(eq(breeds.id, breedId));
  const names =
    ids.length === 0
      ? []
      : await db
          .select({ id: symptoms.id, symptom_name: symptoms.name, category_name: symptomCategories.name })
          .from(symptoms)
          .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId))
          .where(inArray(symptoms.id, [...new Set(ids)]));
  return { case: resource, symptoms: names, breed: breed ?? null, read_only: access.readOnly };
}
