// Differentials follow every change of the patient or the signs. Each ranking remembers the inputs
// it was made for (`key`), so a list ranked for older inputs shows as stale.
import { useEffect, useState } from "react";
import type { Differential } from "./component-api";
import type { ComponentBackend, FreeFormSelection } from "./component-backend";

interface Ranking {
  /** Everything the ranking depends on, as one string. */
  key: string;
  animalTypeId: number | null;
  /** Nothing to rank now (the session ended, the notes are still processed). */
  paused: boolean;
  /** The free-form selection to rank, or null for the session's case. */
  selection: FreeFormSelection | null;
  fail: (problem: unknown) => void;
}

export function useDifferentials(
  backend: ComponentBackend,
  { key, animalTypeId, paused, selection, fail }: Ranking,
) {
  const [ranked, setRanked] = useState<{ key: string; data: Differential[] } | null>(null);
  const [ranking, setRanking] = useState(false);

  useEffect(() => {
    if (paused || animalTypeId === null) return;
    let current = true;
    const load = async () => {
      setRanking(true);
      try {
        const data = await backend.differentials(selection);
        if (current) setRanked({ key, data });
      } catch (problem) {
        if (current) fail(problem);
      } finally {
        if (current) setRanking(false);
      }
    };
    void load();
    return () => {
      current = false;
    };
    // `key` captures every input of the ranking, the selection included.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [backend, key, animalTypeId, paused, fail]);

  return { differentials: ranked?.data ?? null, stale: ranked?.key !== key, ranking };
}
