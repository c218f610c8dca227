// The matching rule of shared/data/eval/README.md, shared by the evaluation scripts: names are
// compared case-insensitively, with spaces, hyphens, underscores and apostrophes folded.

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
