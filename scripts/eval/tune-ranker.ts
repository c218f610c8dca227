// `npx tsx scripts/eval/tune-ranker.ts [scripts/eval/realworld/dev.jsonl]`: grid search over the
// ranker's free constants (lib/diagnosis/rank-differentials.ts RankTuning) on a labelled set.
// Each note runs through the pipeline once; then every combination re-ranks the stored inputs.
// Prints one JSON line per combination (best last) and the temperature that calibrates the best
// combination's top score. Tune on the dev part only: the test part is for reporting.
import { caseRankingInput } from "@/lib/diagnosis/case-differentials";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { openInProcessPipeline } from "./in-process";
import { acceptedNames, normalise, readGoldCases } from "./matching";
import { DEFAULT_TUNING, rankDetailed, type RankTuning } from "@/lib/diagnosis/rank-differentials";

const file = process.argv[2] ?? "scripts/eval/realworld/dev.jsonl";
if (/test\.jsonl$/.test(file)) {
  process.stderr.write("refusing to tune on the held-out test part\n");
  process.exit(2);
}
interface Line {
  id: string;
  notes: string;
  gold: { name: string; aliases?: string[] };
  also_acceptable?: { name: string; aliases?: string[] }[];
}
const lines = readGoldCases<Line>(file);

const { db, runNote, close } = await openInProcessPipeline("tune");
const inputs: { input: ReturnType<typeof caseRankingInput>; accepted: Set<string> }[] = [];
for (const line of lines) {
  const stored = await runNote(line.notes);
  const accepted = acceptedNames(line);
  inputs.push({ input: caseRankingInput(stored), accepted });
}
const kb = await loadKnowledgeBase(db);
await close();

function evaluate(tuning: Partial<RankTuning>) {
  let top1 = 0;
  let top3 = 0;
  let top10 = 0;
  let rr = 0;
  const calibration: { score: number; correct: boolean }[] = [];
  for (const { input, accepted } of inputs) {
    const { data } = rankDetailed(kb, input, { limit: 30, tuning });
    const index = data.findIndex((d) => {
      const c = kb.conditionById.get(d.id);
      return [d.name, ...(c?.synonyms ?? [])].some((n) => accepted.has(normalise(n)));
    });
    const rank = index + 1;
    if (rank === 1) top1++;
    if (rank >= 1 && rank <= 3) top3++;
    if (rank >= 1 && rank <= 10) top10++;
    if (rank >= 1) rr += 1 / rank;
    if (data[0]) calibration.push({ score: data[0].score, correct: rank === 1 });
  }
  const n = inputs.length;
  const bins = Array.from({ length: 10 }, () => ({ n: 0, s: 0, c: 0 }));
  for (const c of calibration) {
    const b = bins[Math.min(9, Math.floor(c.score * 10))]!;
    b.n++;
    b.s += c.score;
    b.c += c.correct ? 1 : 0;
  }
  const ece = bins.reduce((sum, b) => sum + Math.abs(b.s - b.c), 0) / (calibration.length || 1);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { top1: r(top1 / n), top3: r(top3 / n), top10: r(top10 / n), mrr: r(rr / n), ece: r(ece) };
}

const priorSets: RankTuning["priors"][] = [
  DEFAULT_TUNING.priors,
  { very_common: 8, common: 4, uncommon: 1.5, rare: 0.5 },
  { very_common: 6, common: 3.5, uncommon: 1.5, rare: 0.6 },
  { very_common: 4, common: 3, uncommon: 1.5, rare: 0.7 },
  { very_common: 16, common: 6, uncommon: 1.5, rare: 0.4 },
];
const results = [];
for (const priors of priorSets)
  for (const likelihoodWeight of [0.5, 0.65, 0.8, 1])
    for (const documentation of [0, 0.2, 0.3])
      for (const cardinalWeight of documentation === 0 ? [0.7] : [0.7, 0.8]) {
        const tuning = { priors, likelihoodWeight, documentation, cardinalWeight, temperature: 1 };
        results.push({ tuning, ...evaluate(tuning) });
      }
results.sort((a, b) => a.top3 + a.top10 + a.mrr - (b.top3 + b.top10 + b.mrr));
for (const r of results.slice(-12)) process.stdout.write(`${JSON.stringify(r)}\n`);
const best = results.at(-1)!;
const temperatures = [0.6, 0.8, 1, 1.25, 1.5, 2, 2.5, 3].map((temperature) => ({
  temperature,
  ...evaluate({ ...best.tuning, temperature }),
}));
process.stdout.write(
  `${JSON.stringify({ cases: inputs.length, default: evaluate({}), calibration: temperatures })}\n`,
);
