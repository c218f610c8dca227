// Assertion status at the edges of a negation's, a past event's or another subject's scope, through
// the extractor's public function: what a sign is selected as, not how the context model works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import { localExtractor } from "./local-extractor";

let handle: DatabaseHandle;
let lexicon: Lexicon;

beforeAll(async () => {
  handle = await openTestDatabase();
  lexicon = await loadLexicon(handle.db);
});

afterAll(async () => {
  await handle.close();
});

/** Names of the signs the notes report as present. */
async function present(notes: string): Promise<string[]> {
  const e = await localExtractor.extract(notes, lexicon);
  return e.symptoms
    .filter((m) => m.status === "present")
    .map((m) => lexicon.symptomById.get(m.symptomId)!.name);
}

describe("assertion scope", () => {
  it("ends a list negation at a new predicate or an item's own onset", async () => {
    expect(await present("Cat 4y. Not sneezing, has nasal discharge.")).toContain("nasal discharge");
    expect(await present("Cat 4y. Not sneezing, has nasal discharge.")).not.toContain("sneezing");
    expect(await present("Dog 3y. No coughing, retching began on Friday.")).toContain("retching");
    expect(await present("Dog 3y. Denies vomiting, owners have seen her retching.")).toContain("retching");
    expect(await present("Dog 3y. Owners haven't noticed any coughing or retching.")).not.toContain(
      "retching",
    );
    expect(await present("Dog 3y. Neither retching nor gagging overnight.")).not.toContain("retching");
  });

  it("keeps a sign that goes on despite a resolution word", async () => {
    expect(await present("Dog 3y. The retching has not stopped.")).toContain("retching");
    expect(await present("Dog 3y. Itch not settled on oclacitinib.")).toContain("pruritus");
    expect(await present("Dog 3y. Not just coughing, also retching.")).toContain("coughing");
  });

  it("reads a purpose, another person's belief and a sentence set in the past as no present sign", async () => {
    expect(await present("Cow, unable to rise. Propped up on her brisket to stop her bloating.")).toEqual([
      "recumbency",
    ]);
    expect(await present("Poodle. The friend is convinced it is just an abscess.")).not.toContain("abscess");
    expect(
      await present("Dog. Six weeks ago he was seen after chewing a palm; he vomited plant material."),
    ).toEqual([]);
    expect(await present("Dog. Two weeks ago he started vomiting; still vomiting today.")).toEqual([
      "vomiting",
    ]);
  });

  it("reads a cage mate's sign, an owner written 'O' guessing and an earlier visit as no present sign", async () => {
    expect(await present("Rat 2y. Sneezing. Cagemate has a lump on flank.")).toEqual(["sneezing"]);
    expect(await present("Horse. Coughing. Stable mate has nasal discharge.")).toEqual(["coughing"]);
    expect(await present("Ferret 5y. Alopecia. O worried he's losing weight.")).toEqual(["alopecia"]);
    // A colon after the worry introduces what the owner saw.
    expect(await present("Cat. O worried: wobbles when he walks.")).toContain("ataxia");
    expect(
      await present(
        "Cat. He was seen about a week ago, very lame, with a small wound on one toe. Now stiff.",
      ),
    ).toEqual(["stiffness"]);
    expect(await present("Dog. He was seen 3 days ago, vomiting, and is still vomiting today.")).toEqual([
      "vomiting",
    ]);
  });

  it("does not read an unknown cause as a denial", async () => {
    expect(await present("Pony, losing weight for no obvious reason, and not sweating properly.")).toEqual([
      "weight loss",
      "anhidrosis",
    ]);
    expect(await present("Pony. Winter coat slow to shed out.")).toEqual(["delayed shedding of coat"]);
  });

  it("reads a sign the rest of its sentence resolves as past", async () => {
    expect(await present("Cat 4y. Had haematuria in spring which has since cleared.")).not.toContain(
      "haematuria",
    );
    expect(await present("Cat 4y. Was sneezing on Monday but now fine.")).not.toContain("sneezing");
    expect(await present("Dog 3y. Collapsed at the park, one episode, none since.")).not.toContain(
      "collapse",
    );
    expect(await present("Dog 3y. Treated for pruritus in 2020.")).not.toContain("pruritus");
    // An episode the animal recovered from today is still this visit's sign.
    expect(await present("Dog 3y. Collapsed this morning, recovered within minutes.")).toContain("collapse");
  });

  it("reads a person's or a relative's sign as not the patient's", async () => {
    expect(await present("Cat 4y. Owner's son has been sneezing.")).not.toContain("sneezing");
    expect(await present("Dog 3y. Family history: sire had seizures.")).not.toContain("seizures");
    expect(await present("Dog 3y. Owner has noticed him sneezing.")).toContain("sneezing");
    expect(await present("Dog 3y. The cat next door is coughing.")).not.toContain("coughing");
  });

  it("reads answers, instructions and expected effects as no finding", async () => {
    expect(await present("Dog 3y. Coughing? No.")).not.toContain("coughing");
    expect(await present("Dog 3y. Retching: N.")).not.toContain("retching");
    expect(await present("Dog 3y. Owner to report any lethargy.")).not.toContain("lethargy");
    expect(await present("Dog 3y. Some lethargy can be expected after the vaccine.")).not.toContain(
      "lethargy",
    );
  });

  it("keeps a post-positioned negator inside its own comma-delimited item", async () => {
    expect(await present("Dog 7y. Bilateral mydriasis, PLRs absent.")).toContain("mydriasis");
    expect(await present("Cat 9y. Lethargic, vomiting not seen.")).toEqual(
      expect.arrayContaining(["lethargy"]),
    );
    expect(await present("Cat 9y. Lethargic, vomiting not seen.")).not.toContain("vomiting");
    expect(await present("Dog 4y. Diarrhoea, resolved.")).not.toContain("diarrhoea");
    expect(await present("Dog 4y. No vomiting, diarrhoea present.")).toContain("diarrhoea");
    expect(await present("Dog 4y. No vomiting, diarrhoea present.")).not.toContain("vomiting");
  });

  it("reads a past-tense episode that a 'but' clause or an anaphoric next sentence ends as resolved", async () => {
    expect(await present("Dog 2y. Was coughing for a week but this has stopped.")).not.toContain("coughing");
    expect(await present("Cat 6y. Had diarrhoea after the kennels but it has cleared.")).not.toContain(
      "diarrhoea",
    );
    expect(await present("Dog 5y. Was vomiting but it came back again yesterday.")).toContain("vomiting");
    expect(await present("Dog 5y. Vomited twice, now settled.")).toContain("vomiting");
    expect(await present("Cat 3y. Earlier she was tachypnoeic; this resolved with oxygen.")).not.toContain(
      "tachypnoea",
    );
    expect(await present("Cat 3y. She was tachypnoeic. It has not resolved.")).toContain("tachypnoea");
  });

  it("reads 'no longer eating' as inappetence and 'no longer limping' as resolved", async () => {
    expect(await present("Dog 8y. No longer eating since Tuesday.")).toContain("inappetence");
    expect(await present("Dog 8y. No longer lame after the NSAIDs.")).not.toContain("lameness");
  });

  it("does not take the owner's reading, an insurance exclusion or another animal's relative clause as a sign", async () => {
    expect(await present("Dog 6y. Owner has been googling seizures.")).not.toContain("seizures");
    expect(await present("Dog 6y. Owner googled diabetes as he is drinking more.")).toContain("polydipsia");
    expect(await present("Cat 10y. Insurance exclusion for pruritus.")).not.toContain("pruritus");
    expect(await present("Dog 6y. Insured with a lameness exclusion.")).not.toContain("lameness");
    expect(await present("Dog 3y. Pruritic despite exclusion diet.")).toContain("pruritus");
    expect(await present("Cat 10y. Owner also has a cat which drinks a lot.")).not.toContain("polydipsia");
    expect(await present("Dog 6y. Lives with a cat that has diabetes and drinks a lot.")).not.toContain(
      "polydipsia",
    );
    expect(await present("Cat 10y. A 10 year old cat that has been drinking a lot.")).toContain("polydipsia");
  });
});
