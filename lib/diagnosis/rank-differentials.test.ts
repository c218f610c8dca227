// The differential ranker on the real catalogue: species filtering, absent signs, breed and
// signalment risk factors, evidence, normalised scores, input errors, and textbook presentations.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { animalTypes, breeds, conditionSigns, conditionSpecies, conditions, symptoms } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { loadKnowledgeBase } from "./knowledge-base";
import { rankDifferentials, type DifferentialsRequest } from "./rank-differentials";
import { differentialsInputSchema, differentialsOutputSchema } from "./schemas";

let handle: DatabaseHandle;
let db: Database;
let dog: number;
let cat: number;
let rabbit: number;
let horse: number;
const MALE = 1;
const FEMALE = 2;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  const types = await db.select({ id: animalTypes.id, key: animalTypes.key }).from(animalTypes);
  const typeId = (key: string) => types.find((t) => t.key === key)!.id;
  dog = typeId("dog");
  cat = typeId("cat");
  rabbit = typeId("rabbit");
  horse = typeId("horse");
});
afterAll(() => handle.close());

async function signIds(...names: string[]): Promise<number[]> {
  const rows = await db
    .select({ id: symptoms.id, name: symptoms.name })
    .from(symptoms)
    .where(inArray(symptoms.name, names));
  return names.map((name) => {
    const row = rows.find((r) => r.name === name);
    if (!row) throw new Error(`no sign ${name}`);
    return row.id;
  });
}

async function signId(name: string): Promise<number> {
  const [id] = await signIds(name);
  return id!;
}

async function conditionId(name: string, animalTypeId: number): Promise<number> {
  const [row] = await db
    .select({ id: conditions.id })
    .from(conditions)
    .innerJoin(conditionSpecies, eq(conditionSpecies.conditionId, conditions.id))
    .where(and(eq(conditions.name, name), eq(conditionSpecies.animalTypeId, animalTypeId)));
  if (!row) throw new Error(`no condition ${name}`);
  return row.id;
}

async function breedId(name: string, animalTypeId: number): Promise<number> {
  const [row] = await db
    .select({ id: breeds.id })
    .from(breeds)
    .where(and(eq(breeds.name, name), eq(breeds.animalTypeId, animalTypeId)));
  if (!row) throw new Error(`no breed ${name}`);
  return row.id;
}

const rankOf = (ranked: { name: string }[], name: string) => ranked.findIndex((d) => d.name === name) + 1;
const scoreOf = (ranked: { id: number; score: number }[], id: number) =>
  ranked.find((d) => d.id === id)?.score ?? 0;

