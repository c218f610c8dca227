import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import type { Extraction, ExtractedPatient } from "@/lib/ai/types";
import { sanitizeExtraction } from "./sanitize-extraction";

let handle: DatabaseHandle;
let lexicon: Lexicon;

beforeAll(async () => {
  handle = await openTestDatabase();
  lexicon = await loadLexicon(handle.db);
});

afterAll(async () => {
  await handle.close();
});

const emptyPatient: ExtractedPatient = {
  animalTypeId: null,
  breed: null,
  breedId: null,
  name: null,
  sex: null,
  neutered: null,
  weight: null,
  ageYears: null,
};

function typeId(key: string): number {
  return lexicon.animalTypes.find((t) => t.key === key)!.id;
}

function signId(name: string): number {
  return lexicon.symptoms.find((s) => s.name === name)!.id;
}

function extraction(patient: Partial<ExtractedPatient>, symptoms: Extraction["symptoms"] = []): Extraction {
  return { patient: { ...emptyPatient, ...patient }, symptoms, extractor: "test" };
}

describe("sanitizeExtraction", () => {
  it("converts weights to kg and rejects impossible ones", () => {
    const dog = typeId("dog");
    const cat = typeId("cat");
    expect(
      sanitizeExtraction(extraction({ animalTypeId: dog, weight: { value: 62, unit: "lb" } }), lexicon)
        .patient.weight_kg,
    ).toBe(28.12);
    expect(
      sanitizeExtraction(extraction({ animalTypeId: cat, weight: { value: 980, unit: "g" } }), lexicon)
        .patient.weight_kg,
    ).toBe(0.98);
    expect(
      sanitizeExtraction(extraction({ animalTypeId: cat, weight: { value: 300, unit: "kg" } }), lexicon)
        .patient.weight_kg,
    ).toBeNull();
    expect(
      sanitizeExtraction(extraction({ animalTypeId: dog, weight: { value: 0, unit: "kg" } }), lexicon).patient
        .weight_kg,
    ).toBeNull();
  });

  it("maps sex to gender ids, unknown only when the species is known", () => {
    const dog = typeId("dog");
    expect(
      sanitizeExtraction(extraction({ animalTypeId: dog, sex: "female" }), lexicon).patient.gender_id,
    ).toBe(lexicon.genderIdByKey.get("female"));
    expect(sanitizeExtraction(extraction({ animalTypeId: dog }), lexicon).patient.gender_id).toBe(
      lexicon.genderIdByKey.get("unknown"),
    );
    expect(sanitizeExtraction(extraction({}), lexicon).patient.gender_id).toBeNull();
  });

  it("keeps a breed of the right species and resolves a written breed", () => {
    const dog = typeId("dog");
    const cat = typeId("cat");
    const lab = lexicon.breeds.find((b) => b.name === "Labrador Retriever")!;
    expect(
      sanitizeExtraction(extraction({ animalTypeId: dog, breedId: lab.id }), lexicon).patient.breed_id,
    ).toBe(lab.id);
    expect(
      sanitizeExtraction(extraction({ animalTypeId: cat, breedId: lab.id }), lexicon).patient.breed_id,
    ).toBeNull();
    expect(
      sanitizeExtraction(extraction({ animalTypeId: dog, breed: "gsd" }), lexicon).patient.breed_id,
    ).toBe(lexicon.breeds.find((b) => b.name === "German Shepherd Dog")!.id);
    const fromBreedOnly = sanitizeExtraction(extraction({ breedId: lab.id }), lexicon).patient;
    expect(fromBreedOnly.animal_type_id).toBe(dog);
  });

  it("keeps present signs only, merged by id, in order of the notes", () => {
    const vomiting = signId("vomiting");
    const cough = signId("coughing");
    const result = sanitizeExtraction(
      extraction({}, [
        { symptomId: cough, keyPhrases: ["coughing"], distance: 0, status: "present", significant: false },
        { symptomId: vomiting, keyPhrases: ["v+"], distance: 0.2, status: "present", significant: false },
        { symptomId: vomiting, keyPhrases: ["vomiting"], distance: 0, status: "present", significant: true },
        {
          symptomId: signId("diarrhoea"),
          keyPhrases: ["no diarrhoea"],
          distance: 0,
          status: "absent",
          significant: false,
        },
        { symptomId: 999_999, keyPhrases: ["made up"], distance: 0, status: "present", significant: false },
      ]),
      lexicon,
      "v+ x3, vomiting since am, coughing, no diarrhoea",
    );
    expect(result.sanitized_symptoms.map((s) => s.symptom_name)).toEqual(["vomiting", "coughing"]);
    expect(result.sanitized_symptoms[0]).toMatchObject({
      key_phrases: ["v+", "vomiting"],
      _distance: 0,
      significant: true,
    });
    expect(result.sanitized_symptoms[0]!.category_name).toBeTruthy();
  });

  it("lists a specific sign's general form beside it, unless the note says otherwise of the general sign", () => {
    const mention = (name: string, status: Extraction["symptoms"][number]["status"], phrase: string) => ({
      symptomId: signId(name),
      keyPhrases: [phrase],
      distance: 0,
      status,
      significant: false,
    });
    const cough = sanitizeExtraction(
      extraction({ animalTypeId: typeId("dog") }, [mention("productive cough", "present", "moist cough")]),
      lexicon,
    );
    expect(cough.sanitized_symptoms.map((s) => [s.symptom_name, s.key_phrases])).toEqual([
      ["productive cough", ["moist cough"]],
      ["coughing", ["moist cough"]],
    ]);
    // An authored form: tail bobbing in a bird is laboured breathing.
    const bird = sanitizeExtraction(
      extraction({ animalTypeId: typeId("budgerigar") }, [
        mention("tail bobbing", "present", "tail bobbing"),
      ]),
      lexicon,
    );
    expect(bird.sanitized_symptoms.map((s) => s.symptom_name)).toEqual(["tail bobbing", "dyspnoea"]);
    // Less of a sign is not a form of it: a bird that stopped singing is not vocalising.
    const quiet = sanitizeExtraction(
      extraction({ animalTypeId: typeId("budgerigar") }, [
        mention("reduced vocalisation", "present", "stopped singing"),
      ]),
      lexicon,
    );
    expect(quiet.sanitized_symptoms.map((s) => s.symptom_name)).toEqual(["reduced vocalisation"]);
    // "No cough ... productive cough last month"-style contradictions keep the note's word on the general sign.
    const denied = sanitizeExtraction(
      extraction({ animalTypeId: typeId("dog") }, [
        mention("productive cough", "present", "moist cough"),
        mention("coughing", "absent", "no coughing"),
      ]),
      lexicon,
    );
    expect(denied.sanitized_symptoms.map((s) => s.symptom_name)).toEqual(["productive cough"]);
  });

  it("works end to end with the local extractor", async () => {
    const notes = "Daisy, 16y FS Ragdoll, BW 3.2kg. PU/PD, losing weight, bad breath. V- D-.";
    const result = sanitizeExtraction(await localExtractor.extract(notes, lexicon), lexicon, notes);
    expect(result.patient).toMatchObject({
      name: "Daisy",
      animal_type_id: typeId("cat"),
      weight_kg: 3.2,
      neutered: true,
    });
    expect(result.sanitized_symptoms.map((s) => s.symptom_name)).toEqual([
      "polyuria",
      "polydipsia",
      "weight loss",
      "halitosis",
    ]);
  });
});
