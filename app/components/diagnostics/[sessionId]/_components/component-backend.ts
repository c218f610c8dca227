// Where the diagnostics component reads and saves its data. In the page it is the component's own
// HTTP API (httpBackend); inside an MCP host the same UI will call MCP tools behind this interface.
import {
  componentApi,
  type CaseView,
  type Differential,
  type Option,
  type SignName,
  type SoapNotes,
} from "./component-api";
import type { PatientChange } from "./patient-form";

/** One change to the session's case: its patient, or signs to select (with significance) or deselect. */
export interface CaseUpdate {
  patient?: PatientChange;
  select_symptoms?: { id: number; significant?: boolean }[];
  deselect_symptoms?: number[];
}

/** What a free-form session ranks and writes notes from; none of it is stored. */
export interface FreeFormSelection {
  animal_type_id: number | null;
  breed_id: number | null;
  gender_id: number | null;
  neutered: boolean | null;
  signs: { id: number; significant: boolean }[];
  diagnosis_id: number | null;
}

/**
 * The component's data. A failed call rejects with an ApiError: status 410 when the session has
 * expired or was ended (its access revoked; problem type …/session-ended), 404 when it (or its
 * case) no longer exists.
 */
export interface ComponentBackend {
  getCase(): Promise<CaseView>;
  updateCase(update: CaseUpdate): Promise<CaseView>;
  selectDiagnosis(diagnosisId: number): Promise<CaseView>;
  /** The ranked differentials of the session's case (null) or of a free-form selection. */
  differentials(selection: FreeFormSelection | null): Promise<Differential[]>;
  /** SOAP notes for the session's case (null; they are stored with it) or a free-form selection. */
  generateSoap(selection: FreeFormSelection | null): Promise<SoapNotes>;
  searchSymptoms(query: { q: string; animalTypeId: number | null }): Promise<SignName[]>;
  searchBreeds(query: { q: string; animalTypeId: number }): Promise<Option[]>;
}

const DIFFERENTIALS_SHOWN = 10;
const SEARCH_RESULTS = "8";

/** The component's own API, same origin, authorised by the session id in the path. */
export function httpBackend(sessionId: string): ComponentBackend {
  const api = componentApi(sessionId);
  return {
    getCase: () => api<CaseView>("/case"),
    updateCase: (update) => api<CaseView>("/case", { method: "PATCH", body: update }),
    selectDiagnosis: (diagnosisId) =>
      api<CaseView>("/diagnosis", { method: "PUT", body: { diagnosis_id: diagnosisId } }),
    differentials: async (selection) => {
      const path = `/differentials?limit=${DIFFERENTIALS_SHOWN}`;
      const result = selection
        ? await api<{ data: Differential[] }>(path, {
            method: "POST",
            body: {
              animal_type_id: selection.animal_type_id,
              breed_id: selection.breed_id,
              gender_id: selection.gender_id,
              neutered: selection.neutered,
              present_symptom_ids: selection.signs.map((s) => s.id),
            },
          })
        : await api<{ data: Differential[] }>(path);
      return result.data;
    },
    generateSoap: (selection) => api<SoapNotes>("/soap-notes", { method: "POST", body: selection ?? {} }),
    searchSymptoms: async ({ q, animalTypeId }) => {
      const params = new URLSearchParams({ q, limit: SEARCH_RESULTS });
      if (animalTypeId !== null) params.set("animal_type_id", String(animalTypeId));
      return (await api<{ data: SignName[] }>(`/symptoms?${params}`)).data;
    },
    searchBreeds: async ({ q, animalTypeId }) => {
      const params = new URLSearchParams({ q, animal_type_id: String(animalTypeId), limit: SEARCH_RESULTS });
      const page = await api<{ data: Option[] }>(`/breeds?${params}`);
      return page.data.map((b) => ({ id: b.id, name: b.name }));
    },
  };
}
