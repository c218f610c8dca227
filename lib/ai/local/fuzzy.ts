// Spelling correction against the catalogue's vocabulary: a deletion index finds words one edit
// away in constant time; words of 10+ letters may be two edits away (checked by brute force over
// words of similar length and the same first letter).

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) d[i]![0] = i;
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Infinity;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length]![b.length]!;
}

function deletes(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

export class SpellingIndex {
  private readonly words = new Set<string>();
  private readonly byDelete = new Map<string, Set<string>>();
  private readonly byFirstLetter = new Map<string, string[]>();

  constructor(vocabulary: Iterable<string>) {
    for (const word of vocabulary) {
      if (word.length < 5 || !/^[a-z]+$/.test(word) || this.words.has(word)) continue;
      this.words.add(word);
      for (const key of [word, ...deletes(word)]) {
        const set = this.byDelete.get(key) ?? new Set<string>();
        set.add(word);
        this.byDelete.set(key, set);
      }
      const list = this.byFirstLetter.get(word[0]!) ?? [];
      list.push(word);
      this.byFirstLetter.set(word[0]!, list);
    }
  }

  has(word: string): boolean {
    return this.words.has(word);
  }

  /**
   * The single closest vocabulary word within the allowed distance (1 edit from 6 letters, 2
   * from 10: two edits in a shorter word leave less than 80% of it, and are more often another
   * word than a slip), or null when none or when two candidates tie.
   */
  correct(word: string): { word: string; edits: number } | null {
    if (word.length < 6 || !/^[a-z]+$/.test(word) || this.words.has(word)) return null;
    const found = new Set<string>();
    for (const key of [word, ...deletes(word)]) for (const w of this.byDelete.get(key) ?? []) found.add(w);
    const one = [...found].filter((w) => editDistance(word, w, 1) <= 1);
    if (one.length === 1) return { word: one[0]!, edits: 1 };
    if (one.length > 1) return null;
    if (word.length < 10) return null;
    let best: string | null = null;
    let tie = false;
    for (const w of this.byFirstLetter.get(word[0]!) ?? []) {
      if (Math.abs(w.length - word.length) > 2) continue;
      if (editDistance(word, w, 2) <= 2) {
        if (best !== null) tie = true;
        best = w;
      }
    }
    return best && !tie ? { word: best, edits: 2 } : null;
  }
}
