// Lists the sexes with the words for each and the neuter status those words carry.
import { asc } from "drizzle-orm";
import type { Database } from "@/db";
import { genderTerms, genders } from "@/db/schema";
import type { Gender } from "./schemas";

export async function listGenders(db: Database): Promise<Gender[]> {
  const [rows, terms] = await Promise.all([
    db.select().from(genders).orderBy(asc(genders.id)),
    db.select().from(genderTerms).orderBy(asc(genderTerms.term), asc(genderTerms.id)),
  ]);
  return rows.map((gender) => ({
    id: gender.id,
    key: gender.key as Gender["key"],
    name: gender.name,
    terms: terms
      .filter((term) => term.genderId === gender.id)
      .map((term) => ({ term: term.term, neutered: term.neutered, animal_type_id: term.animalTypeId })),
  }));
}
