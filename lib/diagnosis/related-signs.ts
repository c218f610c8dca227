// Signs that go together, learned from the catalogue itself: two signs the same conditions list
// (ecchymoses and gingival bleeding in coagulopathies, dyspnoea and shallow breathing) describe
// the same process, so a condition that lists one partly explains the other when a note reports
// it. How strongly b goes with a is the share of the conditions listing a that also list b,
// shrunk towards zero for signs few conditions list.
import type { KnowledgeBase } from "./knowledge-base";

/** Pseudo-count of conditions that shrinks the share for rarely listed signs. */
const SHRINK = 5;
/** Pairs weaker than this are not kept. */
const MIN_STRENGTH = 0.2;
/** At most this many related signs per sign, the strongest first. */
const MAX_RELATED = 10;

const byKb = new WeakMap<KnowledgeBase, Map<number, { id: number; strength: number }[]>>();

/** sign id b → the signs a whose conditions usually list b too, with that share. */
export function relatedSigns(kb: KnowledgeBase): Map<number, { id: number; strength: number }[]> {
  const cached = byKb.get(kb);
  if (cached) return cached;
  const listed = new Map<number, number>();
  const together = new Map<number, Map<number, number>>();
  for (const condition of kb.conditionById.values()) {
    const ids = [...condition.signs.keys()];
    for (const a of ids) {
      listed.set(a, (listed.get(a) ?? 0) + 1);
      let row = together.get(a);
      if (!row) together.set(a, (row = new Map()));
      for (const b of ids) if (b !== a) row.set(b, (row.get(b) ?? 0) + 1);
    }
  }
  const related = new Map<number, { id: number; strength: number }[]>();
  for (const [a, row] of together) {
    const n = listed.get(a)!;
    for (const [b, count] of row) {
      const strength = count / (n + SHRINK);
      if (strength < MIN_STRENGTH) continue;
      let list = related.get(b);
      if (!list) related.set(b, (list = []));
      list.push({ id: a, strength });
    }
  }
  for (const [b, list] of related)
    related.set(b, list.sort((x, y) => y.strength - x.strength || x.id - y.id).slice(0, MAX_RELATED));
  byKb.set(kb, related);
  return related;
}
