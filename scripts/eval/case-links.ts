// Links learned from labelled published cases (db/seed/data/case-links.json), shared by the
// generator (learn-case-links.ts) and the ranker lab's cross-validation (ranker-lab.ts
// --case-links). The authored catalogue lists what a textbook says a condition shows; published
// cases also show what a condition looks like in notes as our reader turns them into signs. For
// each gold condition, a sign its cases show (labelled, or read by the extractor) that the
// condition does not list gets weight gamma × k / (n + beta): k of the n cases with that gold
// showing it. One case gives 0.3; a sign in every one of four cases 0.48. Never learned from a
// held-out test part.
import type { KnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { normalise } from "./matching";

export interface LearningCase {
  id: string;
  /** The species the pipeline read from the note (the condition must be one of its species). */
  animalTypeId: number | null;
  /** Is this condition (by id and name) one of the case's accepted diagnoses? */
  isGold: (conditionId: number, name: string) => boolean;
  /** The signs and findings the case shows: its labels and what the extractor read. */
  signIds: number[];
}

export interface LearnedLink {
  conditionId: number;
  signId: number;
  weight: number;
  caseIds: string[];
}

/** Catalogue sign ids of labelled concepts (by sign name or synonym; concepts naming none are dropped). */
export function signIdsOfConcepts(signs: { id: number; name: string; synonyms: string[] }[]) {
  const byTerm = new Map<string, number>();
  for (const s of signs)
    for (const n of [s.name, ...s.synonyms]) if (!byTerm.has(normalise(n))) byTerm.set(normalise(n), s.id);
  return (concepts: string[]) =>
    concepts.map((c) => byTerm.get(normalise(c))).filter((id): id is number => id !== undefined);
}

/** The labelled signs and findings of a case that name catalogue signs. */
export function labelledSignIds(
  idsOf: (concepts: string[]) => number[],
  expected: { symptoms?: { concept: string }[]; findings?: { concept: string }[] } | undefined,
): number[] {
  return [
    ...new Set(idsOf([...(expected?.symptoms ?? []), ...(expected?.findings ?? [])].map((s) => s.concept))),
  ];
}

/** What a case shows, to learn from: its labelled signs and findings, and the signs the reader selected. */
export const shownSignIds = (labelledIds: number[], readIds: number[]) => [
  ...new Set([...labelledIds, ...readIds]),
];

export const CASE_LINK_BETA = 1;
export const CASE_LINK_GAMMA = 0.6;

export function learnCaseLinks(
  kb: KnowledgeBase,
  cases: LearningCase[],
  { beta = CASE_LINK_BETA, gamma = CASE_LINK_GAMMA } = {},
): LearnedLink[] {
  const casesByGold = new Map<number, LearningCase[]>();
  for (const c of cases) {
    if (c.animalTypeId === null) continue;
    for (const condition of kb.species.get(c.animalTypeId)?.conditions ?? []) {
      if (!c.isGold(condition.id, condition.name)) continue;
      casesByGold.set(condition.id, [...(casesByGold.get(condition.id) ?? []), c]);
    }
  }
  const links: LearnedLink[] = [];
  for (const [conditionId, golds] of casesByGold) {
    const condition = kb.conditionById.get(conditionId)!;
    const showing = new Map<number, string[]>();
    for (const c of golds)
      for (const signId of new Set(c.signIds))
        if (!condition.signs.has(signId)) showing.set(signId, [...(showing.get(signId) ?? []), c.id]);
    for (const [signId, caseIds] of showing) {
      const weight = Math.round(((gamma * caseIds.length) / (golds.length + beta)) * 100) / 100;
      if (weight > 0) links.push({ conditionId, signId, weight, caseIds });
    }
  }
  return links.sort((a, b) => a.conditionId - b.conditionId || a.signId - b.signId);
}

/** Adds the links to the knowledge base in place; returns a function that takes them out again. */
export function applyCaseLinks(kb: KnowledgeBase, links: LearnedLink[]): () => void {
  const saved = new Map<number, Map<number, number>>();
  for (const link of links) {
    const condition = kb.conditionById.get(link.conditionId)!;
    if (!saved.has(condition.id)) {
      saved.set(condition.id, condition.signs);
      condition.signs = new Map(condition.signs);
    }
    condition.signs.set(link.signId, link.weight);
  }
  return () => {
    for (const [id, signs] of saved) kb.conditionById.get(id)!.signs = signs;
  };
}
