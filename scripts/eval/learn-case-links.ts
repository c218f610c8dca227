// `npm run catalogue:learn-links`: learns the catalogue's case links (scripts/eval/case-links.ts)
// from the real-world development part and writes db/seed/data/case-links.json. Each dev note runs
// through the pipeline in-process against the authored catalogue (learned links left out, so a
// rerun learns the same links); a case teaches the conditions that are its gold, for the species
// the pipeline read. Never reads the held-out test part. Run it after the dev part grows or the
// authored links change, then `npm run seed:check`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { caseRankingInput } from "@/lib/diagnosis/case-differentials";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import {
  CASE_LINK_BETA,
  CASE_LINK_GAMMA,
  labelledSignIds,
  learnCaseLinks,
  shownSignIds,
  signIdsOfConcepts,
  type LearningCase,
} from "./case-links";
import { goldTools } from "./gold-dropout";
import { openInProcessPipeline } from "./in-process";
import { acceptedNames, readGoldCases } from "./matching";

const devFile = "scripts/eval/realworld/dev.jsonl";
const output = path.join("db", "seed", "data", "case-links.json");

interface Line {
  id: string;
  notes: string;
  expected?: { symptoms?: { concept: string }[]; findings?: { concept: string }[] };
  gold?: { name: string; aliases?: string[] };
  also_acceptable?: { name: string; aliases?: string[] }[];
}
const lines = readGoldCases<Line>(devFile);

const catalogue = readCatalogueData(undefined, { caseLinks: false });
const idsOf = signIdsOfConcepts(catalogue.signs);

const { db, runNote, close } = await openInProcessPipeline("learn-links", catalogue);
const read: { line: Line; animalTypeId: number | null; signIds: number[] }[] = [];
for (const line of lines) {
  const input = caseRankingInput(await runNote(line.notes));
  read.push({
    line,
    animalTypeId: input.animal_type_id ?? null,
    signIds: shownSignIds(labelledSignIds(idsOf, line.expected), input.present_symptom_ids),
  });
}
const kb = await loadKnowledgeBase(db);
await close();

const accepted = read.map(({ line }) => acceptedNames(line));
const { isGold } = goldTools(kb, accepted);
const cases: LearningCase[] = read.map(({ line, animalTypeId, signIds }, index) => ({
  id: line.id,
  animalTypeId,
  isGold: (id, name) => isGold(accepted[index]!, id, name),
  signIds,
}));
const links = learnCaseLinks(kb, cases);
// One link per line, so a regenerated file diffs link by link.
const header = {
  description:
    "Links learned from labelled published cases: a sign or finding the cases of a gold condition showed (labelled, or read by the extractor) that the condition's authored entry does not list, weight gamma × k / (n + beta) for k of its n cases. Written by scripts/eval/learn-case-links.ts; do not edit by hand.",
  learned_from: `${devFile} (${lines.length} cases)`,
  beta: CASE_LINK_BETA,
  gamma: CASE_LINK_GAMMA,
};
const rows = links.map((link) =>
  JSON.stringify({
    condition_id: link.conditionId,
    condition: kb.conditionById.get(link.conditionId)!.name,
    sign: kb.symptoms.get(link.signId)!.name,
    weight: link.weight,
    cases: link.caseIds,
  }),
);
writeFileSync(
  output,
  `${JSON.stringify(header, null, 1).slice(0, -2)},\n "links": [\n  ${rows.join(",\n  ")}\n ]\n}\n`,
);
const conditions = new Set(links.map((l) => l.conditionId)).size;
process.stdout.write(
  `${JSON.stringify({ cases: lines.length, learned_links: links.length, conditions, output })}\n`,
);
