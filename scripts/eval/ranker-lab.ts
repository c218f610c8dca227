// `npx tsx scripts/eval/ranker-lab.ts [dev.jsonl] [--explain]`: for ranker work on the dev part.
// Runs each note through the pipeline once, then ranks the stored inputs with the default tuning
// and prints top-1/3/10 and MRR; --explain prints, for each case whose gold is in the catalogue
// but not first, how the gold and the top condition's log scores differ (prior, risk, present
// signs, absent signs, documentation). --gold-dropout=0.3 drops links of the dev golds (below).
// Refuses the held-out test part.
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { caseRankingInput } from "@/lib/diagnosis/case-differentials";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { openInProcessPipeline } from "./in-process";
import { acceptedNames, readGoldCases } from "./matching";
import { goldTools } from "./gold-dropout";
import {
  applyCaseLinks,
  labelledSignIds,
  learnCaseLinks,
  shownSignIds,
  signIdsOfConcepts,
} from "./case-links";
import { explainScore, rankDetailed, type RankTuning } from "@/lib/diagnosis/rank-differentials";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--")) ?? "scripts/eval/realworld/dev.jsonl";
const explain = args.includes("--explain");
// --oracle: rank with the labelled signs and findings (those the catalogue names) in place of
// the extracted ones, to see how much of a miss is the extractor's and how much the ranker's.
const oracle = args.includes("--oracle");
const variants: Partial<RankTuning>[] = JSON.parse(
  args.find((a) => a.startsWith("--variants="))?.slice(11) ?? "[{}]",
);
if (/test\.jsonl$/.test(file)) {
  process.stderr.write("refusing to work on the held-out test part\n");
  process.exit(2);
}
interface Line {
  id: string;
  notes: string;
  expected?: {
    symptoms?: { concept: string }[];
    findings?: { concept: string }[];
    absent?: string[];
  };
  gold: { name: string; aliases?: string[] };
  also_acceptable?: { name: string; aliases?: string[] }[];
}
const readLines = (path: string) => readGoldCases<Line>(path);
// --learn-from=dev.jsonl (with --case-links): learn the links from all of that file's cases and
// rank every case of `file` with them (a fresh batch, never its misses), instead of by batch.
const learnFrom = args.find((a) => a.startsWith("--learn-from="))?.slice(13);
if (learnFrom && /test\.jsonl$/.test(learnFrom)) process.exit(2);
const lines = [
  ...readLines(file),
  ...(learnFrom ? readLines(learnFrom).map((l) => ({ ...l, id: `learn:${l.id}` })) : []),
];

const labelled = signIdsOfConcepts(readCatalogueData().signs);

const { db, runNote, close } = await openInProcessPipeline(
  "lab",
  readCatalogueData(undefined, { caseLinks: !args.some((a) => a.startsWith("--case-links=")) }),
);
const inputs: {
  id: string;
  input: ReturnType<typeof caseRankingInput>;
  accepted: Set<string>;
  shownIds: number[];
}[] = [];
let mapped = 0,
  total = 0;
for (const line of lines) {
  const stored = await runNote(line.notes);
  const input = caseRankingInput(stored);
  if (oracle && line.expected) {
    const names = [...(line.expected.symptoms ?? []), ...(line.expected.findings ?? [])].map(
      (s) => s.concept,
    );
    input.present_symptom_ids = [...new Set(labelled(names))];
    input.absent_symptom_ids = [...new Set(labelled(line.expected.absent ?? []))];
    mapped += input.present_symptom_ids.length;
    total += names.length;
  }
  // What the case teaches the learned links, as the generator reads it (case-links.ts).
  const shownIds = shownSignIds(
    labelledSignIds(labelled, line.expected),
    caseRankingInput(stored).present_symptom_ids,
  );
  inputs.push({ id: line.id, input, accepted: acceptedNames(line), shownIds });
}
if (oracle) process.stderr.write(`oracle: ${mapped} of ${total} labelled concepts name a sign\n`);
const kb = await loadKnowledgeBase(db);
await close();

const { isGold, applyDropout } = goldTools(
  kb,
  inputs.map(({ accepted }) => accepted),
);

