// The matching rule of shared/data/eval/README.md, shared by the evaluation scripts: names are
// compared case-insensitively, with spaces, hyphens, underscores and apostrophes folded.
import { readFileSync } from "node:fs";

export interface Diagnosis {
  name: string;
  aliases?: string[];
}

export const normalise = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[’']/g, "")
    .replace(/[\s_\-–]+/g, " ");

/** Every accepted name of a labelled case: the gold and the also-acceptable diagnoses, with aliases. */
export function acceptedNames(line: { gold?: Diagnosis; also_acceptable?: Diagnosis[] }): Set<string> {
  const all = [line.gold, ...(line.also_acceptable ?? [])].filter((d): d is Diagnosis => Boolean(d));
  return new Set(all.flatMap((d) => [d.name, ...(d.aliases ?? [])]).map(normalise));
}

/** The cases of a JSONL file that have notes and a gold diagnosis (the ranking labs' input). */
export function readGoldCases<T extends { notes?: string; gold?: Diagnosis }>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T)
    .filter((l) => Boolean(l.notes && l.gold));
}
