// `npm run eval:ddx -- <file.jsonl> [--verbose]`: scores the differential-diagnosis ranker on
// vignettes (see /work/shared/data/eval/README.md, "Differential-diagnosis vignettes") against a
// fresh in-memory catalogue. Prints one JSON object {vignettes, top1, top3, top10, mrr,
// unresolved_signs, ms_per_vignette}; --verbose adds each vignette's gold rank and top 5 on stderr.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { asc } from "drizzle-orm";
import { openDatabase, type Database } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { animalTypes, breeds, breedTerms, genders, symptoms } from "@/db/schema";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { searchSymptoms } from "@/lib/catalogue/search-symptoms";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { rankDifferentials } from "@/lib/diagnosis/rank-differentials";

interface Concept {
  name: string;
  aliases?: string[];
}

interface Vignette {
  id: string;
  species: string;
  breed?: string | null;
  age_years?: number | null;
  sex?: "male" | "female" | null;
  neutered?: boolean | null;
  present: string[];
  absent?: string[];
  gold: Concept;
  also_acceptable?: Concept[];
}

const normalise = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, " ");

interface Resolver {
  animalType(species: string): number | undefined;
  breed(animalTypeId: number, name: string): number | undefined;
  genderId(sex: string | null | undefined): number | null;
  sign(db: Database, animalTypeId: number, name: string): Promise<number | undefined>;
}

async function buildResolver(db: Database): Promise<Resolver> {
  const [typeRows, breedRows, breedTermRows, genderRows, symptomRows] = await Promise.all([
    db
      .select({
        id: animalTypes.id,
        key: animalTypes.key,
        name: animalTypes.name,
        synonyms: animalTypes.synonyms,
      })
      .from(animalTypes)
      .orderBy(asc(animalTypes.id)),
    db
      .select({
        id: breeds.id,
        animalTypeId: breeds.animalTypeId,
        name: breeds.name,
        synonyms: breeds.synonyms,
      })
      .from(breeds)
      .orderBy(asc(breeds.id)),
    db
      .select({ breedId: breedTerms.breedId, animalTypeId: breedTerms.animalTypeId, term: breedTerms.term })
      .from(breedTerms),
    db.select({ id: genders.id, key: genders.key }).from(genders),
    db.select({ id: symptoms.id, name: symptoms.name, synonyms: symptoms.synonyms }).from(symptoms),
  ]);
  const typeByTerm = new Map<string, number>();
  for (const t of typeRows) {
    for (const term of [t.key, t.name, ...t.synonyms]) {
      if (!typeByTerm.has(normalise(term))) typeByTerm.set(normalise(term), t.id);
    }
  }
  const breedByName = new Map<string, number>();
  const breedBySynonym = new Map<string, number>();
  for (const b of breedRows) {
    const name = `${b.animalTypeId}:${normalise(b.name)}`;
    if (!breedByName.has(name)) breedByName.set(name, b.id);
    for (const synonym of b.synonyms) {
      const key = `${b.animalTypeId}:${normalise(synonym)}`;
      if (!breedBySynonym.has(key)) breedBySynonym.set(key, b.id);
    }
  }
  for (const t of breedTermRows) {
    const key = `${t.animalTypeId}:${normalise(t.term)}`;
    if (!breedBySynonym.has(key)) breedBySynonym.set(key, t.breedId);
  }
  const genderByKey = new Map(genderRows.map((g) => [g.key, g.id]));
  const signByTerm = new Map<string, number>();
  for (const s of symptomRows) signByTerm.set(normalise(s.name), s.id);
  for (const s of symptomRows) {
    for (const synonym of s.synonyms)
      if (!signByTerm.has(normalise(synonym))) signByTerm.set(normalise(synonym), s.id);
  }
  return {
    animalType: (species) => typeByTerm.get(normalise(species)),
    breed: (animalTypeId, name) =>
      breedByName.get(`${animalTypeId}:${normalise(name)}`) ??
      breedBySynonym.get(`${animalTypeId}:${normalise(name)}`),
    genderId: (sex) => (sex ? (genderByKey.get(sex) ?? null) : null),
    sign: async (database, animalTypeId, name) => {
      const exact = signByTerm.get(normalise(name));
      if (exact !== undefined) return exact;
      const page = await searchSymptoms(database, { q: name, animal_type_id: animalTypeId, limit: 1 });
      return page.data[0]?.id;
    },
  };
}

