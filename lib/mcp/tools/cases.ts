// Case tools: the same functions as the REST cases API, acting as the caller's veterinarian.
import { z } from "zod";
import { caseStatuses } from "@/db/schema";
import { limitParam, listOf, cursorParam } from "@/lib/catalogue/schemas";
import { toCaseResource } from "@/lib/cases/case-resource";
import { createCase } from "@/lib/cases/create-case";
import { getCaseRow } from "@/lib/cases/get-case";
import { listCases } from "@/lib/cases/list-cases";
import { caseSchema, createCaseInput, patientPatchSchema } from "@/lib/cases/schemas";
import { updateCaseResource } from "@/lib/cases/update-case";
import { diagnosticsView } from "../app-view/diagnostics-view";
import { defineTool, READ_ONLY } from "../define-tool";

const WRITE = ["vetdx/write", "vetdx/user.write"] as const;
const caseId = z.uuid().describe("The case id returned by create_case or list_cases");
const symptomId = z.number().int().min(1).max(2_147_483_647);
const EDIT = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

export const createCaseTool = defineTool({
  name: "create_case",
  title: "Create a case from notes",
  description:
    "Stores free-text clinical notes as a new case and starts processing (status PENDING). Processing extracts the patient and clinical signs; call wait_for_case to get the result.",
  input: createCaseInput,
  output: caseSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scopes: WRITE,
  run: ({ notes }, { db, identity, caseRunner }) => createCase(db, identity, { notes }, caseRunner),
});

export const getCaseTool = defineTool({
  name: "get_case",
  title: "Get a case",
  description:
    "Returns one of your cases in its current status, with the extracted patient and signs once processed.",
  input: z.strictObject({ case_id: caseId }),
  output: caseSchema,
  annotations: READ_ONLY,
  scopes: ["vetdx/read", "vetdx/user.read"],
  run: async ({ case_id }, { db, identity }) =>
    toCaseResource(await getCaseRow(db, { caseId: case_id, veterinarianId: identity.veterinarianId })),
  view: diagnosticsView,
});

export const listCasesTool = defineTool({
  name: "list_cases",
  title: "List your cases",
  description:
    "Lists your cases, newest first, optionally only some statuses. Pass next_cursor as cursor for the next page.",
  input: z.strictObject({
    status: z.array(z.enum(caseStatuses)).max(6).optional(),
    limit: limitParam(20),
    cursor: cursorParam.optional(),
  }),
  output: listOf(caseSchema),
  annotations: READ_ONLY,
  scopes: ["vetdx/user.read"],
  run: (args, { db, identity }) => listCases(db, { veterinarianId: identity.veterinarianId, ...args }),
});

export const waitForCaseTool = defineTool({
  name: "wait_for_case",
  title: "Wait for a case to finish processing",
  description:
    "Waits until the case is COMPLETED or ERROR, at most timeout_seconds (default 25, max 60), and returns it. If it is still processing when the time is up, `timed_out` is true: call again.",
  input: z.strictObject({
    case_id: caseId,
    timeout_seconds: z.number().int().min(1).max(60).default(25),
  }),
  output: caseSchema.extend({ timed_out: z.boolean() }),
  annotations: READ_ONLY,
  scopes: ["vetdx/read", "vetdx/user.read"],
  run: async ({ case_id, timeout_seconds }, { db, identity, signal }) => {
    const deadline = Date.now() + timeout_seconds * 1000;
    for (let delay = 100; ; delay = Math.min(delay * 1.5, 1000)) {
      const row = await getCaseRow(db, { caseId: case_id, veterinarianId: identity.veterinarianId });
      const finished = row.status === "COMPLETED" || row.status === "ERROR";
      if (finished || Date.now() >= deadline || signal.aborted)
        return { ...toCaseResource(row), timed_out: !finished };
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))),
      );
    }
  },
  view: diagnosticsView,
});

export const updateCasePatientTool = defineTool({
  name: "update_case_patient",
  title: "Update the patient of a case",
  description:
    "Changes patient fields of a processed case (animal_type_id, breed_id, name, gender_id, weight_kg, neutered); fields you leave out stay. Use list_animal_types, list_breeds and list_genders for ids.",
  input: z.strictObject({ case_id: caseId, patient: patientPatchSchema }),
  output: caseSchema,
  annotations: EDIT,
  scopes: WRITE,
  run: ({ case_id, patient }, { db, identity }) =>
    updateCaseResource(db, { caseId: case_id, veterinarianId: identity.veterinarianId }, { patient }),
});

export const selectSymptomsTool = defineTool({
  name: "select_symptoms",
  title: "Select clinical signs on a case",
  description:
    "Adds catalogue signs (ids from search_symptoms) to the case's selected_symptoms, or updates their `significant` flag; removes them from de_selected_symptoms.",
  input: z.strictObject({
    case_id: caseId,
    symptoms: z
      .array(z.strictObject({ id: symptomId, significant: z.boolean().optional() }))
      .min(1)
      .max(100),
  }),
  output: caseSchema,
  annotations: EDIT,
  scopes: WRITE,
  run: ({ case_id, symptoms }, { db, identity }) =>
    updateCaseResource(
      db,
      { caseId: case_id, veterinarianId: identity.veterinarianId },
      { select_symptoms: symptoms },
    ),
});

export const deselectSymptomsTool = defineTool({
  name: "deselect_symptoms",
  title: "Deselect clinical signs on a case",
  description:
    "Moves signs from the case's selected_symptoms to de_selected_symptoms (the vet rejects them).",
  input: z.strictObject({ case_id: caseId, symptom_ids: z.array(symptomId).min(1).max(100) }),
  output: caseSchema,
  annotations: EDIT,
  scopes: WRITE,
  run: ({ case_id, symptom_ids }, { db, identity }) =>
    updateCaseResource(
      db,
      { caseId: case_id, veterinarianId: identity.veterinarianId },
      { deselect_symptoms: symptom_ids },
    ),
});
