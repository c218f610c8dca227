// What the component shows of a case: sign names from the view, signs not selected listed once with
// the reason, the patient, and the phrases that mark the notes.
import { describe, expect, it } from "vitest";
import { casePatient, keyPhrases, otherSigns, selectedSigns, signNames } from "./case-display";
import type { CaseView } from "./component-api";

const sign = (id: number, name: string) => ({
  id,
  symptom_name: name,
  category_name: "General",
  _distance: 0,
});

const view = {
  case: {
    id: "case-1",
    selected_symptoms: [
      { id: 1, significant: true },
      { id: 9, significant: false },
    ],
    de_selected_symptoms: [{ id: 2 }],
    suggested_symptoms: [
      { symptom: sign(1, "vomiting"), key_phrases: ["V+"], status: "present" },
      { symptom: sign(2, "lethargy"), key_phrases: ["quiet"], status: "present" },
      { symptom: sign(3, "diarrhoea"), key_phrases: ["no diarrhoea"], status: "absent" },
      { symptom: sign(4, "coughing"), key_phrases: ["the other dog coughs"], status: "other_animal" },
    ],
    patient: { animal_type_id: 1, breed_id: 7, name: "Bella", gender_id: 2, weight_kg: 28.5, neutered: true },
  },
  symptoms: [
    { id: 1, symptom_name: "vomiting", category_name: "Digestive" },
    { id: 2, symptom_name: "lethargy", category_name: "General" },
  ],
  breed: { id: 7, name: "Labrador Retriever" },
  read_only: false,
} as unknown as CaseView;

describe("case display", () => {
  it("names the selected signs, falling back to the id for a name the view lacks", () => {
    expect(selectedSigns(view.case, signNames(view))).toEqual([
      { id: 1, name: "vomiting", category: "Digestive", significant: true },
      { id: 9, name: "Sign 9", category: "", significant: false },
    ]);
  });

  it("lists removed signs first, then suggestions not selected, each once, with why", () => {
    expect(otherSigns(view.case, signNames(view))).toEqual([
      { id: 2, name: "lethargy", reason: "removed" },
      { id: 3, name: "diarrhoea", reason: "denied in the notes" },
      { id: 4, name: "coughing", reason: "another animal" },
    ]);
    expect(otherSigns(null, signNames(null))).toEqual([]);
  });

  it("reads the patient with the breed's name, and nothing without a case", () => {
    expect(casePatient(view)).toEqual({
      animal_type_id: 1,
      breed: { id: 7, name: "Labrador Retriever" },
      gender_id: 2,
      neutered: true,
      name: "Bella",
      weight_kg: 28.5,
    });
    expect(casePatient(null)).toEqual({
      animal_type_id: null,
      breed: null,
      gender_id: null,
      neutered: null,
      name: null,
      weight_kg: null,
    });
  });

  it("marks every key phrase with its sign, denied ones as absent", () => {
    expect(keyPhrases(view.case)).toContainEqual({ phrase: "no diarrhoea", sign: "diarrhoea", absent: true });
    expect(keyPhrases(view.case)).toContainEqual({ phrase: "V+", sign: "vomiting", absent: false });
  });
});