function acceptableNames(vignette: Vignette): Set<string> {
  const concepts = [vignette.gold, ...(vignette.also_acceptable ?? [])];
  return new Set(concepts.flatMap((c) => [c.name, ...(c.aliases ?? [])]).map(normalise));
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { verbose: { type: "boolean", default: false } },
  });
  const file = positionals[0];
  if (!file) {
    process.stderr.write("usage: npm run eval:ddx -- <file.jsonl> [--verbose]\n");
    process.exit(2);
  }
  const vignettes = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Vignette);

  const handle = await openDatabase({ pgliteDataDir: "memory://" });
  await migrateDatabase(handle);
  await loadCatalogue(handle.db);
  const db = handle.db;
  try {
    const resolver = await buildResolver(db);
    const kb = await loadKnowledgeBase(db);
    let top1 = 0;
    let top3 = 0;
    let top10 = 0;
    let reciprocal = 0;
    let unresolved = 0;
    let rankMs = 0;
    for (const vignette of vignettes) {
      const animalTypeId = resolver.animalType(vignette.species);
      if (animalTypeId === undefined) throw new Error(`${vignette.id}: unknown species ${vignette.species}`);
      const breedId = vignette.breed ? resolver.breed(animalTypeId, vignette.breed) : undefined;
      if (vignette.breed && breedId === undefined && values.verbose) {
        process.stderr.write(`${vignette.id}: breed not resolved: ${vignette.breed}\n`);
      }
      const resolve = async (names: string[]) => {
        const ids: number[] = [];
        for (const name of names) {
          const id = await resolver.sign(db, animalTypeId, name);
          if (id === undefined) {
            unresolved++;
            if (values.verbose) process.stderr.write(`${vignette.id}: sign not resolved: ${name}\n`);
          } else ids.push(id);
        }
        return ids;
      };
      const present = await resolve(vignette.present);
      const absent = await resolve(vignette.absent ?? []);

      const started = performance.now();
      const ranked = await rankDifferentials(
        db,
        {
          animal_type_id: animalTypeId,
          breed_id: breedId ?? null,
          age_years: vignette.age_years ?? null,
          gender_id: resolver.genderId(vignette.sex),
          neutered: vignette.neutered ?? null,
          present_symptom_ids: present,
          absent_symptom_ids: absent,
        },
        { limit: 100 },
      );
      rankMs += performance.now() - started;

      const accepted = acceptableNames(vignette);
      const index = ranked.findIndex((d) => {
        const condition = kb.conditionById.get(d.id);
        return [d.name, ...(condition?.synonyms ?? [])].some((n) => accepted.has(normalise(n)));
      });
      const rank = index === -1 ? null : index + 1;
      if (rank !== null) {
        if (rank === 1) top1++;
        if (rank <= 3) top3++;
        if (rank <= 10) top10++;
        reciprocal += 1 / rank;
      }
      if (values.verbose) {
        const top = ranked
          .slice(0, 5)
          .map((d, i) => `${i + 1}. ${d.name} (${d.score.toFixed(3)})`)
          .join("; ");
        process.stderr.write(`${vignette.id} gold=${vignette.gold.name} rank=${rank ?? "-"} | ${top}\n`);
      }
    }
    const n = vignettes.length || 1;
    const round = (x: number) => Math.round(x * 1000) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        vignettes: vignettes.length,
        top1: round(top1 / n),
        top3: round(top3 / n),
        top10: round(top10 / n),
        mrr: round(reciprocal / n),
        unresolved_signs: unresolved,
        ms_per_vignette: round(rankMs / n),
      })}\n`,
    );
  } finally {
    await handle.close();
  }
}

await main();
