// The catalogue: minimum content the product relies on, sane links, idempotent loading.
import { count, countDistinct, eq, sql } from "drizzle-orm";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { rowsOf } from "@/db/rows";
import {
  animalTypes,
  breeds,
  conditionSigns,
  conditionSpecies,
  conditionTerms,
  conditions,
  symptomTerms,
  symptoms,
} from "@/db/schema";
import { loadCatalogue, readCatalogueData } from "./load-catalogue";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

async function total(table: Parameters<ReturnType<DatabaseHandle["db"]["select"]>["from"]>[0]) {
  const [row] = await handle.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

describe("catalogue content", () => {
  it("meets the minimum counts", async () => {
    expect(await total(animalTypes)).toBeGreaterThanOrEqual(18);
    expect(await total(symptoms)).toBeGreaterThanOrEqual(700);
    expect(await total(conditions)).toBeGreaterThanOrEqual(2500);
    const synonymsPerSign = (await total(symptomTerms)) / (await total(symptoms)) - 1;
    expect(synonymsPerSign).toBeGreaterThanOrEqual(3);
    const perSpecies = await handle.db
      .select({ key: animalTypes.key, n: countDistinct(conditionSpecies.conditionId) })
      .from(conditionSpecies)
      .innerJoin(animalTypes, eq(animalTypes.id, conditionSpecies.animalTypeId))
      .groupBy(animalTypes.key);
    const n = Object.fromEntries(perSpecies.map((row) => [row.key, row.n]));
    expect(n.dog).toBeGreaterThanOrEqual(700);
    expect(n.cat).toBeGreaterThanOrEqual(450);
    expect(n.rabbit).toBeGreaterThanOrEqual(120);
    expect(n.horse).toBeGreaterThanOrEqual(300);
    // Every species has a list of its own, "other" included.
    for (const key of Object.keys(n)) expect(n[key]).toBeGreaterThanOrEqual(25);
    expect(Object.keys(n)).toHaveLength(29);
  });

  it("gives every sign a category and every condition weighted signs, a description and a source", async () => {
    const orphanConditions = await handle.db
      .select({ id: conditions.id })
      .from(conditions)
      .where(
        sql`not exists (select 1 from ${conditionSigns} where ${conditionSigns.conditionId} = ${conditions.id})`,
      );
    expect(orphanConditions).toEqual([]);
    const [weights] = await handle.db
      .select({
        min: sql<number>`min(${conditionSigns.weight})`,
        max: sql<number>`max(${conditionSigns.weight})`,
      })
      .from(conditionSigns);
    expect(Number(weights?.min)).toBeGreaterThan(0);
    expect(Number(weights?.max)).toBeLessThan(1);
    const [missing] = await handle.db
      .select({ n: count() })
      .from(conditions)
      .where(sql`length(${conditions.source}) < 10 or length(${conditions.description}) < 20`);
    expect(missing?.n).toBe(0);
  });

  it("has breeds for the common species including mixed entries", async () => {
    const [dogs] = await handle.db.select({ n: count() }).from(breeds).where(eq(breeds.animalTypeId, 1));
    expect(dogs?.n).toBeGreaterThan(300);
    const [mixed] = await handle.db.select({ n: count() }).from(breeds).where(eq(breeds.mixed, true));
    expect(mixed?.n).toBeGreaterThan(20);
  });
});

describe("spelling variants", () => {
  it("loads the generated British/American spellings as condition and sign terms", async () => {
    const { generatedSpellings } = readCatalogueData();
    expect(generatedSpellings.conditions.length).toBeGreaterThan(500);
    expect(generatedSpellings.signs.length).toBeGreaterThan(100);
    const split = (line: string) => {
      const at = line.indexOf(":");
      return {
        id: Number(line.slice(0, at)),
        term: line
          .slice(at + 1)
          .trim()
          .toLowerCase(),
      };
    };
    for (const line of generatedSpellings.conditions.slice(0, 40)) {
      const { id, term } = split(line);
      const rows = await handle.db
        .select({ id: conditionTerms.conditionId })
        .from(conditionTerms)
        .where(sql`${conditionTerms.conditionId} = ${id} and ${conditionTerms.term} = ${term}`);
      expect(rows, line).toHaveLength(1);
    }
    for (const line of generatedSpellings.signs.slice(0, 20)) {
      const { id, term } = split(line);
      const rows = await handle.db
        .select({ id: symptomTerms.symptomId })
        .from(symptomTerms)
        .where(sql`${symptomTerms.symptomId} = ${id} and ${symptomTerms.term} = ${term}`);
      expect(rows, line).toHaveLength(1);
    }
  });
});

describe("learned case links", () => {
  const shipped = path.join(process.cwd(), "db", "seed", "data");
  const linksOf = (data: ReturnType<typeof readCatalogueData>, id: number) =>
    data.conditions.find((c) => c.id === id)!.signs;

  it("adds each learned link to its condition, and only when asked", () => {
    const learned = (
      JSON.parse(readFileSync(path.join(shipped, "case-links.json"), "utf8")) as {
        links: { condition_id: number; sign: string; weight: number }[];
      }
    ).links;
    expect(learned.length).toBeGreaterThan(0);
    const link = learned[0]!;
    expect(linksOf(readCatalogueData(), link.condition_id)).toContainEqual({
      sign: link.sign,
      weight: link.weight,
    });
    expect(linksOf(readCatalogueData(undefined, { caseLinks: false }), link.condition_id)).not.toContainEqual(
      expect.objectContaining({ sign: link.sign }),
    );
  });

  it("keeps an authored link's weight over a learned one and refuses an unknown condition", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "vetdx-links-"));
    try {
      cpSync(shipped, directory, { recursive: true });
      const authored = readCatalogueData(directory, { caseLinks: false }).conditions[0]!;
      const listed = authored.signs[0]!;
      const write = (links: object[]) =>
        writeFileSync(path.join(directory, "case-links.json"), JSON.stringify({ links }));
      write([
        {
          condition_id: authored.id,
          condition: authored.name,
          sign: listed.sign,
          weight: 0.01,
          cases: ["x"],
        },
      ]);
      expect(linksOf(readCatalogueData(directory), authored.id)).toEqual(authored.signs);
      write([{ condition_id: 1, condition: "none", sign: listed.sign, weight: 0.5, cases: ["x"] }]);
      expect(() => readCatalogueData(directory)).toThrow(/unknown condition 1/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe("loadCatalogue", () => {
  it("leaves every foreign key of the catalogue tables in place and validated after a fresh load", async () => {
    // A fresh load drops these and adds them back once the rows are in (deferForeignKeysOnFreshLoad).
    const keys = rowsOf<{ name: string; validated: boolean }>(
      await handle.db.execute(sql`
        select k.conname as "name", k.convalidated as "validated"
        from pg_constraint k join pg_class c on c.oid = k.conrelid
        where k.contype = 'f' and c.relname in ('gender_terms', 'breeds', 'breed_terms', 'symptoms',
          'symptom_terms', 'conditions', 'condition_terms', 'condition_species', 'condition_signs')
        order by k.conname`),
    );
    expect(keys).toEqual(
      [
        "breed_terms_breed_id_breeds_id_fk",
        "breeds_animal_type_id_animal_types_id_fk",
        "condition_signs_condition_id_conditions_id_fk",
        "condition_signs_symptom_id_symptoms_id_fk",
        "condition_species_animal_type_id_animal_types_id_fk",
        "condition_species_condition_id_conditions_id_fk",
        "condition_terms_condition_id_conditions_id_fk",
        "gender_terms_animal_type_id_animal_types_id_fk",
        "gender_terms_gender_id_genders_id_fk",
        "symptom_terms_symptom_id_symptoms_id_fk",
        "symptoms_category_id_symptom_categories_id_fk",
      ].map((name) => ({ name, validated: true })),
    );
    await expect(
      handle.db.execute(
        sql`insert into condition_signs (condition_id, symptom_id, weight) values (-1, -1, 0.5)`,
      ),
    ).rejects.toThrow();
  });

  it("does nothing when the data is unchanged", async () => {
    const result = await loadCatalogue(handle.db);
    expect(result.loaded).toBe(false);
  });

  it("reloads changed data without duplicating rows", async () => {
    const before = {
      symptoms: await total(symptoms),
      terms: await total(symptomTerms),
      links: await total(conditionSigns),
    };
    const result = await loadCatalogue(handle.db, { ...readCatalogueData(), hash: "changed" });
    expect(result.loaded).toBe(true);
    expect({
      symptoms: await total(symptoms),
      terms: await total(symptomTerms),
      links: await total(conditionSigns),
    }).toEqual(before);
  });
});
