// What the component shows of a case view: the patient, the selected signs by name, the signs the
// notes mention that are not selected (and why), and the phrases to highlight in the notes.
import type { CaseView } from "./component-api";
import type { KeyPhrase } from "./notes-view";
import type { PatientValues } from "./patient-form";
import type { OtherSign, SelectedSign } from "./signs-panel";

type CaseRecord = CaseView["case"];
type SignNames = Map<number, CaseView["symptoms"][number]>;

const REASONS: Record<string, string> = {
  absent: "denied in the notes",
  historical: "past history",
  other_animal: "another animal",
  monitor: "to monitor",
  present: "suggested",
};

export function signNames(view: CaseView | null): SignNames {
  return new Map(view?.symptoms.map((s) => [s.id, s]) ?? []);
}

export function casePatient(view: CaseView | null): PatientValues {
  const patient = view?.case.patient;
  return {
    animal_type_id: patient?.animal_type_id ?? null,
    breed: view?.breed ?? null,
    gender_id: patient?.gender_id ?? null,
    neutered: patient?.neutered ?? null,
    name: patient?.name ?? null,
    weight_kg: patient?.weight_kg ?? null,
  };
}

export function selectedSigns(record: CaseRecord | null, names: SignNames): SelectedSign[] {
  return (record?.selected_symptoms ?? []).map((s) => ({
    id: s.id,
    name: names.get(s.id)?.symptom_name ?? `Sign ${s.id}`,
    category: names.get(s.id)?.category_name ?? "",
    significant: s.significant,
  }));
}

/** Signs the vet removed, then signs the notes suggest that are not selected, each once. */
export function otherSigns(record: CaseRecord | null, names: SignNames): OtherSign[] {
  if (!record) return [];
  const selectedIds = new Set(record.selected_symptoms.map((s) => s.id));
  const listed = new Map<number, OtherSign>();
  for (const d of record.de_selected_symptoms) {
    listed.set(d.id, {
      id: d.id,
      name: names.get(d.id)?.symptom_name ?? `Sign ${d.id}`,
      reason: "removed",
    });
  }
  for (const s of record.suggested_symptoms ?? []) {
    if (selectedIds.has(s.symptom.id) || listed.has(s.symptom.id)) continue;
    listed.set(s.symptom.id, {
      id: s.symptom.id,
      name: s.symptom.symptom_name,
      reason: REASONS[s.status] ?? s.status,
    });
  }
  return [...listed.values()];
}

export function keyPhrases(record: CaseRecord | null): KeyPhrase[] {
  return (record?.suggested_symptoms ?? []).flatMap((s) =>
    s.key_phrases.map((phrase) => ({
      phrase,
      sign: s.symptom.symptom_name,
      absent: s.status === "absent",
    })),
  );
}
