import { describe, expect, it } from "vitest";
import { findLabFindings } from "./lab-values";
import { findRiskContext } from "./risk-context";

const signs = (text: string, species: string | null = "dog", age: number | null = 5) =>
  findLabFindings(text, species, age).findings.map((f) => f.sign);

describe("findLabFindings", () => {
  it("reads values against the species' reference interval", () => {
    expect(signs("PCV 18%", "cat")).toEqual(["anaemia"]);
    expect(signs("PCV 32%", "cat")).toEqual([]);
    expect(signs("PCV 32%", "dog")).toEqual(["anaemia"]);
    expect(signs("BG 2.1 mmol/L")).toEqual(["hypoglycaemia"]);
    expect(signs("K 7.2 mmol/L")).toEqual(["hyperkalaemia"]);
    expect(signs("glucose 30 mmol/l", "cat")).toEqual(["hyperglycaemia"]);
  });

  it("converts conventional units and counts per microlitre", () => {
    expect(signs("glucose 38 mg/dL")).toEqual(["hypoglycaemia"]);
    expect(signs("creat 4.2 mg/dL")).toEqual(["azotaemia"]);
    expect(signs("creat 150 umol/L")).toEqual([]);
    expect(signs("WBC 31,000/µL")).toEqual(["leucocytosis"]);
    expect(signs("plts 45,000/uL")).toEqual(["thrombocytopenia"]);
    expect(signs("Hct 0.13 L/L", "alpaca")).toEqual(["anaemia"]);
    expect(signs("Ca 13.5 mg/dL")).toEqual(["hypercalcaemia"]);
  });

  it("prefers the reference range written in the note", () => {
    expect(signs("ALP 135 U/L (3-80)", "cat")).toEqual(["elevated liver enzymes"]);
    expect(signs("ALP 135 U/L (3-150)", "cat")).toEqual([]);
    expect(signs("phos 8.9 mg/dL (2.5-7.3)")).toEqual(["hyperphosphataemia"]);
  });

  it("reads urine specific gravity and directional shorthand", () => {
    expect(signs("USG 1.010")).toEqual(["isosthenuria"]);
    expect(signs("USG 1.045")).toEqual([]);
    expect(signs("Bloods: urea + creat high, bili up")).toEqual([
      "azotaemia",
      "azotaemia",
      "hyperbilirubinaemia",
    ]);
    expect(signs("low K, raised ALT")).toEqual(["hypokalaemia", "elevated liver enzymes"]);
    expect(signs("HR + RR up")).toEqual(["tachycardia", "tachypnoea"]);
  });

  it("reads lists, linking words and named groups in directional shorthand", () => {
    expect(signs("Biochemistry shows low potassium, sodium, chloride and phosphate")).toEqual([
      "hypokalaemia",
      "hyponatraemia",
      "hypochloraemia",
      "hypophosphataemia",
    ]);
    expect(signs("high calcium and phosphate, low sodium and high potassium")).toEqual([
      "hypercalcaemia",
      "hyperphosphataemia",
      "hyponatraemia",
      "hyperkalaemia",
    ]);
    expect(signs("raised ALT and bilirubin normal")).toEqual(["elevated liver enzymes"]);
    expect(signs("His potassium has been low on every test")).toEqual(["hypokalaemia"]);
    expect(signs("insulin was also low, glucose was persistently low")).toEqual(["hypoglycaemia"]);
    expect(signs("Blood pressure has been high on repeated measurements")).toEqual(["hypertension"]);
    expect(signs("kidney values extremely high, liver enzymes up")).toEqual([
      "azotaemia",
      "elevated liver enzymes",
    ]);
  });

  it("reads urine lists and results written value first", () => {
    expect(new Set(signs("Urinalysis: SG 1.015 with glucose, bilirubin and protein present."))).toEqual(
      new Set(["glucosuria", "bilirubinuria", "proteinuria"]),
    );
    expect(signs("Urine SG 1.067, 1+ protein, inactive sediment.")).toEqual(["proteinuria"]);
    expect(signs("UA: 319 RBC/hpf")).toEqual(["microscopic haematuria"]);
    expect(signs("UA: 2 RBC/hpf")).toEqual([]);
    expect(signs("Glucose, protein present in the food")).toEqual([]);
  });

  it("takes capitals-only abbreviations only in capitals", () => {
    expect(signs("K 7.5")).toEqual(["hyperkalaemia"]);
    expect(signs("walked 2 k 7 times")).toEqual([]);
    expect(signs("TP 95 g/L")).toEqual(["hyperproteinaemia"]);
  });

  it("raises the upper bound for young animals where growth does", () => {
    expect(signs("ALP 300 U/L", "dog", 0.3)).toEqual([]);
    expect(signs("ALP 300 U/L", "dog", 6)).toEqual(["elevated liver enzymes"]);
  });

  it("flags impossible values instead of reading them", () => {
    const result = findLabFindings("PCV 300 %. USG 2.5", "dog", 3);
    expect(result.findings).toEqual([]);
    expect(result.flags.map((f) => f.text)).toEqual(["PCV 300 %", "USG 2.5"]);
  });

  it("reads nothing from units without numbers or prose", () => {
    expect(signs("glucose mmol/L pending; potassium to follow")).toEqual([]);
  });
});

describe("findRiskContext", () => {
  it("reads vaccination, travel and environment", () => {
    expect(findRiskContext("8wk unvaccinated puppy from a breeder")).toEqual({
      vaccinated: false,
      travelled: null,
      environment: ["multi_animal"],
    });
    expect(findRiskContext("Vaccs UTD. Rescued from Spain 3 months ago. Indoor-only cat.")).toEqual({
      vaccinated: true,
      travelled: true,
      environment: ["indoor"],
    });
    expect(findRiskContext("Raided the bin last night, swims in the river")).toEqual({
      vaccinated: null,
      travelled: null,
      environment: ["water", "scavenging"],
    });
  });
});
