// The note-to-condition text match: stems, denied clauses, and BM25's preference for rare words.
import { describe, expect, it } from "vitest";
import { buildConditionTextIndex, matchConditionText, noteStems } from "./condition-text";

const index = buildConditionTextIndex([
  {
    id: 1,
    name: "pericardial effusion",
    synonyms: [],
    description: "Fluid in the pericardium; muffled heart sounds, weak pulses.",
  },
  {
    id: 2,
    name: "gastroenteritis",
    synonyms: ["gastro"],
    description: "Vomiting and diarrhoea after a change of diet.",
  },
  {
    id: 3,
    name: "otitis externa",
    synonyms: [],
    description: "Head shaking, scratching at the ear, discharge.",
  },
]);

describe("noteStems", () => {
  it("cuts words to their stem, drops short and common words, and keeps each once", () => {
    expect(noteStems("The dog has pericardial fluid; pericardial fluid again")).toEqual([
      "pericard",
      "fluid",
      "again",
    ]);
  });

  it("leaves out what the note denies, from the denying word to the next punctuation", () => {
    expect(noteStems("Vomiting. No diarrhoea or blood, thorax NAD heart murmur; ears clean")).toEqual([
      "vomiting",
      "thorax",
      "ears",
      "clean",
    ]);
  });
});

describe("matchConditionText", () => {
  it("scores the conditions whose text shares the note's words, a shared stem joining word forms", () => {
    const scores = matchConditionText(
      index,
      noteStems("Muffled heart sounds; effusion around the pericardium"),
    );
    expect(scores.get(1)).toBeGreaterThan(0);
    expect(scores.has(2)).toBe(false);
    expect(scores.has(3)).toBe(false);
  });

  it("gives nothing for a note with no words in common, or an empty one", () => {
    expect(matchConditionText(index, noteStems("zzz qqq")).size).toBe(0);
    expect(matchConditionText(index, noteStems("")).size).toBe(0);
  });
});