// --gold-dropout=0.3: drop that share of the links of every condition some dev case has as its
// gold (gold-dropout.ts; 3 seeds averaged): how a ranking change fares when the gold lacks some of
// the signs the case shows.
const dropout = Number(args.find((a) => a.startsWith("--gold-dropout="))?.slice(15) ?? 0);
const seeds = dropout > 0 ? [1, 2, 3] : [0];

// --case-links=beta,gamma: links learned from labelled cases (case-links.ts), cross-validated by
// batch (the id's letters): each batch is ranked with links learned from the other batches only.
// The catalogue's own learned links (db/seed/data/case-links.json) are left out of this run.
const caseLinks = args
  .find((a) => a.startsWith("--case-links="))
  ?.slice(13)
  .split(",")
  .map(Number);
const batchOf = (id: string) => id.replace(/[-_].*$/, "").replace(/[0-9]+$/, "");
const folds = learnFrom ? ["learn"] : caseLinks ? [...new Set(inputs.map((c) => batchOf(c.id)))] : [null];
function learnLinks(training: typeof inputs) {
  const [beta, gamma] = caseLinks!;
  const links = learnCaseLinks(
    kb,
    training.map((c) => ({
      id: c.id,
      animalTypeId: c.input.animal_type_id ?? null,
      isGold: (id: number, name: string) => isGold(c.accepted, id, name),
      signIds: c.shownIds,
    })),
    { beta, gamma },
  );
  return applyCaseLinks(kb, links);
}

for (const tuning of variants) {
  let top1 = 0,
    n = 0,
    top3 = 0,
    top10 = 0,
    rr = 0;
  const calibration: { score: number; correct: boolean }[] = [];
  for (const seed of seeds) {
    if (dropout > 0) applyDropout(dropout, seed);
    for (const fold of folds) {
      const learning = (c: (typeof inputs)[number]) =>
        learnFrom ? c.id.startsWith("learn:") : batchOf(c.id) !== fold;
      const restore = fold === null || !caseLinks ? () => {} : learnLinks(inputs.filter(learning));
      const ranked = inputs.filter((c) => (learnFrom ? !learning(c) : fold === null || !learning(c)));
      for (const { id, input, accepted } of ranked) {
        n++;
        const { data } = rankDetailed(kb, input, { limit: 3000, tuning });
        const index = data.findIndex((d) => isGold(accepted, d.id, d.name));
        const rank = index + 1;
        if (data[0]) calibration.push({ score: data[0].score, correct: rank === 1 });
        if (rank === 1) top1++;
        if (rank >= 1 && rank <= 3) top3++;
        if (rank >= 1 && rank <= 10) top10++;
        if (rank >= 1 && rank <= 20) rr += 1 / rank;
        if (explain && rank > 1) {
          const gold = data[index]!;
          const top = data[0]!;
          const a = explainScore(kb, input, gold.id, gold.animal_type_id ?? input.animal_type_id, tuning);
          const b = explainScore(kb, input, top.id, top.animal_type_id ?? input.animal_type_id, tuning);
          const f = (x: Record<string, number>) =>
            Object.entries(x)
              .map(([k, v]) => `${k}=${v.toFixed(1)}`)
              .join(" ");
          process.stdout.write(
            `${id} rank=${rank} gold=${gold.name} [${f(a.parts)}] vs top=${top.name} [${f(b.parts)}]\n   gold signs: ${a.signs}\n   top signs:  ${b.signs}\n`,
          );
        }
      }
      restore();
    }
  }
  const r = (x: number) => Math.round((x / n) * 1000) / 1000;
  // Calibration of the top score as eval:e2e measures it: ten equal-width bins.
  const bins = Array.from({ length: 10 }, () => ({ score: 0, correct: 0 }));
  for (const c of calibration) {
    const bin = bins[Math.min(9, Math.floor(c.score * 10))]!;
    bin.score += c.score;
    bin.correct += c.correct ? 1 : 0;
  }
  const ece = bins.reduce((sum, b) => sum + Math.abs(b.score - b.correct), 0);
  const meanTop = calibration.reduce((sum, c) => sum + c.score, 0);
  process.stdout.write(
    `${JSON.stringify({ tuning, n, top1: r(top1), top3: r(top3), top10: r(top10), mrr: r(rr), ece: r(ece), mean_top_score: r(meanTop) })}\n`,
  );
}