describe("rankDifferentials", () => {
  it("ranks only the given species' conditions", async () => {
    const present = await signIds("vomiting", "diarrhoea", "lethargy");
    for (const animalTypeId of [dog, cat, rabbit]) {
      const ranked = await rankDifferentials(
        db,
        { animal_type_id: animalTypeId, present_symptom_ids: present },
        { limit: 5000 },
      );
      expect(ranked.length).toBeGreaterThan(0);
      const allowed = await db
        .select({ id: conditionSpecies.conditionId })
        .from(conditionSpecies)
        .where(eq(conditionSpecies.animalTypeId, animalTypeId));
      const allowedIds = new Set(allowed.map((r) => r.id));
      expect(ranked.every((d) => allowedIds.has(d.id))).toBe(true);
      expect(ranked.length).toBe(allowedIds.size);
    }
  });

  it("returns normalised posterior scores, best first, limited", async () => {
    const present = await signIds("coughing", "nasal discharge", "pyrexia");
    const all = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: present },
      { limit: 1000 },
    );
    const total = all.reduce((sum, d) => sum + d.score, 0);
    expect(total).toBeCloseTo(1, 6);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    expect(all.every((d) => d.score >= 0 && d.score <= 1)).toBe(true);

    const top = await rankDifferentials(db, { animal_type_id: dog, present_symptom_ids: present });
    expect(top).toHaveLength(20);
    expect(top.map((d) => d.id)).toEqual(all.slice(0, 20).map((d) => d.id));
    expect(top.reduce((sum, d) => sum + d.score, 0)).toBeLessThanOrEqual(1 + 1e-9);
    expect(
      await rankDifferentials(db, { animal_type_id: dog, present_symptom_ids: present }, { limit: 5 }),
    ).toHaveLength(5);
    expect(() => differentialsOutputSchema.parse({ data: top })).not.toThrow();
  });

  it("with no findings, ranks by prevalence and signalment alone", async () => {
    const ranked = await rankDifferentials(
      db,
      { animal_type_id: cat, present_symptom_ids: [] },
      { limit: 1000 },
    );
    expect(ranked.reduce((sum, d) => sum + d.score, 0)).toBeCloseTo(1, 6);
    expect(ranked[0]!.evidence).toEqual({ supporting: [], findings: [], against: [] });
  });

  it("lowers a condition that usually shows a sign found absent", async () => {
    const target = await conditionId("infectious tracheobronchitis", dog);
    const coughing = await signId("coughing");
    const present = await signIds("nasal discharge", "pyrexia", "lethargy");
    const base: DifferentialsRequest = { animal_type_id: dog, present_symptom_ids: present };
    const without = await rankDifferentials(db, base, { limit: 1000 });
    const withAbsent = await rankDifferentials(
      db,
      { ...base, absent_symptom_ids: [coughing] },
      { limit: 1000 },
    );
    expect(scoreOf(withAbsent, target)).toBeLessThan(scoreOf(without, target) / 3);
    const differential = withAbsent.find((d) => d.id === target)!;
    expect(differential.evidence.against.map((e) => e.id)).toContain(coughing);
  });

  it("costs a condition for an unexplained sign without ruling it out", async () => {
    const target = await conditionId("canine parvovirus enteritis", dog);
    const typical = await signIds("vomiting", "haemorrhagic diarrhoea", "lethargy", "inappetence");
    const unexplained = await signId("pinnal-pedal reflex");
    const base = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: typical },
      { limit: 1000 },
    );
    const noisy = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: [...typical, unexplained] },
      { limit: 1000 },
    );
    expect(scoreOf(noisy, target)).toBeGreaterThan(0);
    expect(rankOf(noisy, "canine parvovirus enteritis")).toBeLessThanOrEqual(10);
    expect(noisy.find((d) => d.id === target)!.evidence.against.map((e) => e.id)).toContain(unexplained);
    expect(scoreOf(noisy, target)).toBeLessThanOrEqual(scoreOf(base, target));
  });

  it("raises a condition for a predisposed breed, partly for a cross, not for a mixed breed", async () => {
    const target = await conditionId("intervertebral disc disease", dog);
    const present = await signIds("spinal pain", "ataxia", "paresis", "reluctance to jump");
    const signalment = { animal_type_id: dog, age_years: 5, present_symptom_ids: present };
    const score = async (breed: number | null) =>
      scoreOf(await rankDifferentials(db, { ...signalment, breed_id: breed }, { limit: 1000 }), target);
    const kb = await loadKnowledgeBase(db);
    const dachshund = await breedId("Dachshund", dog);
    const mixed = [...kb.breeds.values()].find(
      (b) => b.animalTypeId === dog && b.mixed && b.crossOfBreedId === null,
    )!;
    const cross = [...kb.breeds.values()].find((b) => b.crossOfBreedId === dachshund);
    const unknown = await score(null);
    const predisposed = await score(dachshund);
    // Compare posterior odds: a likely condition's probability saturates near 1.
    const odds = (p: number) => p / (1 - p);
    expect(odds(predisposed)).toBeGreaterThan(odds(unknown) * 1.5);
    expect(await score(mixed.id)).toBeCloseTo(unknown, 10);
    expect(await score(await breedId("Border Collie", dog))).toBeLessThan(unknown);
    expect(cross).toBeDefined();
    const crossScore = await score(cross!.id);
    expect(odds(crossScore)).toBeGreaterThan(odds(unknown));
    expect(crossScore).toBeLessThan(predisposed);
  });

  it("applies sex, neuter status and age as soft multipliers, not filters", async () => {
    const present = await signIds("vulval discharge", "polydipsia", "polyuria", "lethargy", "inappetence");
    const pyometra = await conditionId("pyometra", dog);
    const entireBitch = await rankDifferentials(db, {
      animal_type_id: dog,
      age_years: 8,
      gender_id: FEMALE,
      neutered: false,
      present_symptom_ids: present,
    });
    expect(rankOf(entireBitch, "pyometra")).toBe(1);
    const spayed = await rankDifferentials(
      db,
      { animal_type_id: dog, age_years: 8, gender_id: FEMALE, neutered: true, present_symptom_ids: present },
      { limit: 1000 },
    );
    expect(scoreOf(spayed, pyometra)).toBeLessThan(scoreOf(entireBitch, pyometra));
    expect(scoreOf(spayed, pyometra)).toBeGreaterThan(0);

    const parvo = await conditionId("canine parvovirus enteritis", dog);
    const gi = await signIds("vomiting", "haemorrhagic diarrhoea", "lethargy");
    const puppy = await rankDifferentials(
      db,
      { animal_type_id: dog, age_years: 0.3, present_symptom_ids: gi },
      { limit: 1000 },
    );
    const senior = await rankDifferentials(
      db,
      { animal_type_id: dog, age_years: 12, present_symptom_ids: gi },
      { limit: 1000 },
    );
    expect(scoreOf(senior, parvo)).toBeLessThan(scoreOf(puppy, parvo));
    expect(scoreOf(senior, parvo)).toBeGreaterThan(0);

    // The wrong sex for the organ: far less likely, still ranked.
    const pupd = await signIds("polydipsia", "polyuria", "lethargy", "inappetence", "vomiting");
    const asSex = async (gender_id: number) =>
      scoreOf(
        await rankDifferentials(
          db,
          { animal_type_id: dog, age_years: 8, gender_id, neutered: false, present_symptom_ids: pupd },
          { limit: 1000 },
        ),
        pyometra,
      );
    const [female, male] = [await asSex(FEMALE), await asSex(MALE)];
    expect(male).toBeGreaterThan(0);
    // Scores are a softmax at temperature 1.25 (calibration), so a 0.02 likelihood ratio is ×0.04.
    expect(male).toBeLessThan(female / 5);
  });

  it("lists present signs the condition explains, most characteristic first", async () => {
    const present = await signIds("polyuria", "polydipsia", "polyphagia", "weight loss");
    const ranked = await rankDifferentials(db, {
      animal_type_id: cat,
      age_years: 13,
      present_symptom_ids: present,
    });
    const kb = await loadKnowledgeBase(db);
    for (const differential of ranked.slice(0, 5)) {
      const condition = kb.conditionById.get(differential.id)!;
      const supporting = differential.evidence.supporting;
      expect(supporting.length).toBeGreaterThan(0);
      for (const sign of supporting) expect(present).toContain(sign.id);
      const listed = supporting
        .map((s) => condition.signs.get(s.id))
        .filter((w): w is number => w !== undefined);
      for (let i = 1; i < listed.length; i++) expect(listed[i - 1]).toBeGreaterThanOrEqual(listed[i]!);
      expect(supporting[0]!.symptom_name).toEqual(expect.any(String));
    }
    const weights = await db
      .select({ symptomId: conditionSigns.symptomId })
      .from(conditionSigns)
      .where(eq(conditionSigns.conditionId, ranked[0]!.id));
    const listedIds = new Set(weights.map((w) => w.symptomId));
    expect(ranked[0]!.evidence.supporting.every((s) => listedIds.has(s.id))).toBe(true);
  });

  it("treats a specific sign as a form of the general one", async () => {
    // "projectile vomiting" is a kind of "vomiting": conditions listing vomiting partly explain it.
    const target = await conditionId("acute gastroenteritis", dog);
    const projectile = await signId("projectile vomiting");
    const ranked = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: [projectile] },
      { limit: 1000 },
    );
    expect(ranked.find((d) => d.id === target)!.evidence.supporting.map((s) => s.id)).toContain(projectile);
  });

  it("does not count a general sign again beside its specific form (a case lists both)", async () => {
    const [productive, coughing, fever] = await signIds("productive cough", "coughing", "pyrexia");
    const alone = await rankDifferentials(db, {
      animal_type_id: dog,
      present_symptom_ids: [productive!, fever!],
    });
    const both = await rankDifferentials(db, {
      animal_type_id: dog,
      present_symptom_ids: [productive!, coughing!, fever!],
    });
    expect(both.map((d) => [d.name, d.score])).toEqual(alone.map((d) => [d.name, d.score]));
  });

  describe("textbook presentations rank their condition in the top 3", () => {
    const cases: {
      title: string;
      species: () => number;
      findings: Partial<DifferentialsRequest>;
      present: string[];
      absent?: string[];
      expected: string;
    }[] = [
      {
        title: "dog: muffled heart sounds, jugular distension, collapse",
        species: () => dog,
        findings: { age_years: 9, gender_id: MALE, neutered: true },
        present: [
          "muffled heart sounds",
          "jugular distension",
          "weak pulses",
          "collapse",
          "tachycardia",
          "abdominal distension",
        ],
        absent: ["heart murmur"],
        expected: "pericardial effusion",
      },
      {
        title: "dog: acute vestibular signs in an old dog",
        species: () => dog,
        findings: { age_years: 13 },
        present: ["head tilt", "nystagmus", "ataxia", "vestibular rolling"],
        absent: ["facial paralysis", "aural discharge"],
        expected: "idiopathic vestibular disease",
      },
      {
        title: "cat: circular alopecia with scale in a kitten",
        species: () => cat,
        findings: { age_years: 0.5 },
        present: ["alopecia", "scaling", "crusting", "ringworm-like lesions"],
        absent: ["pruritus"],
        expected: "dermatophytosis",
      },
      {
        title: "rabbit: swollen eyelids and genitals with fever",
        species: () => rabbit,
        findings: { age_years: 1 },
        present: [
          "periorbital swelling",
          "purulent ocular discharge",
          "pyrexia",
          "lethargy",
          "vulval swelling",
        ],
        expected: "myxomatosis",
      },
      {
        title: "horse: reluctant to move with bounding digital pulses",
        species: () => horse,
        findings: { age_years: 15 },
        present: ["laminitic stance", "increased digital pulses", "heat in foot", "reluctance to move"],
        expected: "laminitis",
      },
    ];
    for (const c of cases) {
      it(c.title, async () => {
        const ranked = await rankDifferentials(db, {
          animal_type_id: c.species(),
          ...c.findings,
          present_symptom_ids: await signIds(...c.present),
          absent_symptom_ids: c.absent ? await signIds(...c.absent) : [],
        });
        const rank = rankOf(ranked, c.expected);
        expect(
          rank,
          ranked
            .slice(0, 5)
            .map((d) => d.name)
            .join(", "),
        ).toBeGreaterThan(0);
        expect(rank).toBeLessThanOrEqual(3);
      });
    }
  });

  it("keeps common things common when the note says little", async () => {
    // A dog that vomited: the ordinary causes lead, the rare and severe ones follow.
    const ranked = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: await signIds("vomiting") },
      { limit: 200 },
    );
    const common = Math.min(rankOf(ranked, "acute gastroenteritis"), rankOf(ranked, "dietary indiscretion"));
    expect(common).toBeGreaterThan(0);
    expect(common).toBeLessThanOrEqual(3);
    for (const severe of ["septic peritonitis", "hypoadrenocorticism"]) {
      const rank = rankOf(ranked, severe);
      expect(rank === 0 || rank > common).toBe(true);
    }
  });

  it("raises the poisoning by the agent the note names and lowers the others", async () => {
    const input = {
      animal_type_id: dog,
      present_symptom_ids: await signIds("collapse", "pale mucous membranes", "anaemia"),
    };
    const plain = await rankDifferentials(db, { ...input, context: { exposure: true } }, { limit: 300 });
    const named = await rankDifferentials(
      db,
      { ...input, context: { exposure: true, agents: ["rodenticide"] } },
      { limit: 300 },
    );
    const rodenticide = await conditionId("anticoagulant rodenticide toxicosis", dog);
    const onion = await conditionId("onion and garlic toxicosis", dog);
    expect(scoreOf(named, rodenticide)).toBeGreaterThan(scoreOf(plain, rodenticide));
    expect(scoreOf(named, onion)).toBeLessThan(scoreOf(plain, onion));
    expect(rankOf(named, "anticoagulant rodenticide toxicosis")).toBe(1);
  });

  it("counts a structural finding at a site for a condition known by another finding there", async () => {
    // Thickened intestines on ultrasound: a condition known for an intestinal or abdominal mass is
    // about the right organ, and the finding supports it.
    const ranked = await rankDifferentials(
      db,
      { animal_type_id: cat, present_symptom_ids: await signIds("vomiting", "thickened intestines") },
      { limit: 200 },
    );
    const intussusception = ranked.find((d) => d.name === "intussusception")!;
    expect(intussusception.evidence.supporting.map((s) => s.symptom_name)).toContain("thickened intestines");
    // A condition with nothing at that site does not get it.
    const cystitis = ranked.find((d) => d.name === "feline idiopathic cystitis");
    expect(cystitis?.evidence.supporting.map((s) => s.symptom_name) ?? []).not.toContain(
      "thickened intestines",
    );
  });

  it("explains a sign by its ordinary cause: a febrile condition accounts for tachycardia", async () => {
    const ranked = await rankDifferentials(
      db,
      { animal_type_id: dog, present_symptom_ids: await signIds("pyrexia", "tachycardia") },
      { limit: 400 },
    );
    const supporting = (name: string) =>
      ranked.find((d) => d.name === name)?.evidence.supporting.map((s) => s.symptom_name) ?? [];
    // Pyometra lists fever, not tachycardia; osteoarthritis lists neither.
    expect(supporting("pyometra")).toEqual(expect.arrayContaining(["pyrexia", "tachycardia"]));
    expect(supporting("osteoarthritis")).not.toContain("tachycardia");
  });

  it("partly explains a sign by one the catalogue's conditions usually list with it", async () => {
    // Straining to defecate (tenesmus) goes with painful defecation (dyschezia) in most conditions
    // that list either: a dog condition listing only dyschezia gains from a note of tenesmus,
    // relative to the same ranking without related signs.
    const kb = await loadKnowledgeBase(db);
    const [tenesmus, dyschezia] = await signIds("tenesmus", "dyschezia");
    const condition = [...kb.conditionById.values()].find(
      (c) => c.animalTypeIds.includes(dog) && c.signs.has(dyschezia!) && !c.signs.has(tenesmus!),
    )!;
    expect(condition).toBeDefined();
    const request = { animal_type_id: dog, present_symptom_ids: [tenesmus!] };
    const rank = async (tuning: { relatedShare?: number }) =>
      (await rankDifferentials(db, request, { limit: 3000, tuning })).findIndex((d) => d.id === condition.id);
    expect(await rank({})).toBeLessThan(await rank({ relatedShare: 0 }));
  });

  it("reads the note's words against each condition's text, leaving out the clauses it denies", async () => {
    // The same signs; the note names the organ. A splenic condition rises when the spleen is the
    // finding, and not when the note says the spleen is normal.
    const base = {
      animal_type_id: dog,
      present_symptom_ids: await signIds("collapse", "pale mucous membranes"),
    };
    const rankWith = async (notes: string | null) =>
      rankOf(await rankDifferentials(db, { ...base, notes }, { limit: 400 }), "splenic haematoma");
    const without = await rankWith(null);
    const named = await rankWith(
      "Collapsed on a walk, pale gums. Ultrasound: a large splenic mass with free fluid.",
    );
    const denied = await rankWith(
      "Collapsed on a walk, pale gums. Ultrasound: no splenic mass, no free fluid.",
    );
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThan(without);
    expect(named).toBeLessThan(denied);
  });

  it("refuses an unknown animal type, symptom or breed", async () => {
    const vomiting = await signId("vomiting");
    const attempt = (input: DifferentialsRequest) => rankDifferentials(db, input);
    await expect(attempt({ animal_type_id: 99_999, present_symptom_ids: [vomiting] })).rejects.toMatchObject({
      kind: "validation",
      details: { errors: [{ path: "animal_type_id" }] },
    });
    const error = await attempt({
      animal_type_id: dog,
      present_symptom_ids: [vomiting, 987_654],
      absent_symptom_ids: [987_655],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe("validation");
    expect((error as AppError).message).toContain("987654");
    expect((error as AppError).message).toContain("987655");
    expect((error as AppError).details.errors?.map((e) => e.path)).toEqual([
      "present_symptom_ids.1",
      "absent_symptom_ids.0",
    ]);
    const catBreed = await breedId("Siamese", cat);
    await expect(
      attempt({ animal_type_id: dog, breed_id: catBreed, present_symptom_ids: [vomiting] }),
    ).rejects.toMatchObject({
      kind: "validation",
    });
  });

  it("ranks in well under 20 ms once the knowledge base is loaded", async () => {
    await loadKnowledgeBase(db);
    const present = await signIds(
      "vomiting",
      "diarrhoea",
      "lethargy",
      "inappetence",
      "pyrexia",
      "dehydration",
    );
    const absent = await signIds("coughing", "pruritus");
    const input = {
      animal_type_id: dog,
      age_years: 3,
      gender_id: MALE,
      neutered: false,
      present_symptom_ids: present,
      absent_symptom_ids: absent,
    };
    await rankDifferentials(db, input);
    const started = performance.now();
    for (let i = 0; i < 20; i++) await rankDifferentials(db, input);
    expect((performance.now() - started) / 20).toBeLessThan(20);
  });
});

