// Catalogue tools: species, breeds, sexes, clinical signs and diagnoses (the same functions as
// GET /v1/animal-types, /v1/breeds, /v1/genders, /v1/symptoms, /v1/diagnoses).
import { z } from "zod";
import {
  animalTypeSchema,
  breedSchema,
  breedsQuery,
  diagnosesQuery,
  diagnosisDetailSchema,
  diagnosisSchema,
  genderSchema,
  listOf,
  symptomCategorySchema,
  symptomSchema,
  symptomsQuery,
} from "@/lib/catalogue/schemas";
import { getDiagnosis } from "@/lib/catalogue/get-diagnosis";
import { getSymptom } from "@/lib/catalogue/get-symptom";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { listGenders } from "@/lib/catalogue/list-genders";
import { listSymptomCategories } from "@/lib/catalogue/list-symptom-categories";
import { searchBreeds } from "@/lib/catalogue/search-breeds";
import { searchDiagnoses } from "@/lib/catalogue/search-diagnoses";
import { searchSymptoms } from "@/lib/catalogue/search-symptoms";
import { defineTool, READ_ONLY } from "../define-tool";

const READ = ["vetdx/read"] as const;
const catalogueId = z.number().int().min(1).max(2_147_483_647);

export const listAnimalTypesTool = defineTool({
  name: "list_animal_types",
  title: "List animal types",
  description:
    "Lists every species VetDx knows with its stable animal_type_id (1 dog, 2 cat, 3 rabbit, 4 horse…).",
  input: z.strictObject({}),
  output: z.object({ data: z.array(animalTypeSchema) }),
  annotations: READ_ONLY,
  scopes: READ,
  run: async (_args, { db }) => ({ data: await listAnimalTypes(db) }),
});

export const listBreedsTool = defineTool({
  name: "list_breeds",
  title: "List or search breeds",
  description:
    "Lists breeds of an animal type, or ranks them by similarity to `q` (vet abbreviations work: GSD, DSH, CKCS, 'lab x'). Paginate with next_cursor.",
  input: breedsQuery,
  output: listOf(breedSchema),
  annotations: READ_ONLY,
  scopes: READ,
  run: (args, { db }) => searchBreeds(db, args),
});

export const listGendersTool = defineTool({
  name: "list_genders",
  title: "List sexes and neuter terms",
  description:
    "Lists the sexes (male, female, unknown) with the words vets use for each and whether they mean neutered (spayed, MN, gelding, wether…).",
  input: z.strictObject({}),
  output: z.object({ data: z.array(genderSchema) }),
  annotations: READ_ONLY,
  scopes: READ,
  run: async (_args, { db }) => ({ data: await listGenders(db) }),
});

export const listSymptomCategoriesTool = defineTool({
  name: "list_symptom_categories",
  title: "List symptom categories",
  description:
    "Lists the body-system categories clinical signs are grouped in, with their ids for filtering search_symptoms.",
  input: z.strictObject({}),
  output: z.object({ data: z.array(symptomCategorySchema) }),
  annotations: READ_ONLY,
  scopes: READ,
  run: async (_args, { db }) => ({ data: await listSymptomCategories(db) }),
});

export const searchSymptomsTool = defineTool({
  name: "search_symptoms",
  title: "Search clinical signs",
  description:
    "Finds clinical signs by clinical term, lay phrase or shorthand ('throwing up', 'v+', 'PU/PD'), ranked by similarity (`_distance` 0 is an exact phrase). Filter by animal_type_id and category_id; paginate with cursor.",
  input: symptomsQuery,
  output: listOf(symptomSchema),
  annotations: READ_ONLY,
  scopes: READ,
  run: (args, { db }) => searchSymptoms(db, args),
});

export const getSymptomTool = defineTool({
  name: "get_symptom",
  title: "Get a clinical sign",
  description: "Returns one clinical sign by id with its category and synonyms.",
  input: z.strictObject({ id: catalogueId }),
  output: symptomSchema,
  annotations: READ_ONLY,
  scopes: READ,
  run: ({ id }, { db }) => getSymptom(db, id),
});

export const searchDiagnosesTool = defineTool({
  name: "search_diagnoses",
  title: "Search diagnoses",
  description:
    "Finds conditions (diagnoses) by name or alias (GDV, CKD, parvo…), optionally of one animal type; paginate with cursor.",
  input: diagnosesQuery,
  output: listOf(diagnosisSchema),
  annotations: READ_ONLY,
  scopes: READ,
  run: (args, { db }) => searchDiagnoses(db, args),
});

export const getDiagnosisTool = defineTool({
  name: "get_diagnosis",
  title: "Get a diagnosis",
  description:
    "Returns one condition with its description, species, risk factors, the clinical signs it causes (with weights) and its source.",
  input: z.strictObject({ id: catalogueId }),
  output: diagnosisDetailSchema,
  annotations: READ_ONLY,
  scopes: READ,
  run: ({ id }, { db }) => getDiagnosis(db, id),
});
