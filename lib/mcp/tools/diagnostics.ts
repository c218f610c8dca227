// Diagnostic tools: ranked differentials, the working diagnosis, SOAP notes and a component
// session to embed the interactive diagnostics view.
import { z } from "zod";
import { toCaseResource } from "@/lib/cases/case-resource";
import { caseSchema } from "@/lib/cases/schemas";
import { selectDiagnosis } from "@/lib/cases/select-diagnosis";
import { differentialsForCase } from "@/lib/diagnosis/case-differentials";
import { rankCase } from "@/lib/diagnosis/rank-differentials";
import { differentialsInputSchema, differentialsOutputSchema } from "@/lib/diagnosis/schemas";
import { generateSoapNotes } from "@/lib/notes/generate-soap-notes";
import { soapNotesSchema } from "@/lib/notes/schemas";
import { createComponentSession } from "@/lib/sessions/create-session";
import { sessionSchema } from "@/lib/sessions/schemas";
import { originSchema } from "@/lib/validation";
import { invalid } from "@/lib/errors";
import { cursorParam } from "@/lib/catalogue/schemas";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { diagnosticsView } from "../app-view/diagnostics-view";
import { defineTool, READ_ONLY } from "../define-tool";

const caseId = z.uuid().describe("The case id");
const WRITE = ["vetdx/write", "vetdx/user.write"] as const;

export const getDifferentialDiagnosesTool = defineTool({
  name: "get_differential_diagnoses",
  title: "Rank differential diagnoses",
  description:
    "Ranks conditions for a case (its patient and selected/denied signs) or, without case_id, for a signalment and sign ids. Each has a score (posterior probability) and the evidence for and against it.",
  input: differentialsInputSchema.partial().extend({
    case_id: caseId.optional(),
    limit: z.number().int().min(1).max(50).default(10),
    cursor: cursorParam.optional().describe("next_cursor of the previous page"),
  }),
  output: differentialsOutputSchema.extend({
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last"),
  }),
  annotations: READ_ONLY,
  scopes: ["vetdx/read"],
  run: async ({ case_id, limit, cursor, ...signalment }, { db, identity }) => {
    const offset = offsetOf(cursor);
    // Ranking is deterministic for the same findings, so a page is a slice of the longer ranking.
    const ranking = { limit: offset + limit + 1 };
    let ranked;
    if (case_id) {
      ranked = await differentialsForCase(
        db,
        { caseId: case_id, veterinarianId: identity.veterinarianId },
        ranking,
      );
    } else {
      const parsed = differentialsInputSchema.safeParse(signalment);
      if (!parsed.success) {
        throw invalid("Give case_id, or animal_type_id and present_symptom_ids", [
          { path: "animal_type_id", message: "required without case_id" },
        ]);
      }
      ranked = await rankCase(db, parsed.data, ranking);
    }
    return { ...ranked, ...offsetPage(ranked.data.slice(offset), offset, limit) };
  },
  view: diagnosticsView,
});

export const selectDiagnosisTool = defineTool({
  name: "select_diagnosis",
  title: "Choose the working diagnosis",
  description:
    "Records the vet's working diagnosis on a processed case (a condition id from get_differential_diagnoses or search_diagnoses).",
  input: z.strictObject({ case_id: caseId, diagnosis_id: z.number().int().min(1).max(2_147_483_647) }),
  output: caseSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scopes: WRITE,
  run: async ({ case_id, diagnosis_id }, { db, identity }) =>
    toCaseResource(
      await selectDiagnosis(
        db,
        { caseId: case_id, veterinarianId: identity.veterinarianId },
        { diagnosis_id },
      ),
    ),
});

export const generateSoapNotesTool = defineTool({
  name: "generate_soap_notes",
  title: "Generate SOAP notes",
  description:
    "Writes SOAP notes (subjective, objective, assessment, plan) for a processed case from its notes, patient, signs, working diagnosis and differentials, and stores them on the case. Findings the vet must confirm are marked.",
  input: z.strictObject({ case_id: caseId }),
  output: soapNotesSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scopes: WRITE,
  run: ({ case_id }, { db, identity }) =>
    generateSoapNotes(db, { caseId: case_id, veterinarianId: identity.veterinarianId }),
});

export const createComponentSessionTool = defineTool({
  name: "create_component_session",
  title: "Create a diagnostics component session",
  description:
    "Creates an expiring secret URL of the embeddable diagnostics component (optionally showing a case) for an iframe on parent_origin. Needs vetdx/read (vetdx/user.read for a case) besides vetdx/tools; without vetdx/write the component only shows the case.",
  input: z.strictObject({ case_id: caseId.optional(), parent_origin: originSchema.optional() }),
  output: sessionSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scopes: ["vetdx/tools"],
  run: ({ case_id, parent_origin }, { db, identity }) =>
    createComponentSession(db, identity, { component: "diagnostics", case_id, parent_origin }),
});
