import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import type { MentionStatus } from "@/lib/ai/types";
import { getLexiconIndex } from "./lexicon-index";
import { extractLocally } from "./local-extractor";
import { sameRoot } from "./phrase-index";
import { SpellingIndex } from "./fuzzy";
import { stem } from "./tokenise";

let handle: DatabaseHandle;
let lexicon: Lexicon;

beforeAll(async () => {
  handle = await openTestDatabase();
  lexicon = await loadLexicon(handle.db);
});

afterAll(async () => {
  await handle.close();
});

/** Sign name -> statuses it was given. */
function statuses(notes: string): Map<string, MentionStatus[]> {
  const out = new Map<string, MentionStatus[]>();
  for (const m of extractLocally(notes, lexicon).symptoms) {
    const name = lexicon.symptomById.get(m.symptomId)!.name;
    out.set(name, [...(out.get(name) ?? []), m.status]);
  }
  return out;
}

function present(notes: string): string[] {
  return [...statuses(notes)].filter(([, s]) => s.includes("present")).map(([name]) => name);
}

describe("spelling correction refuses real words", () => {
  it("never corrects clinical words into signs", () => {
    const index = getLexiconIndex(lexicon);
    for (const word of ["prognosis", "orthopaedic", "vehicle", "haemolysis", "consulting", "scarring"]) {
      expect(index.knownStems.has(stem(word))).toBe(true);
      expect(present(`Dog. ${word}.`)).toEqual([]);
    }
    expect(present("Poor prognosis. Orthopaedic exam. Hit by a vehicle. Marked haemolysis.")).toEqual([]);
    expect(present("Scratching in the consulting room. Some scarring of the cornea.")).not.toContain(
      "seizures",
    );
    expect(present("Some scarring of the cornea.")).not.toContain("anxiety");
  });

  it("allows two edits only in words of ten letters or more", () => {
    const spelling = new SpellingIndex(["proptosis", "haemorrhage"]);
    expect(spelling.correct("prognosis")).toBeNull();
    expect(spelling.correct("haemorhagge")).toEqual({ word: "haemorrhage", edits: 2 });
  });

  it("keeps genuine misspellings", () => {
    expect(present("Vomitting since yesterday, diarhea.")).toEqual(
      expect.arrayContaining(["vomiting", "diarrhoea"]),
    );
  });

  it("tells a short-vowel root from a silent-e one", () => {
    expect(sameRoot("scarring", "scared")).toBe(false);
    expect(sameRoot("hopping", "hoped")).toBe(false);
    expect(sameRoot("vomitting", "vomiting")).toBe(true);
    expect(sameRoot("swelling", "swelled")).toBe(true);
    expect(present("She is scared of the vet.")).toContain("anxiety");
  });
});

describe("sign words that are not this animal's sign", () => {
  it("reads an anatomical compound as the disease it names", () => {
    const signs = present("Tracheal collapse suspected. Mitral regurgitation murmur. Laryngeal paralysis.");
    expect(signs).not.toContain("collapse");
    expect(signs).not.toContain("regurgitation");
    expect(signs).not.toContain("paralysis");
    expect(present("Collapsed in the garden. Regurgitation after meals.")).toEqual(
      expect.arrayContaining(["collapse", "regurgitation"]),
    );
  });

  it("reads build and manner words describing a structure or a population as not the animal's", () => {
    const signs = present(
      "Thin bladder wall on US. Aggressive expansile lytic lesion R maxilla. Obese cats are predisposed.",
    );
    expect(signs).not.toContain("poor body condition");
    expect(signs).not.toContain("aggression");
    expect(signs).not.toContain("weight gain");
    expect(present("Thin, bony cat. Aggressive to staff.")).toEqual(
      expect.arrayContaining(["poor body condition", "aggression"]),
    );
  });

  it("reads an injury after a causal word as the cause, not a sign", () => {
    const signs = present("Constipation after pelvic fracture last year.");
    expect(signs).toContain("constipation");
    expect(signs).not.toContain("fractures");
  });
});

