// `npx tsx scripts/eval/rerank-dump.ts <file.jsonl> <out.json> [--gold-dropout=0.3]`: for re-ranker
// work. Runs each note through the pipeline, ranks it, and writes the top 40 candidates of each
// case with their features (rank-differentials.ts candidateFeatures) and whether each is the gold.
import { readFileSync, writeFileSync } from "node:fs";
import { caseRankingInput } from "@/lib/diagnosis/case-differentials";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { openInProcessPipeline } from "./in-process";
import { acceptedNames } from "./matching";
import { goldTools } from "./gold-dropout";
import { candidateFeatures, rankDetailed } from "@/lib/diagnosis/rank-differentials";

const args = process.argv.slice(2);
const [file, out] = args.filter((a) => !a.startsWith("--"));
if (!file || !out) throw new Error("usage: rerank-dump <file.jsonl> <out.json>");
if (/test\.jsonl$/.test(file)) {
  process.stderr.write("refusing to work on the held-out test part\n");
  process.exit(2);
}
const dropout = Number(args.find((a) => a.startsWith("--gold-dropout="))?.slice(15) ?? 0);
const K = 40;
const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { id: string; notes?: string; gold?: { name: string } })
  .filter((l): l is { id: string; notes: string; gold: { name: string } } => Boolean(l.notes && l.gold));
const { db, runNote, close } = await openInProcessPipeline("rerank");
const inputs: { id: string; input: ReturnType<typeof caseRankingInput>; accepted: Set<string> }[] = [];
for (const line of lines) {
  const stored = await runNote(line.notes);
  inputs.push({ id: line.id, input: caseRankingInput(stored), accepted: acceptedNames(line) });
}
const kb = await loadKnowledgeBase(db);
await close();
const { isGold, applyDropout } = goldTools(
  kb,
  inputs.map(({ accepted }) => accepted),
);
const seeds = dropout > 0 ? [1, 2, 3] : [0];
const cases = [];
for (const seed of seeds) {
  if (dropout > 0) applyDropout(dropout, seed);
  for (const { id, input, accepted } of inputs) {
    const ranked = rankDetailed(kb, input, { limit: 3000 });
    const goldRank = ranked.data.findIndex((d) => isGold(accepted, d.id, d.name)) + 1;
    const top = ranked.data.slice(0, K);
    const features = candidateFeatures(
      kb,
      input,
      top.map((d) => ({ id: d.id, animalTypeId: d.animal_type_id ?? input.animal_type_id! })),
    );
    cases.push({
      id,
      seed,
      goldRank,
      evidence: ranked.evidence_level,
      candidates: top.map((d, i) => ({
        name: d.name,
        score: d.score,
        gold: isGold(accepted, d.id, d.name),
        ...features[i],
      })),
    });
  }
}
writeFileSync(out, JSON.stringify(cases));
process.stderr.write(`${cases.length} cases written to ${out}\n`);
