// Shared by the ranker labs (ranker-lab.ts, rerank-dump.ts): whether a ranked condition is a
// case's gold, and the gold-dropout proxy. Dev golds' links were partly written while reading dev
// misses; an unseen case meets a condition whose author did not see it, so the proxy drops a share
// of the links of every condition some dev case has as its gold (seeded, to average over seeds).
import type { KnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { normalise } from "./matching";

export function goldTools(kb: KnowledgeBase, acceptedSets: Set<string>[]) {
  /** Is the condition (by name or a catalogue synonym) one of the accepted diagnoses? */
  const isGold = (accepted: Set<string>, id: number, name: string) =>
    [name, ...(kb.conditionById.get(id)?.synonyms ?? [])].some((n) => accepted.has(normalise(n)));
  const goldIds = [...kb.conditionById.values()]
    .filter((c) => acceptedSets.some((accepted) => isGold(accepted, c.id, c.name)))
    .map((c) => c.id);
  const intact = new Map(goldIds.map((id) => [id, new Map(kb.conditionById.get(id)!.signs)]));
  /** Drops `rate` of every gold condition's links, the same ones for the same seed (in place). */
  function applyDropout(rate: number, seed: number) {
    for (const [id, signs] of intact) {
      kb.conditionById.get(id)!.signs = new Map(
        [...signs].filter(([signId]) => {
          const h = Math.sin(id * 12.9898 + signId * 78.233 + seed * 37.719) * 43758.5453;
          return h - Math.floor(h) >= rate;
        }),
      );
    }
  }
  return { isGold, applyDropout };
}
