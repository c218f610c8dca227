// British/American spelling variants of catalogue terms: the vetted stems convert both ways, words
// that merely contain "ae", "oe" or "hem" are left alone, and a variant never makes two entries of
// one species answer to the same term.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  americanSpelling,
  britishSpelling,
  mightHaveVariants,
  spellingVariants,
  withSpellingVariants,
} from "./spelling-variants";

describe("spelling variants", () => {
  it.each([
    ["haemorrhagic gastroenteritis", "hemorrhagic gastroenteritis"],
    ["oesophageal foreign body", "esophageal foreign body"],
    ["megaoesophagus", "megaesophagus"],
    ["gastro-oesophageal reflux", "gastroesophageal reflux"],
    ["meningoencephalitis of unknown aetiology", "meningoencephalitis of unknown etiology"],
    ["cardiogenic pulmonary oedema", "cardiogenic pulmonary edema"],
    ["immune-mediated haemolytic anaemia", "immune-mediated hemolytic anemia"],
    ["feline leukaemia virus infection", "feline leukemia virus infection"],
    ["retained foetal membranes", "retained fetal membranes"],
    ["caecal impaction", "cecal impaction"],
    ["orthopaedic disease", "orthopedic disease"],
    ["mast cell tumour", "mast cell tumor"],
    ["splenic haematoma", "splenic hematoma"],
    ["hypocalcaemia", "hypocalcemia"],
    ["ischaemic myelopathy", "ischemic myelopathy"],
    ["generalised demodicosis", "generalized demodicosis"],
    ["faecal impaction", "fecal impaction"],
    ["pro-oestrus bleeding", "proestrus bleeding"],
    ["feline panleucopenia", "feline panleukopenia"],
    ["intervertebral disc disease", "intervertebral disk disease"],
    ["phaeochromocytoma", "pheochromocytoma"],
  ])("%s ↔ %s", (british, american) => {
    expect(americanSpelling(british)).toBe(american);
    expect(britishSpelling(american)).toBe(british);
  });

  it("keeps the case of the words it rewrites", () => {
    expect(americanSpelling("Haemorrhagic gastroenteritis")).toBe("Hemorrhagic gastroenteritis");
    expect(britishSpelling("Hemangiosarcoma")).toBe("Haemangiosarcoma");
  });

  it.each([
    "aerobic bacterial infection",
    "toe fracture",
    "does not eat",
    "hemiplegia",
    "hemivertebra",
    "chemotherapy toxicity",
    "hemlock poisoning",
    "endemic disease",
    "systemic hypertension",
    "seminoma",
    "restrictive cardiomyopathy",
    "fetlock swelling",
    "tortoise",
    "exercise-induced collapse",
    "noise phobia",
    "Haemonchus contortus infection",
    "Mannheimia haemolytica pneumonia",
    "Oesophagostomum infection",
    "Oestrus ovis infestation",
    "IMHA",
    "nasal discharge",
    "discoid lupus erythematosus",
    "phenobarbital toxicosis",
  ])("leaves %s alone", (term) => {
    expect(spellingVariants(term)).toEqual([]);
  });

  it("adds the other spelling unless another entry of a shared species already answers to it", () => {
    const entries = [
      { id: 1, name: "haemorrhagic enteritis", synonyms: ["HE"], species: ["dog"] },
      { id: 2, name: "oesophagitis", synonyms: [], species: ["dog"] },
      // Already answers to the American spelling of entry 2's name, in the same species.
      { id: 3, name: "reflux disease", synonyms: ["esophagitis"], species: ["dog"] },
      // Same spelling in another species is no clash.
      { id: 4, name: "oesophagitis", synonyms: [], species: ["cat"] },
    ];
    const { entries: out, added } = withSpellingVariants(entries, (e) => e.species);
    expect(out[0]!.synonyms).toEqual(["HE", "hemorrhagic enteritis"]);
    expect(out[1]!.synonyms).toEqual([]);
    expect(out[3]!.synonyms).toEqual(["esophagitis"]);
    expect(added).toBe(2);
    // The input is not changed.
    expect(entries[0]!.synonyms).toEqual(["HE"]);
  });

  it("lets two entries that share an authored term share its other spelling", () => {
    const entries = [
      { id: 1, name: "insulinoma", synonyms: ["beta cell tumour"], species: ["dog"] },
      { id: 2, name: "pancreatic islet neoplasia", synonyms: ["beta cell tumour"], species: ["dog"] },
      { id: 3, name: "gastric tumour", synonyms: [], species: ["dog"] },
      { id: 4, name: "stomach neoplasia", synonyms: ["gastric tumor"], species: ["dog", "cat"] },
    ];
    const { entries: out } = withSpellingVariants(entries, (e) => e.species);
    expect(out[0]!.synonyms).toContain("beta cell tumor");
    expect(out[1]!.synonyms).toContain("beta cell tumor");
    expect(out[2]!.synonyms).toEqual([]);
  });

  it("skips, by its quick test, no catalogue term that has another spelling", () => {
    const data = fileURLToPath(new URL("./data", import.meta.url));
    const read = (file: string) =>
      JSON.parse(readFileSync(`${data}/${file}`, "utf8")) as { name: string; synonyms: string[] }[];
    const entries = [
      ...read("clinical-signs.json"),
      ...readdirSync(`${data}/conditions`)
        .filter((file) => file.endsWith(".json"))
        .flatMap((file) => read(`conditions/${file}`)),
    ];
    const missed = entries
      .flatMap((entry) => [entry.name, ...entry.synonyms])
      .filter((term) => !mightHaveVariants(term) && spellingVariants(term).length > 0);
    expect(missed).toEqual([]);
  });
});