describe("statuses", () => {
  it("reads a single word in scare quotes as someone's term, a quoted lay phrase as a sign", () => {
    expect(
      statuses("Owners say he had a coughing fit, 'collapsed' into the handrail.").get("collapse"),
    ).toEqual(["hypothetical"]);
    expect(statuses("Last 2d 'not herself', not eating.").get("lethargy")).toEqual(["present"]);
  });

  it("reads a sign since settled as historical, earlier mentions too", () => {
    const s = statuses(
      "Owner reported mild itch and had seen fleas - started Frontline, itch mostly settled since.",
    );
    expect(s.get("pruritus")).toEqual(["historical"]);
    expect(s.get("fleas seen")).toEqual(["historical"]);
    expect(statuses("Cough much improved since starting doxy.").get("coughing")).toEqual(["historical"]);
  });

  it("reads a sign months ago as historical, but not one going on since then", () => {
    expect(statuses("Hx abscess ventral abdo ~1 mo ago.").get("abscess")).toEqual(["historical"]);
    expect(
      statuses("Has had difficulty passing urine ever since he was castrated six months ago.").get(
        "urinary retention",
      ),
    ).toEqual(["present"]);
  });

  it("reads a person's feeling as the person's, and crying out when picked up as pain on handling", () => {
    const s = statuses("Cat 2y. Cries out when she is picked up. Owner very anxious re GA.");
    expect(s.get("anxiety")).toEqual(["other_animal"]);
    expect(s.get("yelping on handling")).toEqual(["present"]);
  });

  it("reads a corrected report: the owner's quoted word and what it was 'rather than'", () => {
    const s = statuses(
      "Dog 10y. Owner says she is having 'fits'; on closer questioning episodes are collapse rather than true seizures.",
    );
    expect(s.get("seizures")).toEqual(["hypothetical", "absent"]);
    expect(s.get("collapse")).toEqual(["present"]);
  });

  it("reads a 'non-' prefix as negating its own word only", () => {
    const s = statuses(
      "Dog 9y. There is a large, non-painful mass in the abdomen. Non-pruritic alopecia on flanks.",
    );
    expect(s.get("abdominal pain")).toEqual(["absent"]);
    expect(s.get("abdominal mass")).toEqual(["present"]);
    expect(s.get("pruritus")).toEqual(["absent"]);
    expect(s.get("alopecia")).toEqual(["present"]);
  });

  it("reads the complaint of an earlier consultation as historical", () => {
    const s = statuses(
      "Pig 18y. Eighteen months ago he was seen for nasal discharge and sneezing. Now lethargic.",
    );
    expect(s.get("nasal discharge")).toEqual(["historical"]);
    expect(s.get("sneezing")).toEqual(["historical"]);
    expect(s.get("lethargy")).toEqual(["present"]);
  });
});

describe("assertion status of stopped, childhood and answered signs", () => {
  it("does not select a sign that stopped, was a puppy's, or is answered 'no'", () => {
    expect(statuses("Dog 5y. The vomiting stopped 3 weeks ago.").get("vomiting")).toEqual(["historical"]);
    expect(statuses("Dog 5y. Had diarrhoea as a puppy.").get("diarrhoea")).toEqual(["historical"]);
    expect(statuses("Dog 5y. Lameness improved and now sound.").get("lameness")).toEqual(["historical"]);
    expect(present("Dog 5y. PU/PD: no. Coughing.")).toEqual(["coughing"]);
    expect(statuses("Dog 5y. His dam was lame.").get("lameness")).toEqual(["other_animal"]);
    expect(
      present("Cat 7y. A heart murmur was not appreciated. Abdominal pain could not be elicited."),
    ).toEqual([]);
    expect(statuses("Cat 7y. Polyuria had been noted a year earlier but resolved.").get("polyuria")).toEqual([
      "historical",
    ]);
    expect(present("Dog 6y. On phenobarbital, seizure-free for 2 years.")).toEqual([]);
    expect(present("Dog 6y. Diarrhoea is a common side effect of this drug.")).toEqual([]);
    // "stopped eating" is a sign, not a resolution.
    expect(present("Dog 5y. Stopped eating yesterday.")).toEqual(["inappetence"]);
  });
});

describe("sign words used in another sense", () => {
  it("reads build, medicines, vaccines and plans named after a sign as no sign", () => {
    expect(present("Body mass 4.2 kg. Lean muscle mass good. Body mass index fine.")).toEqual([]);
    expect(present("Cough syrup asked about. Kennel cough vaccination given intranasally.")).toEqual([]);
    expect(present("Pain relief given prior to discharge. Anti-itch shampoo recommended.")).toEqual([]);
    expect(present("Weight loss plan started. Weighed on the big scales.")).toEqual([]);
    expect(present("Parvo SNAP +ve.")).toEqual([]);
    expect(present("Vomit sample kept. Seizure diary reviewed. Hairball paste given weekly.")).toEqual([]);
    expect(present("Vet shaking hands with the owner.")).toEqual([]);
  });

  it("reads an airway's or a vein's collapse as no collapse", () => {
    expect(present("Collapse of the trachea confirmed on fluoroscopy.")).not.toContain("collapse");
    expect(present("Vein collapsed on the first attempt.")).not.toContain("collapse");
    expect(present("Collapsed on a walk today.").some((s) => s.includes("collapse"))).toBe(true);
  });

  it("leaves side effects, people's complaints and zero scores out", () => {
    expect(present("Side effects include vomiting and diarrhoea; owner aware.")).toEqual([]);
    expect(present("Lethargy after the vaccine is normal, warned owner.")).toEqual([]);
    expect(present("Nurse scratched on the arm. Owner is recovering from diarrhoea.")).toEqual([]);
    expect(present("Pruritus: 0/10. Lameness grading 0/5 all limbs.")).toEqual([]);
    expect(present("Per owner vomiting since Monday.")).toContain("vomiting");
    expect(present("Tramadol for pain, owner happy. Sutures out, wound healed.")).toEqual([]);
    expect(present("Presented for pain on the right fore.").length).toBeGreaterThan(0);
  });

  it("reads questionnaire answers and empty headers as no sign", () => {
    expect(statuses("Lethargy Y/N: N").get("lethargy")).toEqual(["absent"]);
    expect(present("Coughing - N, Sneezing - N. V/D/C/S: -/-/-/-")).toEqual([]);
    expect(present("Vomiting/Diarrhoea: neither.")).toEqual([]);
    expect(present("Vomiting:")).toEqual([]);
    expect(present("E+D+U+F normal.")).toEqual([]);
    expect(present("Vomiting: 3 times overnight.")).toContain("vomiting");
  });
});