describe("differentialsInputSchema", () => {
  it("accepts a full request and rejects unknown fields, bad ids, long lists and ages", () => {
    const valid = {
      animal_type_id: 1,
      breed_id: 200406,
      age_years: 4.5,
      gender_id: 2,
      neutered: true,
      present_symptom_ids: [1, 2],
      absent_symptom_ids: [3],
    };
    expect(differentialsInputSchema.parse(valid)).toEqual(valid);
    expect(differentialsInputSchema.safeParse({ animal_type_id: 1, present_symptom_ids: [] }).success).toBe(
      true,
    );
    expect(differentialsInputSchema.safeParse({ ...valid, colour: "red" }).success).toBe(false);
    expect(differentialsInputSchema.safeParse({ ...valid, animal_type_id: 0 }).success).toBe(false);
    expect(differentialsInputSchema.safeParse({ ...valid, present_symptom_ids: [1.5] }).success).toBe(false);
    expect(
      differentialsInputSchema.safeParse({
        ...valid,
        present_symptom_ids: Array.from({ length: 101 }, (_, i) => i + 1),
      }).success,
    ).toBe(false);
    expect(differentialsInputSchema.safeParse({ ...valid, age_years: 101 }).success).toBe(false);
    expect(differentialsInputSchema.safeParse({ ...valid, age_years: -1 }).success).toBe(false);
  });
});
