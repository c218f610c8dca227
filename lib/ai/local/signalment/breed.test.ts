// Breeds as notes write them: mixed breeds, crosses of any breed with practice aliases, and
// animal-shaped objects that name no species.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import { localExtractor } from "../local-extractor";

let handle: DatabaseHandle;
let lexicon: Lexicon;

beforeAll(async () => {
  handle = await openTestDatabase();
  lexicon = await loadLexicon(handle.db);
});
afterAll(() => handle.close());

async function patient(notes: string) {
  const { patient } = await localExtractor.extract(notes, lexicon);
  const species =
    patient.animalTypeId === null ? null : lexicon.animalTypeById.get(patient.animalTypeId)!.key;
  return { species, breed: patient.breed };
}

describe("breed", () => {
  it("records a mixed breed as the species' Mixed Breed, and a named breed ahead of it", async () => {
    expect(await patient("12-week-old entire female mixed-breed puppy, vomiting")).toEqual({
      species: "dog",
      breed: "Mixed Breed",
    });
    expect(await patient("moggy 3y FN, sneezing")).toEqual({ species: "cat", breed: "Mixed Breed" });
    expect((await patient("Collie crossbreed 4y, lame")).breed).toBe("Collie cross");
  });

  it("records 'X cross', 'X mix' and 'X x' as that breed's cross, for breeds without an authored one", async () => {
    expect(await patient("Casey, 4yo MN Australian Shepherd cross, coughing")).toEqual({
      species: "dog",
      breed: "Australian Shepherd cross",
    });
    expect((await patient("Aussie mix 3y FS")).breed).toBe("Australian Shepherd cross");
    expect((await patient("2yo female pit bull cross, vomiting")).breed).toBe(
      "American Pit Bull Terrier cross",
    );
    expect((await patient("Lab x 5y MN")).breed).toBe("Labrador Retriever cross");
    expect((await patient("Australian Shepherd 4y MN")).breed).toBe("Australian Shepherd");
    // Farm animals and horses are crossed as often: "Cheviot cross ewe", "Morgan cross gelding".
    expect(await patient("Cheviot cross ewe, 3y, lame")).toEqual({
      species: "sheep",
      breed: "Cheviot cross",
    });
    expect((await patient("Morgan cross gelding, 12y, colic")).breed).toBe("Morgan cross");
    expect((await patient("Morgan gelding, 12y, colic")).breed).toBe("Morgan");
  });

  it("reads a breed before an age in shorthand as the breed, and 'Lab results' as the laboratory", async () => {
    expect(await patient("Labrador 5y MN, vomiting")).toEqual({
      species: "dog",
      breed: "Labrador Retriever",
    });
    expect(await patient("Lab 3yo FS, lame")).toEqual({ species: "dog", breed: "Labrador Retriever" });
    expect(
      (await patient("Abby is an 8-year-old mixed-breed bitch. Lab results: blood glucose 515 mg/dL")).breed,
    ).toBe("Mixed Breed");
    expect((await patient("Lilly, 9 y/o spayed female crossbreed, 25 kg.")).breed).toBe("Crossbreed");
  });

  it("reads a doe as a rabbit unless a goat is named, and 'the other cats' as a hint of the species", async () => {
    expect((await patient("Rosie, mature adult doe, booked in for a routine spay")).species).toBe("rabbit");
    expect((await patient("Kid goat, doe, 3 months")).species).toBe("goat");
    // A shared sex word is settled by husbandry only one of its species has.
    expect((await patient("Dairy doe, in milk. Udder: one half cold and discoloured.")).species).toBe("goat");
    expect((await patient("Buck, 3y, lives in a hutch, not eating his hay")).species).toBe("rabbit");
    expect((await patient("Luna 4yo FS. Sore eye since playing with the other cats.")).species).toBe("cat");
    expect((await patient("Max the cat, 5y MN, fighting with the other dog")).species).toBe("cat");
    // A poodle cross named by its portmanteau, a cat by its voice.
    expect((await patient("Martini, 15yo FS Bernedoodle, 18.7 kg. PU/PD.")).species).toBe("dog");
    expect((await patient("Drinks a lot and keeps meowing as if starving.")).species).toBe("cat");
    expect((await patient("Pip, 2y F. Ate some noodles, vomited twice.")).species).toBeNull();
    expect((await patient("Ginge, M. Bleeding from the mouth. FIV/FeLV neg.")).species).toBe("cat");
  });

  it("lets a breed named beside a weak species word outvote a lower-case word that is also a breed", async () => {
    expect(
      await patient("4mo Lab pup. Came home covered in blue paint, known to have eaten paintballs."),
    ).toEqual({
      species: "dog",
      breed: "Labrador Retriever",
    });
  });

  it("does not take an animal-shaped object for the patient's species", async () => {
    expect(
      await patient("This one-year-old Labrador ate a box of chocolate, including a dark chocolate rabbit."),
    ).toEqual({ species: "dog", breed: "Labrador Retriever" });
  });

  it("does not take a word that only shares a species word's stem, food, teeth or counted housemates for the patient", async () => {
    expect(await patient("Chihuahua, F entire. O declined rads/bloods at this stage.")).toEqual({
      species: "dog",
      breed: "Chihuahua",
    });
    expect(
      await patient("Harvey, 8yo M Cavoodle. Vomited; had extra cooked chicken over the weekend."),
    ).toEqual({
      species: "dog",
      breed: "Cavapoo",
    });
    expect(await patient("Dilbert, Persian, hit by a car. Jaw unstable just behind the canines.")).toEqual({
      species: "cat",
      breed: "Persian",
    });
    expect(
      await patient("3yo MN Siamese, 5 kg, indoor only. 2 dogs in household. Straining to urinate."),
    ).toEqual({
      species: "cat",
      breed: "Siamese",
    });
    expect(await patient("Bramble, 19yo cob mare, ~600 kg. Pot-bellied, patchy sweating.")).toEqual({
      species: "horse",
      breed: "Cob",
    });
    expect((await patient("Rosie, 8 yr FS Golden Retriever. Flank alopecia, rat tail.")).species).toBe("dog");
    // Counted animals still name the species when nothing else does: a herd note.
    expect((await patient("Herd of 40 cows, 3 cows with mastitis this week.")).species).toBe("cattle");
  });

  it("takes a practice alias for the breed vets mean, over an ontology breed of that name", async () => {
    expect((await patient("Lola, 3yo FS Basset, 24 kg.")).breed).toBe("Basset Hound");
    expect((await patient("Bonnie, 2y FS springer spaniel.")).breed).toBe("English Springer Spaniel");
  });

  it("records a pet tortoise's, snake's or hamster's kind as its breed, and the species from it", async () => {
    expect(await patient("Sulcata, 12yo, not eating since hibernation.")).toEqual({
      species: "tortoise",
      breed: "Sulcata",
    });
    expect(await patient("Royal python F 2y, stomatitis.")).toEqual({
      species: "snake",
      breed: "Ball python",
    });
    expect(await patient("Roborovski hamster, 1y, lump on flank.")).toEqual({
      species: "hamster",
      breed: "Roborovski hamster",
    });
  });

  it("does not read ordinary words of a note that some breed also uses as its name", async () => {
    expect(await patient("Field call. 4yo mare, colic, no dung passed.")).toEqual({
      species: "horse",
      breed: null,
    });
    expect(await patient("Milking cow staggered in from the field. Lung fields harsh.")).toEqual({
      species: "cattle",
      breed: null,
    });
    expect(await patient("5yo MN. Lame on both carpi. MRI booked. Making progress.")).toEqual({
      species: null,
      breed: null,
    });
  });

  it("takes the species from a breed in the signalment over an animal the history names", async () => {
    expect(
      await patient("Pumpkin, 3y MN DSH, 5.0kg. O put a dog flea spot-on on him last night. Now twitching."),
    ).toEqual({ species: "cat", breed: "Domestic Shorthair" });
    expect(await patient("Goose-honk cough when excited x2 months. Bonnie, 12yo FN Yorkie.")).toEqual({
      species: "dog",
      breed: "Yorkshire Terrier",
    });
  });

  it("reads the last of two animal words as the animal, and capitals as an abbreviation", async () => {
    expect((await patient("Oriental rat snake, F, 8y. Eating less.")).species).toBe("snake");
    expect((await patient("Puff, an 8-month-old female Buff Orpington duck, limping.")).species).toBe("duck");
    expect((await patient("'Eve', 6mo bottle-fed alpaca cria. Ear droop.")).species).toBe("alpaca");
    expect((await patient("3yo F entire GP, 920 g. Hair loss.")).species).toBe("guinea_pig");
    // A sex word after the species names the sex: still a llama, still a goat.
    expect((await patient("Llama gelding, 9y, lameness.")).species).toBe("llama");
    expect((await patient("Nubian doe, 3y, bottle jaw.")).species).toBe("goat");
  });

  it("reads short sex words as written, not by stem", async () => {
    // "second-stage labour" has no stag (a male bird) in it.
    expect(
      (await patient("A jenny foaling. She has been in second-stage labour for seven hours.")).species,
    ).toBe("donkey");
  });
});
