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
});
