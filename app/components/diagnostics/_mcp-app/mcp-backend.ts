// The diagnostics component's data inside an MCP host: every read and change is a call to one of
// VetDx's MCP tools through the host (App.callServerTool), so the user's own token and scopes
// apply and no component session is needed.
import type { App } from "@modelcontextprotocol/ext-apps";
import { VIEW_DATA_KEY, type DiagnosticsViewData } from "@/lib/mcp/app-view/view-data";
import {
  ApiError,
  type CaseView,
  type Differential,
  type Option,
  type SignName,
  type SoapNotes,
} from "../[sessionId]/_components/component-api";
import type { ComponentBackend } from "../[sessionId]/_components/component-backend";

type ToolResult = Awaited<ReturnType<App["callServerTool"]>>;

const DIFFERENTIALS_SHOWN = 10;
const SEARCH_RESULTS = 8;

/** The view's data in a linked tool's result, or null when the result has none. */
export function viewDataOf(result: { _meta?: Record<string, unknown> }): DiagnosticsViewData | null {
  const data = result._meta?.[VIEW_DATA_KEY] as DiagnosticsViewData | undefined;
  return data && Array.isArray(data.animal_types) ? data : null;
}

/** The text a tool error carries, for the component's notice. */
export function toolErrorText(result: ToolResult): string {
  const text = result.content
    ?.map((block) => (block.type === "text" ? block.text : ""))
    .join(" ")
    .trim();
  return text || "The tool call failed";
}

/**
 * Tools for one case (caseId) or for a free-form selection (null). `onView` hears every new view of
 * the case, so the host bridge can tell the model what the vet chose.
 */
export function mcpBackend(
  app: Pick<App, "callServerTool">,
  caseId: string | null,
  onView: (view: CaseView) => void = () => {},
): ComponentBackend {
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await app.callServerTool({ name, arguments: args });
    if (result.isError) throw new ApiError(400, toolErrorText(result));
    return result;
  };
  const structured = <T>(result: ToolResult) => result.structuredContent as T;
  const ownCase = (): string => {
    if (!caseId) throw new ApiError(400, "This view shows no case");
    return caseId;
  };
  const getCase = async (): Promise<CaseView> => {
    const view = viewDataOf(await call("get_case", { case_id: ownCase() }))?.view;
    if (!view) throw new ApiError(400, "get_case answered without the view's data");
    onView(view);
    return view;
  };

  return {
    getCase,
    updateCase: async (update) => {
      const case_id = ownCase();
      if (update.patient) await call("update_case_patient", { case_id, patient: update.patient });
      if (update.select_symptoms?.length)
        await call("select_symptoms", { case_id, symptoms: update.select_symptoms });
      if (update.deselect_symptoms?.length)
        await call("deselect_symptoms", { case_id, symptom_ids: update.deselect_symptoms });
      return getCase();
    },
    selectDiagnosis: async (diagnosisId) => {
      await call("select_diagnosis", { case_id: ownCase(), diagnosis_id: diagnosisId });
      return getCase();
    },
    differentials: async (selection) => {
      const args: Record<string, unknown> = selection
        ? {
            animal_type_id: selection.animal_type_id,
            present_symptom_ids: selection.signs.map((sign) => sign.id),
            ...(selection.breed_id !== null && { breed_id: selection.breed_id }),
            ...(selection.gender_id !== null && { gender_id: selection.gender_id }),
            ...(selection.neutered !== null && { neutered: selection.neutered }),
          }
        : { case_id: ownCase() };
      const result = await call("get_differential_diagnoses", { ...args, limit: DIFFERENTIALS_SHOWN });
      return structured<{ data: Differential[] }>(result).data;
    },
    generateSoap: async (selection) => {
      if (selection)
        throw new ApiError(400, "Here SOAP notes are written for a case: ask for the case first.");
      return structured<SoapNotes>(await call("generate_soap_notes", { case_id: ownCase() }));
    },
    searchSymptoms: async ({ q, animalTypeId }) => {
      const result = await call("search_symptoms", {
        q,
        limit: SEARCH_RESULTS,
        ...(animalTypeId !== null && { animal_type_id: animalTypeId }),
      });
      return structured<{ data: SignName[] }>(result).data.map(({ id, symptom_name, category_name }) => ({
        id,
        symptom_name,
        category_name,
      }));
    },
    searchBreeds: async ({ q, animalTypeId }) => {
      const result = await call("list_breeds", { q, animal_type_id: animalTypeId, limit: SEARCH_RESULTS });
      return structured<{ data: Option[] }>(result).data.map(({ id, name }) => ({ id, name }));
    },
  };
}
