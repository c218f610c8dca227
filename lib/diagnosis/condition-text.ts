// How well a note's words match each condition's own text (name, synonyms, description): a
// second opinion beside the sign model. The naive Bayes score sees only the signs and findings
// the catalogue names; a note also says which organ is involved and how ("pericardial", "atrial",
// "splenic", "after a dental"), and a condition's description says the same in its own words.
//
// Okapi BM25 over the catalogue's condition texts, with words cut to their first eight letters
// (enough to join "pericardial" and "pericardium", "haemorrhage" and "haemorrhagic") and the
// clauses a note denies ("no vomiting", "thorax unremarkable") left out. Chosen on the
// real-world dev set and a fresh batch measured before anyone read it (docs/decisions.md,
// "Session 12").

const STEM_LENGTH = 8;
const K1 = 1.2;
const B = 0.75;

/** Words too common in notes and descriptions to say which condition a note is about. */
const STOP_WORDS = new Set(
  (
    "the and with for was were has had have not but from this that into over under after before " +
    "about very more less than then when which while will been being also left right both mild " +
    "marked severe moderate normal within limits noted owner history presented presents " +
    "presentation days day weeks week months month year years old dog cat patient today since " +
    "time times signs sign clinical examination exam physical"
  ).split(" "),
);

/** A denying clause, up to the next punctuation: "no vomiting or diarrhoea", "thorax NAD". */
const DENIED_CLAUSE =
  /\b(?:no|not|nil|without|negative for|denies|absent|nad|unremarkable|wnl|normal)\b[^.;:,\n]*/gi;

function stems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{3,}/g) ?? [])
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) => word.slice(0, STEM_LENGTH));
}

/** The distinct word stems of a note, without the clauses it denies. */
export function noteStems(notes: string): string[] {
  return [...new Set(stems(notes.replace(DENIED_CLAUSE, " ")))];
}

/** stem → the conditions whose text has it, with the stem's BM25 weight in each. */
export type ConditionTextIndex = Map<string, { conditionId: number; weight: number }[]>;

export function buildConditionTextIndex(
  conditions: { id: number; name: string; synonyms: string[]; description: string }[],
): ConditionTextIndex {
  const documents = conditions.map((c) => {
    const words = stems([c.name, ...c.synonyms, c.description].join(" "));
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { id: c.id, length: words.length, counts };
  });
  const count = Math.max(1, documents.length);
  const meanLength = documents.reduce((sum, d) => sum + d.length, 0) / count || 1;
  const documentFrequency = new Map<string, number>();
  for (const d of documents)
    for (const word of d.counts.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const index: ConditionTextIndex = new Map();
  for (const d of documents) {
    const norm = K1 * (1 - B + (B * d.length) / meanLength);
    for (const [word, tf] of d.counts) {
      const df = documentFrequency.get(word)!;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      const weight = (idf * tf * (K1 + 1)) / (tf + norm);
      let postings = index.get(word);
      if (!postings) index.set(word, (postings = []));
      postings.push({ conditionId: d.id, weight });
    }
  }
  return index;
}

/** condition id → BM25 score of the note's stems against the condition's text. */
export function matchConditionText(index: ConditionTextIndex, noteStemList: string[]): Map<number, number> {
  const scores = new Map<number, number>();
  for (const stem of noteStemList) {
    for (const { conditionId, weight } of index.get(stem) ?? [])
      scores.set(conditionId, (scores.get(conditionId) ?? 0) + weight);
  }
  return scores;
}
