// Changes what the vet may change on a processed case: patient fields and the symptom selection.
// Every id is checked against the catalogue; nothing is written unless all of it is valid.
import { and, eq, inArray, not } from "drizzle-orm";
import type { Database, Transaction } from "@/db";
import { animalTypes, breeds, cases, genders, symptoms } from "@/db/schema";
import { AppError, invalid, notFound, type FieldError } from "@/lib/errors";
import { toCaseResource } from "./case-resource";
import { announceCaseUpdate } from "./case-updates";
import { UUID_PATTERN } from "./get-case";
import type { UpdateCaseInput } from "./schemas";
import { touched } from "./touch";

type Patient = {
  animal_type_id: number | null;
  breed_id: number | null;
  name: string | null;
  gender_id: number | null;
  weight_kg: number | null;
  neutered: boolean | null;
};
type Selected = { id: number; significant: boolean };

const EMPTY_PATIENT: Patient = {
  animal_type_id: null,
  breed_id: null,
  name: null,
  gender_id: null,
  weight_kg: null,
  neutered: null,
};

async function unknownSymptomIds(tx: Transaction, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await tx
    .select({ id: symptoms.id })
    .from(symptoms)
    .where(and(inArray(symptoms.id, ids), not(symptoms.retired)));
  const known = new Set(found.map((row) => row.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

async function validatePatient(tx: Transaction, patient: Patient): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (patient.animal_type_id !== null) {
    const [type] = await tx
      .select({ id: animalTypes.id })
      .from(animalTypes)
      .where(eq(animalTypes.id, patient.animal_type_id));
    if (!type) errors.push({ path: "patient.animal_type_id", message: "unknown animal type" });
  }
  if (patient.breed_id !== null) {
    const [breed] = await tx
      .select({ animalTypeId: breeds.animalTypeId })
      .from(breeds)
      .where(eq(breeds.id, patient.breed_id));
    if (!breed) errors.push({ path: "patient.breed_id", message: "unknown breed" });
    else if (patient.animal_type_id !== null && breed.animalTypeId !== patient.animal_type_id) {
      errors.push({ path: "patient.breed_id", message: "the breed belongs to another animal type" });
    }
  }
  if (patient.gender_id !== null) {
    const [gender] = await tx
      .select({ id: genders.id })
      .from(genders)
      .where(eq(genders.id, patient.gender_id));
    if (!gender) errors.push({ path: "patient.gender_id", message: "unknown gender" });
  }
  return errors;
}

function applySelection(
  current: { selected: Selected[]; deselected: { id: number }[] },
  input: UpdateCaseInput,
) {
  let selected = input.selected_symptoms ? [...input.selected_symptoms] : [...current.selected];
  let deselected = input.de_selected_symptoms ? [...input.de_selected_symptoms] : [...current.deselected];
  for (const pick of input.select_symptoms ?? []) {
    const existing = selected.find((s) => s.id === pick.id);
    if (existing) existing.significant = pick.significant ?? existing.significant;
    else selected.push({ id: pick.id, significant: pick.significant ?? false });
    deselected = deselected.filter((d) => d.id !== pick.id);
  }
  for (const id of input.deselect_symptoms ?? []) {
    selected = selected.filter((s) => s.id !== id);
    if (!deselected.some((d) => d.id === id)) deselected.push({ id });
  }
  // One entry per sign; a sign the vet selected is not also rejected.
  selected = [...new Map(selected.map((s) => [s.id, s])).values()];
  const selectedIds = new Set(selected.map((s) => s.id));
  deselected = [...new Map(deselected.filter((d) => !selectedIds.has(d.id)).map((d) => [d.id, d])).values()];
  return { selected, deselected };
}

export async function updateCase(
  db: Database,
  where: { caseId: string; veterinarianId: string },
  input: UpdateCaseInput,
  options: { expectedVersion?: number } = {},
) {
  return db.transaction(async (tx) => {
    if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
    const [row] = await tx
      .select()
      .from(cases)
      .where(and(eq(cases.id, where.caseId), eq(cases.veterinarianId, where.veterinarianId)))
      .for("update");
    if (!row) throw notFound(`Case ${where.caseId}`);
    if (options.expectedVersion !== undefined && options.expectedVersion !== row.version) {
      throw new AppError(
        "precondition_failed",
        "The case changed since you read it; fetch it again and retry",
      );
    }
    if (row.status !== "COMPLETED" && row.status !== "ERROR") {
      throw new AppError(
        "conflict",
        `The case is still being processed (${row.status}); change it once it is COMPLETED`,
      );
    }
    const { selected, deselected } = applySelection(
      {
        selected: row.selectedSymptoms as Selected[],
        deselected: row.deSelectedSymptoms as { id: number }[],
      },
      input,
    );
    const unknown = await unknownSymptomIds(tx, [
      ...selected.map((s) => s.id),
      ...deselected.map((d) => d.id),
    ]);
    const errors: FieldError[] = unknown.map((id) => ({
      path: "symptoms",
      message: `symptom ${id} does not exist`,
    }));
    const patient: Patient = { ...EMPTY_PATIENT, ...(row.patient as Patient | null), ...input.patient };
    if (input.patient) errors.push(...(await validatePatient(tx, patient)));
    if (errors.length) throw invalid("The change refers to catalogue entries that do not exist", errors);

    const [updated] = await tx
      .update(cases)
      .set({
        ...(input.patient ? { patient } : {}),
        selectedSymptoms: selected,
        deSelectedSymptoms: deselected,
        ...touched(),
      })
      .where(eq(cases.id, row.id))
      .returning();
    if (!updated) throw new Error("case vanished during update");
    await announceCaseUpdate(tx, row.id);
    return updated;
  });
}

export async function updateCaseResource(...args: Parameters<typeof updateCase>) {
  return toCaseResource(await updateCase(...args));
}
