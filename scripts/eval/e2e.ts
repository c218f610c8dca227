// `npm run eval:e2e -- <file.jsonl> [--verbose] [--limit 20] [--base-url URL --token TOKEN]`
//
// Notes → case → differentials, end to end, scored against labels. Each line of the file is
// either a labelled note ({notes, expected?, gold?, also_acceptable?}: scripts/eval/realworld/
// README.md) or a vignette ({species, present, absent, gold}: shared/data/eval/README.md), which
// is turned into a short note first. By default every case runs in-process through the same lib/
// functions the server uses (the pipeline's steps on a fresh in-memory PGlite, then
// differentialsForCase); with --base-url and --token it goes through a running server's REST API
// (POST /v1/cases, poll GET /v1/cases/{id}, GET /v1/cases/{id}/differentials).
//
// Prints one JSON object: ranking (top-1/3/10, MRR, catalogue coverage of the gold diagnoses,
// calibration of the top score), extraction (patient fields, sign and finding precision/recall/F1,
// denied signs selected) and timing. --verbose writes each case's misses to stderr.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { acceptedNames, normalise, type Diagnosis } from "./matching";

interface Concept {
  concept: string;
  aliases?: string[];
}
interface Expected {
  species?: string | null;
  breed?: string | null;
  name?: string | null;
  sex?: "male" | "female" | null;
  neutered?: boolean | null;
  weight_kg?: number | null;
  symptoms?: Concept[];
  findings?: Concept[];
  absent?: string[];
}
interface Line {
  id: string;
  notes?: string;
  expected?: Expected;
  gold?: Diagnosis;
  also_acceptable?: Diagnosis[];
  // vignette form
  species?: string;
  breed?: string | null;
  age_years?: number | null;
  sex?: "male" | "female" | null;
  neutered?: boolean | null;
  present?: string[];
  absent?: string[];
}

/** What one case came back as, whichever way it ran. */
interface CaseResult {
  status: string;
  patient: {
    animal_type_id: number | null;
    breed_id: number | null;
    name: string | null;
    gender_id: number | null;
    weight_kg: number | null;
    neutered: boolean | null;
  } | null;
  selected: { id: number; name: string; category: string }[];
  differentials: { id: number; name: string; score: number }[] | null;
  evidenceLevel: string | null;
  speciesUnknown: boolean;
  ms: number;
}

const FINDING_CATEGORIES = new Set(["Laboratory findings", "Imaging findings"]);

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    verbose: { type: "boolean", default: false },
    limit: { type: "string", default: "20" },
    "base-url": { type: "string" },
    token: { type: "string" },
  },
});
const file = positionals[0];
if (!file) {
  process.stderr.write(
    "usage: npm run eval:e2e -- <file.jsonl> [--verbose] [--limit 20] [--base-url URL --token TOKEN]\n",
  );
  process.exit(2);
}
const limit = Math.max(1, Math.min(100, Number(values.limit) || 20));

const catalogue = readCatalogueData();
const speciesKeyById = new Map(catalogue.animalTypes.map((t) => [t.id, t.key]));
// A breed's names: its VBO name and synonyms, plus the authored aliases vets write ("Holstein").
const aliasesOf = new Map<string, string[]>();
for (const a of catalogue.breedAliases.aliases) aliasesOf.set(`${a.species}|${a.breed}`, a.aliases);
const breedById = new Map<number, { name: string; synonyms: string[] }>([
  ...catalogue.breeds.map((b): [number, { name: string; synonyms: string[] }] => [
    b.id,
    { name: b.name, synonyms: [...b.synonyms, ...(aliasesOf.get(`${b.species}|${b.name}`) ?? [])] },
  ]),
  // Authored breeds (crosses such as "Labrador Retriever cross") live beside the VBO ones.
  ...catalogue.breedAliases.authored_breeds.map(
    (b) => [b.id, { name: b.name, synonyms: b.aliases }] as const,
  ),
]);
const genderKeyById = new Map(catalogue.genders.genders.map((g) => [g.id, g.key]));
const signById = new Map(catalogue.signs.map((s) => [s.id, s]));
const conditionById = new Map(catalogue.conditions.map((c) => [c.id, c]));

function conditionNames(id: number, fallback: string): string[] {
  const c = conditionById.get(id);
  return c ? [c.name, ...c.synonyms] : [fallback];
}
/** Is one of the accepted diagnoses in the catalogue for this species (any name or synonym)? */
function covered(speciesKey: string | null | undefined, accepted: Set<string>): boolean {
  return catalogue.conditions.some(
    (c) =>
      !c.retired &&
      (!speciesKey || c.species.includes(speciesKey)) &&
      [c.name, ...c.synonyms].some((n) => accepted.has(normalise(n))),
  );
}

