// MCP prompts a vet picks from a menu (work up a case, SOAP notes, explain to the owner, compare
// two differentials) and completion of their arguments: the vet's own case ids, species and
// catalogue condition names. A case that is not the caller's, or an argument that does not
// exist, is an invalid-params error with nothing of the case in it.
import {
  completable,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type GetPromptResult,
  type McpServer,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { suggestCaseIds } from "@/lib/cases/suggest-case-ids";
import type { CaseResource } from "@/lib/cases/schemas";
import { getDiagnosis } from "@/lib/catalogue/get-diagnosis";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { searchDiagnoses } from "@/lib/catalogue/search-diagnoses";
import { AppError } from "@/lib/errors";
import {
  CASE_LIST_SCOPES,
  CATALOGUE_SCOPES,
  caseUri,
  hasScope,
  readOwnCase,
  requireScope,
  type SurfaceContext,
} from "./resources";

/** Longer input is no prefix anyone types: completion answers nothing rather than search it. */
export const MAX_COMPLETION_PREFIX = 100;
const MAX_SUGGESTIONS = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type CompletionContext = { arguments?: Record<string, string> } | undefined;

function completeCaseIds(context: SurfaceContext) {
  return async (value: string): Promise<string[]> => {
    if (value.length > MAX_COMPLETION_PREFIX || !context.identity || !hasScope(context, CASE_LIST_SCOPES))
      return [];
    return suggestCaseIds(await context.db(), {
      veterinarianId: context.identity.veterinarianId,
      prefix: value,
      limit: MAX_SUGGESTIONS,
    });
  };
}

function completeSpecies(context: SurfaceContext) {
  return async (value: string): Promise<string[]> => {
    if (value.length > MAX_COMPLETION_PREFIX || !hasScope(context, CATALOGUE_SCOPES)) return [];
    const typed = value.trim().toLowerCase();
    const types = await listAnimalTypes(await context.db());
    return types
      .filter((type) =>
        [type.key, type.name, ...type.synonyms].some((word) => word.toLowerCase().startsWith(typed)),
      )
      .map((type) => type.key)
      .slice(0, MAX_SUGGESTIONS);
  };
}

/** The case's species (the vet's patient, else the extracted one), if known. */
function caseSpecies(found: CaseResource): number | undefined {
  const id = found.patient?.animal_type_id ?? Number(found.ai_extracted_patient?.animal_type_id);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

async function speciesId(context: SurfaceContext, key: string | undefined): Promise<number | undefined> {
  if (!key) return undefined;
  const typed = key.trim().toLowerCase();
  const types = await listAnimalTypes(await context.db());
  return types.find((type) => type.key === typed || type.name.toLowerCase() === typed)?.id;
}

/** The species a condition search is scoped by: the case's when it is the vet's and known. */
async function completionSpecies(context: SurfaceContext, args: Record<string, string> = {}) {
  const caseId = args.case_id;
  if (caseId && UUID.test(caseId) && hasScope(context, ["vetdx/read", "vetdx/user.read"])) {
    const found = await readOwnCase(context, caseId).catch(() => undefined);
    const species = found && caseSpecies(found);
    if (species) return species;
  }
  return speciesId(context, args.species);
}

function completeConditions(context: SurfaceContext) {
  return async (value: string, completion?: CompletionContext): Promise<string[]> => {
    if (value.length > MAX_COMPLETION_PREFIX || !hasScope(context, CATALOGUE_SCOPES)) return [];
    const q = value.trim();
    const page = await searchDiagnoses(await context.db(), {
      ...(q && { q }),
      animal_type_id: await completionSpecies(context, completion?.arguments),
      limit: 100,
    });
    // Without a species, one name stands for the condition in every species that has it: offer it once.
    return [...new Set(page.data.map((diagnosis) => diagnosis.name))].slice(0, MAX_SUGGESTIONS);
  };
}

const text = (value: string): GetPromptResult => ({
  messages: [{ role: "user", content: { type: "text", text: value } }],
});

/** The caller's case, or an invalid-params error that says only that it is not theirs to see. */
async function promptCase(context: SurfaceContext, caseId: string): Promise<CaseResource> {
  try {
    return await readOwnCase(context, caseId);
  } catch (error) {
    if (error instanceof ResourceNotFoundError) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Case ${caseId} was not found among your cases`,
        { uri: caseUri(caseId) },
      );
    }
    throw error;
  }
}

/** A catalogue condition named by id or by name (the best match in the species, if known). */
async function findCondition(context: SurfaceContext, named: string, animalTypeId: number | undefined) {
  const db = await context.db();
  const trimmed = named.trim();
  try {
    if (/^[1-9][0-9]{0,9}$/.test(trimmed)) return await getDiagnosis(db, Number(trimmed));
  } catch (error) {
    if (!(error instanceof AppError && error.kind === "not_found")) throw error;
  }
  const [match] = (await searchDiagnoses(db, { q: trimmed, animal_type_id: animalTypeId, limit: 1 })).data;
  if (!match) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `No condition in the catalogue matches "${trimmed.slice(0, 100)}"`,
    );
  }
  return match;
}

function caseLine(found: CaseResource): string {
  const name = found.patient?.name ?? found.ai_extracted_patient?.name ?? "the patient";
  return `Case ${found.id} (${name}, status ${found.status})`;
}

export function registerPrompts(server: McpServer, context: SurfaceContext): void {
  const caseIdArgument = () =>
    completable(
      z.string().max(100).describe("The case id (from list_cases or the case resources)"),
      completeCaseIds(context),
    );
  const conditionArgument = (which: string) =>
    completable(
      z.string().min(1).max(200).describe(`The ${which} condition: a name from search_diagnoses or its id`),
      completeConditions(context),
    );
  const needsCaseRead = () => requireScope(context, ["vetdx/read", "vetdx/user.read"], "This prompt");

  server.registerPrompt(
    "work_up_case",
    {
      title: "Work up a case",
      description: "Walk through a case: patient, clinical signs, ranked differentials and next steps.",
      argsSchema: z.strictObject({ case_id: caseIdArgument() }),
    },
    async ({ case_id }) => {
      needsCaseRead();
      const found = await promptCase(context, case_id);
      return text(
        `Work up ${caseLine(found)} with me.\n` +
          `1. Call wait_for_case with case_id ${found.id} until it is COMPLETED (or report its error).\n` +
          "2. Summarise the patient (species, breed, age, sex, weight) and the clinical signs, saying which ones look significant.\n" +
          "3. Call get_differential_diagnoses for the case and present the top differentials with the evidence for and against each.\n" +
          "4. Suggest the diagnostic tests that would best tell the leading differentials apart.\n" +
          "Do not choose a working diagnosis for me: ask before calling select_diagnosis.",
      );
    },
  );

  server.registerPrompt(
    "write_soap_notes",
    {
      title: "Write the SOAP notes",
      description: "Draft SOAP notes for a case from its signs and the working diagnosis.",
      argsSchema: z.strictObject({ case_id: caseIdArgument() }),
    },
    async ({ case_id }) => {
      needsCaseRead();
      const found = await promptCase(context, case_id);
      return text(
        `Write the SOAP notes for ${caseLine(found)}.\n` +
          `Call get_case with case_id ${found.id} to read the notes, patient and selected signs. ` +
          "If no working diagnosis is chosen yet, call get_differential_diagnoses and ask me which one to select (select_diagnosis) before going on. " +
          "Then call generate_soap_notes and show me the Subjective, Objective, Assessment and Plan sections, " +
          "pointing out anything in them the clinical notes do not support.",
      );
    },
  );

  server.registerPrompt(
    "explain_to_owner",
    {
      title: "Explain the findings to the owner",
      description: "Explain a case's findings to the animal's owner in plain, kind words.",
      argsSchema: z.strictObject({ case_id: caseIdArgument() }),
    },
    async ({ case_id }) => {
      needsCaseRead();
      const found = await promptCase(context, case_id);
      return text(
        `Help me explain ${caseLine(found)} to the owner.\n` +
          `Call get_case with case_id ${found.id}, and get_differential_diagnoses if no working diagnosis is selected. ` +
          "Write a short explanation an owner without medical training understands: what we found, what it may mean, " +
          "what we suggest doing next and what to watch for at home. Avoid jargon (or explain it), do not promise outcomes, " +
          "and make clear that the vet will confirm the diagnosis.",
      );
    },
  );

  server.registerPrompt(
    "compare_differentials",
    {
      title: "Compare two differentials",
      description: "Compare two candidate conditions for a case: evidence, distinguishing tests, urgency.",
      argsSchema: z.strictObject({
        case_id: caseIdArgument(),
        first: conditionArgument("first"),
        second: conditionArgument("second"),
        species: completable(z.string().max(50), completeSpecies(context))
          .optional()
          .describe("Species key (dog, cat…) if the case has none yet"),
      }),
    },
    async ({ case_id, first, second, species }) => {
      needsCaseRead();
      requireScope(context, CATALOGUE_SCOPES, "Comparing conditions from the catalogue");
      const found = await promptCase(context, case_id);
      const animalTypeId = caseSpecies(found) ?? (await speciesId(context, species));
      const [a, b] = await Promise.all([
        findCondition(context, first, animalTypeId),
        findCondition(context, second, animalTypeId),
      ]);
      return text(
        `For ${caseLine(found)}, compare ${a.name} (diagnosis ${a.id}) with ${b.name} (diagnosis ${b.id}).\n` +
          `Call get_case with case_id ${found.id}, get_diagnosis for ids ${a.id} and ${b.id}, and get_differential_diagnoses for the case. ` +
          "Set out the case's findings that support and argue against each, the signs each would predict that the case lacks, " +
          "the tests that would tell them apart, and which one is more urgent to rule out.",
      );
    },
  );
}
