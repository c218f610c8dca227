// The catalogue endpoints: search quality users depend on, and clear 4xx for bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { GET as animalTypes } from "./animal-types/route";
import { GET as breeds } from "./breeds/route";
import { GET as genders } from "./genders/route";
import { GET as symptoms } from "./symptoms/route";
import { GET as symptom } from "./symptoms/[id]/route";
import { GET as symptomCategories } from "./symptom-categories/route";
import { GET as diagnoses } from "./diagnoses/route";
import { GET as diagnosis } from "./diagnoses/[id]/route";
import { GET as openapi } from "./openapi.json/route";

let handle: DatabaseHandle;
let token: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  token = (await machineToken(handle.db, ["vetdx/read"])).token;
});
afterAll(() => handle.close());

async function get(handler: RouteHandler, path: string, params?: Record<string, string>) {
  const response = await call(handler, path, { token, params });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

const DOG = 1;
const HORSE = 4;
const BUDGERIGAR = 9;

describe("GET /v1/animal-types", () => {
  it("lists at least the 18 contract species with stable ids", async () => {
    const { body } = await get(animalTypes, "/v1/animal-types");
    const byId = Object.fromEntries(body.data.map((t: { id: number; name: string }) => [t.id, t.name]));
    expect(body.data.length).toBeGreaterThanOrEqual(18);
    expect(byId).toMatchObject({
      1: "Dog",
      2: "Cat",
      3: "Rabbit",
      4: "Horse",
      5: "Guinea pig",
      17: "Chicken",
      18: "Other",
    });
    expect(body.next_cursor).toBeNull();
  });
});

describe("GET /v1/symptoms", () => {
  it.each([
    ["vomiting", "vomiting"],
    ["vomit", "vomiting"],
    ["throwing up", "vomiting"],
    ["v+", "vomiting"],
    ["diarrhea", "diarrhoea"],
    ["d+", "diarrhoea"],
    ["PU", "polyuria"],
    ["pu/pd", "polydipsia"],
    ["limping", "lameness"],
  ])("finds %s → %s at distance 0", async (q, name) => {
    const { status, body } = await get(symptoms, `/v1/symptoms?q=${encodeURIComponent(q)}`);
    expect(status).toBe(200);
    expect(body.data[0]).toMatchObject({ symptom_name: name, _distance: 0 });
    expect(body.data[0]).toHaveProperty("category_name");
    expect(body.data[0].synonyms).toEqual(expect.any(Array));
  });

  it("ranks by distance, nearest first, for inexact text", async () => {
    const { body } = await get(symptoms, "/v1/symptoms?q=vomitting%20blood");
    expect(body.data[0].symptom_name).toBe("haematemesis");
    const distances = body.data.map((s: { _distance: number }) => s._distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[0]).toBeGreaterThan(0);
  });

  it("keeps species-specific signs to their species", async () => {
    const dog = await get(symptoms, `/v1/symptoms?q=feather%20plucking&animal_type_id=${DOG}`);
    const bird = await get(symptoms, `/v1/symptoms?q=feather%20plucking&animal_type_id=${BUDGERIGAR}`);
    expect(bird.body.data[0]._distance).toBe(0);
    expect(dog.body.data.find((s: { _distance: number }) => s._distance === 0)).toBeUndefined();
  });

  it("pages through the whole list with cursors", async () => {
    const first = await get(symptoms, "/v1/symptoms?limit=100");
    expect(first.body.data).toHaveLength(100);
    const second = await get(symptoms, `/v1/symptoms?limit=100&cursor=${first.body.next_cursor}`);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it.each([
    ["an unknown parameter", "/v1/symptoms?q=cough&foo=1", "foo"],
    ["a repeated parameter", "/v1/symptoms?q=cough&q=sneeze", "q"],
    ["an out-of-range animal type", "/v1/symptoms?animal_type_id=99999", "animal_type_id"],
    ["a non-numeric animal type", "/v1/symptoms?animal_type_id=dog", "animal_type_id"],
    ["a negative limit", "/v1/symptoms?limit=-1", "limit"],
    ["a limit over 100", "/v1/symptoms?limit=1000", "limit"],
    ["a forged cursor", "/v1/symptoms?cursor=bm9wZQ", "cursor"],
    ["an oversized query", `/v1/symptoms?q=${"a".repeat(500)}`, "q"],
    ["an empty query", "/v1/symptoms?q=%20", "q"],
  ])("answers 400 problem+json for %s", async (_name, path, field) => {
    const { status, type, body } = await get(symptoms, path);
    expect(status).toBe(400);
    expect(type).toBe("application/problem+json");
    expect(body).toMatchObject({ type: expect.stringContaining("/problems/validation"), status: 400 });
    expect(JSON.stringify(body)).toContain(field);
  });

  it("gets one symptom by id and 404s the rest", async () => {
    const vomiting = (await get(symptoms, "/v1/symptoms?q=vomiting")).body.data[0];
    expect(
      (await get(symptom, `/v1/symptoms/${vomiting.id}`, { id: String(vomiting.id) })).body.symptom_name,
    ).toBe("vomiting");
    expect((await get(symptom, "/v1/symptoms/999999", { id: "999999" })).status).toBe(404);
    expect((await get(symptom, "/v1/symptoms/abc", { id: "abc" })).status).toBe(404);
  });

  it("lists the symptom categories", async () => {
    const { body } = await get(symptomCategories, "/v1/symptom-categories");
    expect(body.data.map((c: { key: string }) => c.key)).toEqual(
      expect.arrayContaining(["digestive", "respiratory", "behaviour"]),
    );
  });
});

describe("GET /v1/breeds", () => {
  it.each([
    ["gsd", "German Shepherd Dog"],
    ["lab x", "Labrador Retriever cross"],
    ["labrador", "Labrador Retriever"],
    ["ckcs", "Cavalier King Charles Spaniel"],
    ["jrt", "Jack Russell Terrier"],
  ])("resolves the vet abbreviation %s to %s", async (q, name) => {
    const { body } = await get(breeds, `/v1/breeds?animal_type_id=${DOG}&q=${encodeURIComponent(q)}`);
    expect(body.data[0]).toMatchObject({ name, _distance: 0, animal_type_id: DOG });
  });

  it("resolves DSH for cats and has mixed-breed entries", async () => {
    const { body } = await get(breeds, "/v1/breeds?animal_type_id=2&q=dsh");
    expect(body.data[0]).toMatchObject({ name: "Domestic Shorthair", mixed: true });
    const cross = await get(breeds, `/v1/breeds?animal_type_id=${DOG}&q=lab%20x`);
    expect(cross.body.data[0].mixed).toBe(true);
    expect(cross.body.data[0].cross_of_breed_id).toEqual(expect.any(Number));
  });

  it("lists breeds of one species", async () => {
    const { body } = await get(breeds, `/v1/breeds?animal_type_id=${HORSE}&limit=100`);
    expect(body.data.every((b: { animal_type_id: number }) => b.animal_type_id === HORSE)).toBe(true);
    expect(body.next_cursor).not.toBeNull();
  });
});

describe("GET /v1/genders", () => {
  it("maps species neuter terms to the neutered flag", async () => {
    const { body } = await get(genders, "/v1/genders");
    const term = (text: string) =>
      body.data
        .flatMap((g: { key: string; terms: { term: string }[] }) =>
          g.terms.map((t) => ({ ...t, gender: g.key })),
        )
        .filter((t: { term: string }) => t.term === text);
    expect(body.data.map((g: { key: string }) => g.key)).toEqual(["male", "female", "unknown"]);
    expect(term("gelding")).toContainEqual(
      expect.objectContaining({ gender: "male", neutered: true, animal_type_id: HORSE }),
    );
    expect(term("spayed")[0]).toMatchObject({ gender: "female", neutered: true, animal_type_id: null });
    expect(term("mn")[0]).toMatchObject({ gender: "male", neutered: true });
    expect(
      term("wether")
        .map((t: { animal_type_id: number }) => t.animal_type_id)
        .sort(),
    ).toEqual([14, 15]);
  });
});

describe("GET /v1/diagnoses", () => {
  it("finds conditions by alias, filtered by species", async () => {
    const parvo = await get(diagnoses, `/v1/diagnoses?q=parvo&animal_type_id=${DOG}`);
    expect(parvo.body.data[0].name).toMatch(/parvovirus/i);
    expect(parvo.body.data[0].animal_type_ids).toContain(DOG);
    const gdv = await get(diagnoses, `/v1/diagnoses?q=gdv&animal_type_id=${DOG}`);
    expect(gdv.body.data[0]._distance).toBe(0);
    const horses = await get(diagnoses, `/v1/diagnoses?animal_type_id=${HORSE}&limit=100`);
    expect(
      horses.body.data.every((d: { animal_type_ids: number[] }) => d.animal_type_ids.includes(HORSE)),
    ).toBe(true);
  });

  it("gets one diagnosis with its weighted signs and source", async () => {
    const id = (await get(diagnoses, `/v1/diagnoses?q=gdv&animal_type_id=${DOG}`)).body.data[0].id;
    const { body } = await get(diagnosis, `/v1/diagnoses/${id}`, { id: String(id) });
    expect(body.signs.length).toBeGreaterThanOrEqual(3);
    expect(body.signs[0]).toMatchObject({
      id: expect.any(Number),
      symptom_name: expect.any(String),
      weight: expect.any(Number),
    });
    expect(body.source.length).toBeGreaterThan(10);
    expect((await get(diagnosis, "/v1/diagnoses/42", { id: "42" })).status).toBe(404);
  });
});

describe("GET /v1/openapi.json", () => {
  it("describes the catalogue endpoints and the client-credentials security scheme", async () => {
    const response = await call(openapi, "/v1/openapi.json");
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/v1/symptoms", "/v1/breeds", "/v1/diagnoses"]),
    );
    expect(document.components.securitySchemes.bearer.flows.clientCredentials.tokenUrl).toBe(
      "http://vetdx.test/idp/oauth2/token",
    );
    expect(document.paths["/v1/symptoms"].get.parameters.map((p: { name: string }) => p.name)).toContain(
      "animal_type_id",
    );
  });
});
