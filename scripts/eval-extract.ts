// `npm run eval:extract -- <file.jsonl> [--verbose]`: scores the local extractor (then the
// sanitiser) on labelled case notes, as described in shared/data/eval/README.md, and prints one
// JSON object. With --verbose, per-note misses go to stderr.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import { sanitizeExtraction } from "@/lib/pipeline/sanitize-extraction";

interface Concept {
  concept: string;
  aliases?: string[];
}
interface LabelledNote {
  id: string;
  notes: string;
  expected: {
    species: string | null;
    breed: string | null;
    name: string | null;
    sex: "male" | "female" | null;
    neutered: boolean | null;
    weight_kg: number | null;
    symptoms: Concept[];
    absent?: string[];
  };
}

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  process.stderr.write("usage: npm run eval:extract -- <file.jsonl> [--verbose]\n");
  process.exit(2);
}

const lower = (s: string) => s.trim().toLowerCase();

function signNames(lexicon: Lexicon, id: number): Set<string> {
  const s = lexicon.symptomById.get(id);
  return new Set(s ? [lower(s.name), ...s.terms.map(lower)] : []);
}

function conceptNames(c: Concept): Set<string> {
  return new Set([c.concept, ...(c.aliases ?? [])].map(lower));
}

function intersects(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

async function main() {
  const notes: LabelledNote[] = readFileSync(file!, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabelledNote);

  const handle = await openDatabase({ pgliteDataDir: "memory://" });
  await migrateDatabase(handle);
  await loadCatalogue(handle.db);
  const lexicon = await loadLexicon(handle.db);
  // Index the lexicon once before timing.
  await localExtractor.extract("warm-up", lexicon);

  const correct = { species: 0, breed: 0, name: 0, sex: 0, neutered: 0, weight: 0 };
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let deniedPredicted = 0;
  let totalMs = 0;
  const genderKeyById = new Map([...lexicon.genderIdByKey].map(([k, v]) => [v, k]));

  for (const note of notes) {
    const t0 = performance.now();
    const extraction = await localExtractor.extract(note.notes, lexicon);
    const result = sanitizeExtraction(extraction, lexicon, note.notes);
    totalMs += performance.now() - t0;
    const e = note.expected;
    const p = result.patient;
    const misses: string[] = [];

    // Species.
    const type = p.animal_type_id === null ? null : lexicon.animalTypeById.get(p.animal_type_id);
    const speciesOk =
      e.species === null
        ? type === null || type === undefined
        : type !== undefined &&
          type !== null &&
          [type.key, type.name, type.key.replace(/_/g, " ")].map(lower).includes(lower(e.species));
    if (speciesOk) correct.species++;
    else misses.push(`species: expected ${e.species}, got ${type?.key ?? null}`);

    // Breed: the catalogue breed's name or synonyms, else the breed as written.
    const breed = p.breed_id === null ? null : lexicon.breedById.get(p.breed_id);
    const predictedBreedNames = breed
      ? new Set([lower(breed.name), ...breed.terms.map(lower)])
      : extraction.patient.breed
        ? new Set([lower(extraction.patient.breed)])
        : null;
    const breedOk =
      e.breed === null
        ? predictedBreedNames === null
        : predictedBreedNames !== null && predictedBreedNames.has(lower(e.breed));
    if (breedOk) correct.breed++;
    else misses.push(`breed: expected ${e.breed}, got ${breed?.name ?? extraction.patient.breed ?? null}`);

    const nameOk =
      (e.name === null && p.name === null) ||
      (e.name !== null && p.name !== null && lower(e.name) === lower(p.name));
    if (nameOk) correct.name++;
    else misses.push(`name: expected ${e.name}, got ${p.name}`);

    const sexKey = p.gender_id === null ? null : genderKeyById.get(p.gender_id);
    const sex = sexKey === "male" || sexKey === "female" ? sexKey : null;
    if (sex === e.sex) correct.sex++;
    else misses.push(`sex: expected ${e.sex}, got ${sex}`);
    if (p.neutered === e.neutered) correct.neutered++;
    else misses.push(`neutered: expected ${e.neutered}, got ${p.neutered}`);

    const weightOk =
      e.weight_kg === null
        ? p.weight_kg === null
        : p.weight_kg !== null && Math.abs(p.weight_kg - e.weight_kg) <= 0.02 * e.weight_kg + 1e-9;
    if (weightOk) correct.weight++;
    else misses.push(`weight: expected ${e.weight_kg}, got ${p.weight_kg}`);

    // Symptoms.
    const concepts = e.symptoms.map(conceptNames);
    const matched = new Set<number>();
    const absent = (e.absent ?? []).map(lower);
    for (const s of result.sanitized_symptoms) {
      const names = signNames(lexicon, s.id);
      const hits = concepts.map((c, i) => (intersects(c, names) ? i : -1)).filter((i) => i >= 0);
      if (hits.length > 0) hits.forEach((i) => matched.add(i));
      else {
        fp++;
        const denied = absent.some((a) => names.has(a));
        if (denied) deniedPredicted++;
        misses.push(`${denied ? "DENIED" : "fp"}: ${s.symptom_name} [${s.key_phrases.join(" | ")}]`);
      }
    }
    tp += matched.size;
    concepts.forEach((_, i) => {
      if (!matched.has(i)) {
        fn++;
        misses.push(`fn: ${e.symptoms[i]!.concept}`);
      }
    });
    if (verbose && misses.length > 0) process.stderr.write(`${note.id}: ${misses.join("; ")}\n`);
  }

  const n = notes.length || 1;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const report = {
    extractor: localExtractor.name,
    notes: notes.length,
    patient: {
      species: round(correct.species / n),
      breed: round(correct.breed / n),
      name: round(correct.name / n),
      sex: round(correct.sex / n),
      neutered: round(correct.neutered / n),
      weight: round(correct.weight / n),
    },
    symptoms: { precision: round(precision), recall: round(recall), f1: round(f1), tp, fp, fn },
    denied_predicted: deniedPredicted,
    ms_per_note: round(totalMs / n),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await handle.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