/** A vignette as a vet might type it, so it runs through the extractor like any note. */
function vignetteNote(line: Line): string {
  const who = [
    line.age_years != null ? `${line.age_years}y` : null,
    line.sex ? `${line.neutered ? (line.sex === "male" ? "neutered " : "spayed ") : ""}${line.sex}` : null,
    line.breed ?? null,
    (line.species ?? "").replace(/_/g, " "),
  ]
    .filter(Boolean)
    .join(" ");
  const absent = (line.absent ?? []).map((a) => `no ${a}`);
  return `${who}. Presenting with ${(line.present ?? []).join(", ")}.${absent.length ? ` ${absent.join(", ")}.` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Runners

type Runner = (notes: string) => Promise<CaseResult>;

async function inProcessRunner(): Promise<{ run: Runner; close: () => Promise<void> }> {
  const { openInProcessPipeline } = await import("./in-process");
  const { differentialsForCase } = await import("@/lib/diagnosis/case-differentials");
  const { db, veterinarianId, runNote, close } = await openInProcessPipeline("eval");
  return {
    close,
    run: async (notes) => {
      const started = performance.now();
      const stored = await runNote(notes);
      const caseId = stored.id;
      let differentials: CaseResult["differentials"] = null;
      let evidenceLevel: string | null = null;
      let speciesUnknown = false;
      if (stored.status === "COMPLETED") {
        try {
          const answer = await differentialsForCase(db, { caseId, veterinarianId }, { limit });
          differentials = answer.data;
          const meta = answer as { evidence_level?: string; species?: { inferred?: boolean } };
          evidenceLevel = meta.evidence_level ?? null;
          speciesUnknown = meta.species?.inferred === true;
        } catch {
          differentials = null;
        }
      }
      const ms = performance.now() - started;
      const selected = (stored.selectedSymptoms as { id: number }[]).map((s) => ({
        id: s.id,
        name: signById.get(s.id)?.name ?? String(s.id),
        category: categoryName(s.id),
      }));
      return {
        status: stored.status,
        patient: stored.patient as CaseResult["patient"],
        selected,
        differentials,
        evidenceLevel,
        speciesUnknown,
        ms,
      };
    },
  };
}

function categoryName(signId: number): string {
  const key = signById.get(signId)?.category;
  return catalogue.categories.find((c) => c.key === key)?.name ?? "";
}

function httpRunner(baseUrl: string, token: string): { run: Runner; close: () => Promise<void> } {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(path, baseUrl), {
      ...init,
      headers,
      signal: AbortSignal.timeout(30_000),
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => null)) as Record<string, unknown> | null,
    };
  };
  return {
    close: async () => {},
    run: async (notes) => {
      const started = performance.now();
      const created = await call("/v1/cases", { method: "POST", body: JSON.stringify({ notes }) });
      if (created.status !== 201 || !created.body)
        throw new Error(`POST /v1/cases answered ${created.status}`);
      const id = String(created.body.id);
      let body = created.body;
      for (let i = 0; i < 600 && !["COMPLETED", "ERROR"].includes(String(body.status)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        body = (await call(`/v1/cases/${id}`)).body ?? body;
      }
      let differentials: CaseResult["differentials"] = null;
      let evidenceLevel: string | null = null;
      let speciesUnknown = false;
      if (body.status === "COMPLETED") {
        const answer = await call(`/v1/cases/${id}/differentials?limit=${limit}`);
        if (answer.status === 200 && answer.body) {
          differentials = answer.body.data as CaseResult["differentials"];
          evidenceLevel = (answer.body.evidence_level as string | undefined) ?? null;
          speciesUnknown = (answer.body.species as { inferred?: boolean } | undefined)?.inferred === true;
        }
      }
      const ms = performance.now() - started;
      const sanitized = (body.sanitized_symptoms ?? []) as {
        id: number;
        symptom_name: string;
        category_name: string;
      }[];
      const selectedIds = new Set(((body.selected_symptoms ?? []) as { id: number }[]).map((s) => s.id));
      return {
        status: String(body.status),
        patient: (body.patient ?? null) as CaseResult["patient"],
        selected: sanitized
          .filter((s) => selectedIds.has(s.id))
          .map((s) => ({ id: s.id, name: s.symptom_name, category: s.category_name })),
        differentials,
        evidenceLevel,
        speciesUnknown,
        ms,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Scoring

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;
const prf = (tp: number, fp: number, fn: number) => {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision: round(precision), recall: round(recall), f1: round(f1), tp, fp, fn };
};
const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function signTerms(id: number, name: string): Set<string> {
  const s = signById.get(id);
  return new Set([name, ...(s ? [s.name, ...s.synonyms] : [])].map(normalise));
}
const conceptTerms = (c: Concept) => new Set([c.concept, ...(c.aliases ?? [])].map(normalise));
const intersects = (a: Set<string>, b: Set<string>) => [...a].some((x) => b.has(x));

async function main() {
  const lines: Line[] = readFileSync(file!, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
  const runner =
    values["base-url"] && values.token
      ? httpRunner(values["base-url"], values.token)
      : await inProcessRunner();

  const ranking = { withGold: 0, top1: 0, top3: 0, top10: 0, reciprocal: 0, covered: 0, noList: 0 };
  const patientFields = { species: 0, breed: 0, name: 0, sex: 0, neutered: 0, weight: 0 };
  let labelled = 0;
  const signs = { tp: 0, fp: 0, fn: 0 };
  const findings = { tp: 0, fp: 0, fn: 0 };
  let deniedSelected = 0;
  let errors = 0;
  let lowEvidence = 0;
  let speciesUnknown = 0;
  const times: number[] = [];
  const calibration: { score: number; correct: boolean }[] = [];
  const bySpecies = new Map<string, { n: number; top3: number; top10: number }>();

  try {
    for (const line of lines) {
      const notes = line.notes ?? vignetteNote(line);
      const result = await runner.run(notes);
      times.push(result.ms);
      const misses: string[] = [];
      if (result.status !== "COMPLETED") {
        errors++;
        misses.push(`status ${result.status}`);
      }
      if (result.evidenceLevel === "low") lowEvidence++;
      if (result.speciesUnknown) speciesUnknown++;
      const speciesKey = line.expected?.species ?? line.species ?? null;

      // Ranking.
      if (line.gold) {
        ranking.withGold++;
        const accepted = acceptedNames(line);
        if (covered(speciesKey, accepted)) ranking.covered++;
        else misses.push(`not in catalogue for ${speciesKey}: ${line.gold.name}`);
        const list = result.differentials;
        if (!list || list.length === 0) ranking.noList++;
        const index = (list ?? []).findIndex((d) =>
          conditionNames(d.id, d.name).some((n) => accepted.has(normalise(n))),
        );
        const rank = index === -1 ? null : index + 1;
        if (rank !== null) {
          if (rank === 1) ranking.top1++;
          if (rank <= 3) ranking.top3++;
          if (rank <= 10) ranking.top10++;
          ranking.reciprocal += 1 / rank;
        }
        if (list && list.length > 0) calibration.push({ score: list[0]!.score, correct: rank === 1 });
        const group = bySpecies.get(speciesKey ?? "?") ?? { n: 0, top3: 0, top10: 0 };
        group.n++;
        if (rank !== null && rank <= 3) group.top3++;
        if (rank !== null && rank <= 10) group.top10++;
        bySpecies.set(speciesKey ?? "?", group);
        if (values.verbose) {
          const top = (list ?? [])
            .slice(0, 5)
            .map((d, i) => `${i + 1}. ${d.name} (${d.score.toFixed(3)})`)
            .join("; ");
          misses.push(`gold=${line.gold.name} rank=${rank ?? "-"} | ${top}`);
        }
      }

      // Extraction.
      const e = line.expected;
      if (e) {
        labelled++;
        const p = result.patient;
        const gotSpecies = p?.animal_type_id != null ? speciesKeyById.get(p.animal_type_id) : null;
        if (normalise(gotSpecies ?? "") === normalise(e.species ?? "")) patientFields.species++;
        else misses.push(`species: expected ${e.species}, got ${gotSpecies ?? null}`);
        const breed = p?.breed_id != null ? breedById.get(p.breed_id) : undefined;
        const breedOk =
          e.breed == null
            ? !breed
            : Boolean(breed) && [breed!.name, ...breed!.synonyms].map(normalise).includes(normalise(e.breed));
        if (breedOk) patientFields.breed++;
        else misses.push(`breed: expected ${e.breed ?? null}, got ${breed?.name ?? null}`);
        if (normalise(p?.name ?? "") === normalise(e.name ?? "")) patientFields.name++;
        else misses.push(`name: expected ${e.name ?? null}, got ${p?.name ?? null}`);
        const sexKey = p?.gender_id != null ? genderKeyById.get(p.gender_id) : null;
        const sex = sexKey === "male" || sexKey === "female" ? sexKey : null;
        if (sex === (e.sex ?? null)) patientFields.sex++;
        else misses.push(`sex: expected ${e.sex ?? null}, got ${sex}`);
        if ((p?.neutered ?? null) === (e.neutered ?? null)) patientFields.neutered++;
        else misses.push(`neutered: expected ${e.neutered ?? null}, got ${p?.neutered ?? null}`);
        const w = p?.weight_kg ?? null;
        const weightOk =
          e.weight_kg == null
            ? w === null
            : w !== null && Math.abs(w - e.weight_kg) <= 0.02 * e.weight_kg + 1e-9;
        if (weightOk) patientFields.weight++;
        else misses.push(`weight: expected ${e.weight_kg ?? null}, got ${w}`);

        const signConcepts = (e.symptoms ?? []).map(conceptTerms);
        const findingConcepts = (e.findings ?? []).map(conceptTerms);
        const matchedSigns = new Set<number>();
        const matchedFindings = new Set<number>();
        const absent = new Set((e.absent ?? []).map(normalise));
        for (const s of result.selected) {
          const terms = signTerms(s.id, s.name);
          const signHits = signConcepts.flatMap((c, i) => (intersects(c, terms) ? [i] : []));
          const findingHits = findingConcepts.flatMap((c, i) => (intersects(c, terms) ? [i] : []));
          if (signHits.length > 0) signHits.forEach((i) => matchedSigns.add(i));
          else if (findingHits.length > 0) findingHits.forEach((i) => matchedFindings.add(i));
          else {
            const isFinding = FINDING_CATEGORIES.has(s.category);
            if (isFinding) findings.fp++;
            else signs.fp++;
            const denied = intersects(terms, absent);
            if (denied) deniedSelected++;
            misses.push(`${denied ? "DENIED" : isFinding ? "finding fp" : "fp"}: ${s.name}`);
          }
        }
        signs.tp += matchedSigns.size;
        findings.tp += matchedFindings.size;
        (e.symptoms ?? []).forEach((c, i) => {
          if (!matchedSigns.has(i)) {
            signs.fn++;
            misses.push(`fn: ${c.concept}`);
          }
        });
        (e.findings ?? []).forEach((c, i) => {
          if (!matchedFindings.has(i)) {
            findings.fn++;
            misses.push(`finding fn: ${c.concept}`);
          }
        });
      }
      if (values.verbose && misses.length > 0) process.stderr.write(`${line.id}: ${misses.join(" · ")}\n`);
    }
  } finally {
    await runner.close();
  }

  // Calibration of the top score: expected calibration error over ten equal-width bins, and the
  // Brier score of "the first differential is the diagnosis".
  const bins = Array.from({ length: 10 }, () => ({ n: 0, score: 0, correct: 0 }));
  let brier = 0;
  for (const c of calibration) {
    const bin = bins[Math.min(9, Math.floor(c.score * 10))]!;
    bin.n++;
    bin.score += c.score;
    bin.correct += c.correct ? 1 : 0;
    brier += (c.score - (c.correct ? 1 : 0)) ** 2;
  }
  const ece = calibration.length
    ? bins.reduce((sum, b) => sum + (b.n ? Math.abs(b.score - b.correct) : 0), 0) / calibration.length
    : 0;

  const n = ranking.withGold || 1;
  const m = labelled || 1;
  const combined = prf(signs.tp + findings.tp, signs.fp + findings.fp, signs.fn + findings.fn);
  process.stdout.write(
    `${JSON.stringify({
      file,
      mode: values["base-url"] ? "http" : "in-process",
      cases: lines.length,
      not_completed: errors,
      ranking: {
        with_gold: ranking.withGold,
        top1: round(ranking.top1 / n),
        top3: round(ranking.top3 / n),
        top10: round(ranking.top10 / n),
        mrr: round(ranking.reciprocal / n),
        gold_in_catalogue: round(ranking.covered / n),
        no_list: ranking.noList,
        low_evidence: lowEvidence,
        species_unknown: speciesUnknown,
        by_species: Object.fromEntries(
          [...bySpecies].map(([k, v]) => [
            k,
            { n: v.n, top3: round(v.top3 / v.n), top10: round(v.top10 / v.n) },
          ]),
        ),
      },
      calibration: {
        ece: round(ece),
        brier: round(calibration.length ? brier / calibration.length : 0),
        mean_top_score: round(calibration.reduce((s, c) => s + c.score, 0) / (calibration.length || 1)),
        top1_accuracy: round(calibration.filter((c) => c.correct).length / (calibration.length || 1)),
      },
      extraction: labelled
        ? {
            labelled,
            species: round(patientFields.species / m),
            breed: round(patientFields.breed / m),
            name: round(patientFields.name / m),
            sex: round(patientFields.sex / m),
            neutered: round(patientFields.neutered / m),
            weight: round(patientFields.weight / m),
            signs: prf(signs.tp, signs.fp, signs.fn),
            findings: prf(findings.tp, findings.fp, findings.fn),
            signs_and_findings: combined,
            denied_selected: deniedSelected,
          }
        : null,
      timing_ms: { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) },
    })}\n`,
  );
}

await main();
