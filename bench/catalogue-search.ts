// Catalogue search latency, in-process on the real database code (PGlite by default, PostgreSQL
// when DATABASE_URL is set). Prints one JSON object. Run: npm run bench (or tsx bench/catalogue-search.ts).
import { performance } from "node:perf_hooks";
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { searchSymptoms } from "@/lib/catalogue/search-symptoms";
import { searchBreeds } from "@/lib/catalogue/search-breeds";
import { searchDiagnoses } from "@/lib/catalogue/search-diagnoses";
import { getEnv } from "@/lib/env";

const SYMPTOM_QUERIES = [
  "vomiting",
  "throwing up",
  "d+",
  "pu/pd",
  "limping",
  "coughing at night",
  "itchy",
  "not eating",
  "blood in urine",
  "seizure",
  "head tilt",
  "wt loss",
  "lethargic",
  "drinking loads",
  "straining to pee",
  "rubbing face",
];
const BREED_QUERIES = ["lab x", "gsd", "dsh", "cocker", "frenchie", "staffie", "westie", "tbx"];
const DIAGNOSIS_QUERIES = [
  "parvo",
  "pancreatitis",
  "hyperthyroidism",
  "gdv",
  "kennel cough",
  "ckd",
  "laminitis",
  "snuffles",
];

function summarise(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: samples.length,
    p50_ms: Number(at(0.5).toFixed(2)),
    p99_ms: Number(at(0.99).toFixed(2)),
    mean_ms: Number((samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(2)),
  };
}

async function time(iterations: number, queries: string[], run: (q: string) => Promise<unknown>) {
  for (const q of queries) await run(q); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    for (const q of queries) {
      const start = performance.now();
      await run(q);
      samples.push(performance.now() - start);
    }
  }
  return summarise(samples);
}

async function main() {
  const env = getEnv();
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: "memory://" });
  await migrateDatabase(handle, env.DATABASE_URL);
  const seedStart = performance.now();
  const seeded = await loadCatalogue(handle.db);
  const seedMs = performance.now() - seedStart;
  const iterations = Number(process.argv[2] ?? 20);
  const result = {
    benchmark: "catalogue-search",
    database: handle.kind,
    catalogue_load_ms: seeded.loaded ? Math.round(seedMs) : null,
    symptoms: await time(iterations, SYMPTOM_QUERIES, (q) => searchSymptoms(handle.db, { q, limit: 20 })),
    symptoms_for_species: await time(iterations, SYMPTOM_QUERIES, (q) =>
      searchSymptoms(handle.db, { q, animal_type_id: 2, limit: 20 }),
    ),
    breeds: await time(iterations, BREED_QUERIES, (q) =>
      searchBreeds(handle.db, { q, animal_type_id: 1, limit: 20 }),
    ),
    diagnoses: await time(iterations, DIAGNOSIS_QUERIES, (q) => searchDiagnoses(handle.db, { q, limit: 20 })),
  };
  await handle.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
