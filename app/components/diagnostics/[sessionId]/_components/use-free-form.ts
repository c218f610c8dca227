// A free-form session's selection, kept in the browser only: the patient, the signs and the chosen
// diagnosis.
import { useState } from "react";
import type { Option } from "./component-api";
import type { FreeFormSelection } from "./component-backend";
import type { PatientChange, PatientValues } from "./patient-form";
import type { SelectedSign } from "./signs-panel";

export interface FreeForm {
  patient: PatientValues;
  signs: SelectedSign[];
  diagnosis: Option | null;
}

const EMPTY: FreeForm = {
  patient: { animal_type_id: null, breed: null, gender_id: null, neutered: null },
  signs: [],
  diagnosis: null,
};

export function useFreeForm() {
  const [free, setFree] = useState<FreeForm>(EMPTY);

  const changePatient = (change: PatientChange, breed?: Option | null) =>
    setFree((state) => ({
      ...state,
      // A diagnosis is of one species.
      diagnosis: change.animal_type_id !== undefined ? null : state.diagnosis,
      patient: {
        ...state.patient,
        ...(change.animal_type_id !== undefined ? { animal_type_id: change.animal_type_id } : {}),
        ...(change.gender_id !== undefined ? { gender_id: change.gender_id } : {}),
        ...(change.neutered !== undefined ? { neutered: change.neutered } : {}),
        ...(breed !== undefined ? { breed } : {}),
      },
    }));
  const addSign = (sign: { id: number; name: string; category: string }) =>
    setFree((state) => ({ ...state, signs: [...state.signs, { ...sign, significant: false }] }));
  const removeSign = (id: number) =>
    setFree((state) => ({ ...state, signs: state.signs.filter((s) => s.id !== id) }));
  const markSignificant = (id: number, significant: boolean) =>
    setFree((state) => ({
      ...state,
      signs: state.signs.map((s) => (s.id === id ? { ...s, significant } : s)),
    }));
  const chooseDiagnosis = (diagnosis: Option) => setFree((state) => ({ ...state, diagnosis }));

  return { free, changePatient, addSign, removeSign, markSignificant, chooseDiagnosis };
}

/** The selection as the backend ranks it and writes notes from it. */
export function freeFormSelection(free: FreeForm): FreeFormSelection {
  return {
    animal_type_id: free.patient.animal_type_id,
    breed_id: free.patient.breed?.id ?? null,
    gender_id: free.patient.gender_id,
    neutered: free.patient.neutered,
    signs: free.signs.map((s) => ({ id: s.id, significant: s.significant })),
    diagnosis_id: free.diagnosis?.id ?? null,
  };
}

/** Every input of a free-form ranking, as one string. */
export function freeFormRankKey(free: FreeForm): string {
  return JSON.stringify([
    free.patient.animal_type_id,
    free.patient.breed?.id,
    free.patient.gender_id,
    free.patient.neutered,
    free.signs.map((s) => s.id),
  ]);
}

/** The save event of a free-form session: the selection with the signs' names. */
export function freeFormSavePayload(free: FreeForm): Record<string, unknown> {
  return {
    mode: "free",
    animal_type_id: free.patient.animal_type_id,
    breed_id: free.patient.breed?.id ?? null,
    gender_id: free.patient.gender_id,
    neutered: free.patient.neutered,
    selected_symptoms: free.signs.map((s) => ({ id: s.id, name: s.name, significant: s.significant })),
    diagnosis: free.diagnosis,
  };
}
