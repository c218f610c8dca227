import { describe, expect, it } from "vitest";
import { editDistance, SpellingIndex } from "./fuzzy";
import { stem, tokenise } from "./tokenise";
import { currentWeight, findAgeYears, findWeights } from "./weight-age";

describe("tokenise", () => {
  it("keeps offsets and shorthand markers", () => {
    const text = "V-D-C-S-, weight-loss; PU/PD x3, CRT>2s";
    const tokens = tokenise(text);
    expect(tokens.map((t) => t.norm)).toEqual([
      "v",
      "-",
      "d",
      "-",
      "c",
      "-",
      "s",
      "-",
      ",",
      "weight",
      "loss",
      ";",
      "pu",
      "/",
      "pd",
      "x",
      "3",
      ",",
      "crt",
      ">",
      "2s",
    ]);
    for (const t of tokens)
      expect(text.slice(t.start, t.end).toLowerCase()).toBe(t.norm === "\n" ? "\n" : t.norm);
  });

  it("does not split C-section or X-ray into markers", () => {
    expect(tokenise("C-section, X-ray").map((t) => t.norm)).toEqual(["c", "section", ",", "x", "ray"]);
  });

  it("stems inflections lightly", () => {
    expect(stem("vomiting")).toBe(stem("vomits"));
    expect(stem("vomitting")).toBe(stem("vomit"));
    expect(stem("coughing")).toBe(stem("coughs"));
    expect(stem("4")).toBe(stem("four"));
    expect(stem("3")).toBe(stem("three"));
  });
});

describe("spelling", () => {
  it("corrects one edit from six letters and refuses short or ambiguous words", () => {
    const index = new SpellingIndex(["diarrhea", "diarrhoea", "lethargic", "vomiting"]);
    expect(index.correct("diarhea")).toEqual({ word: "diarrhea", edits: 1 });
    expect(index.correct("lethargc")).toEqual({ word: "lethargic", edits: 1 });
    expect(index.correct("tired")).toBeNull();
    expect(editDistance("ab", "ba")).toBe(1);
  });
});

describe("weights and age", () => {
  it("reads units and picks the current weight", () => {
    expect(currentWeight(findWeights("Weight down from 42 g to 36 g"))).toMatchObject({
      value: 36,
      unit: "g",
    });
    expect(currentWeight(findWeights("7.9 kg (9.2 kg 4 wks ago)"))).toMatchObject({ value: 7.9, unit: "kg" });
    expect(currentWeight(findWeights("1.2kgs"))).toMatchObject({ value: 1.2, unit: "kg" });
    expect(currentWeight(findWeights("Wt 66 lb"))).toMatchObject({ value: 66, unit: "lb" });
    expect(findWeights("13.75 mg/kg PO BID")).toEqual([]);
  });

  it("reads ages but not durations", () => {
    expect(findAgeYears("Bella, 4yo FS")).toBe(4);
    expect(findAgeYears("8 months old kitten")).toBeCloseTo(0.67, 2);
    expect(findAgeYears("10 wks")).toBeCloseTo(0.19, 2);
    expect(findAgeYears("vomiting x2 wks, 14y MN")).toBe(14);
  });
});
