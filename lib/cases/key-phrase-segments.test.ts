import { describe, expect, it } from "vitest";
import { segmentNotes } from "./key-phrase-segments";

describe("segmentNotes", () => {
  it("marks each key phrase once, longest first, case-insensitively, keeping the notes' own text", () => {
    const notes = "Haemorrhagic diarrhoea since Monday. No vomiting.";
    const segments = segmentNotes(notes, [
      { phrase: "diarrhoea", sign: "diarrhoea", absent: false },
      { phrase: "haemorrhagic diarrhoea", sign: "haemorrhagic diarrhoea", absent: false },
      { phrase: "vomiting", sign: "vomiting", absent: true },
    ]);
    expect(segments.map((s) => s.text).join("")).toBe(notes);
    expect(segments.filter((s) => s.mark).map((s) => [s.text, s.mark?.sign])).toEqual([
      ["Haemorrhagic diarrhoea", "haemorrhagic diarrhoea"],
      ["vomiting", "vomiting"],
    ]);
  });

  it("returns the notes unchanged without phrases, and ignores blank ones", () => {
    expect(segmentNotes("Dog, lame.", [{ phrase: " ", sign: "x", absent: false }])).toEqual([
      { text: "Dog, lame." },
    ]);
  });
});
