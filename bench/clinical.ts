// Extraction and ranking cost per case, in-process, with the full catalogue: the local extractor
// plus the sanitiser, then the ranker, on every note of the labelled sets (each run REPEAT times
// after a warm-up). Prints one JSON object with p50/p95/max milliseconds per stage and in total,
// and the catalogue's size. Run: npm run bench:clinical
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { loadLexicon } from "@/lib/ai/lexicon";
import { extractLocally } from "@/lib/ai/local/local-extractor";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { rankDetailed } from "@/lib/diagnosis/rank-differentials";
import { sanitizeExtraction } from "@/lib/pipeline/sanitize-extraction";
function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(at(0.5)), p95: r(at(0.95)), max: r(sorted.at(-1) ?? NaN) };
}

const FILES = [
  "scripts/eval/realworld/dev.jsonl",
  "scripts/eval/realworld/test.jsonl",
  new URL("../../shared/data/eval/case-notes-dev.jsonl", import.meta.url).pathname,
];
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);

const notes = FILES.flatMap((file) => {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { notes: string }).notes)
      .filter(Boolean);
  } catch {
    return [];
  }
});

const handle = await openDatabase({ pgliteDataDir: "memory://" });
const loadStarted = performance.now();
await migrateDatabase(handle);
const loaded = await loadCatalogue(handle.db);
const catalogueLoadMs = performance.now() - loadStarted;
const lexicon = await loadLexicon(handle.db);
const kb = await loadKnowledgeBase(handle.db);
await handle.close();

extractLocally("warm-up: 3yo dog vomiting", lexicon);
const extract: number[] = [];
const rank: number[] = [];
const total: number[] = [];
for (let round = 0; round < REPEAT; round++) {
  for (const text of notes) {
    const t0 = performance.now();
    const extraction = extractLocally(text, lexicon);
    const sanitized = sanitizeExtraction(extraction, lexicon, text);
    const t1 = performance.now();
    rankDetailed(
      kb,
      {
        animal_type_id: sanitized.patient.animal_type_id,
        breed_id: sanitized.patient.breed_id,
        gender_id: sanitized.patient.gender_id,
        neutered: sanitized.patient.neutered,
        age_years: extraction.patient.ageYears,
        present_symptom_ids: sanitized.sanitized_symptoms.map((s) => s.id),
        absent_symptom_ids: [],
        context: extraction.patient.riskContext ?? null,
      },
      { limit: 20 },
    );
    const t2 = performance.now();
    extract.push(t1 - t0);
    rank.push(t2 - t1);
    total.push(t2 - t0);
  }
}

process.stdout.write(
  `${JSON.stringify({
    notes: notes.length,
    repeat: REPEAT,
    catalogue: {
      conditions: kb.conditionById.size,
      signs: kb.symptoms.size,
      load_ms: Math.round(catalogueLoadMs),
      rows: loaded,
    },
    extract_ms: percentiles(extract),
    rank_ms: percentiles(rank),
    extract_and_rank_ms: percentiles(total),
  })}\n`,
);
