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

  it("reads a monocyte count against the species' interval", () => {
    expect(signs("monocytes 1.68 x10^9/L")).toEqual(["monocytosis"]);
    expect(signs("monos 1.1 x10^9/L", "cat")).toEqual(["monocytosis"]);
    expect(signs("monocytes 0.6 x10^9/L")).toEqual([]);
  });

  it("reads a rate said to be raised or low without its value, with a shared head noun", () => {
    expect(signs("Heart and respiratory rates are mildly raised.")).toEqual(["tachycardia", "tachypnoea"]);
    expect(signs("RR mildly incr. HR low.", "cat")).toEqual(["tachypnoea", "bradycardia"]);
    expect(signs("HR not elevated.")).toEqual([]);
    expect(signs("Vomiting and urea high.")).toEqual(["azotaemia"]);
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

  it("reads nanomoles, picomoles, ng/mL, seconds and counts per litre as units", () => {
    expect(signs("TT4 5 nmol/L")).toEqual(["low total t4"]);
    expect(signs("T4 >100 nmol/L", "cat")).toEqual(["elevated total t4"]);
    expect(signs("troponin I 2.5 ng/mL")).toEqual(["elevated cardiac troponin"]);
    expect(signs("cobalamin 110 pmol/L")).toEqual(["low serum cobalamin"]);
    expect(signs("PT 25 s (ref 6-9)")).toEqual(["prolonged clotting times"]);
    expect(signs("PT 8 sec (6-9)")).toEqual([]);
    expect(signs("RBC 3.1 x10^12/L", "cat")).toEqual(["anaemia"]);
    expect(signs("WBC 2.1 x 10^9/l")).toEqual(["leucopenia"]);
    expect(signs("ALT 850 since Monday")).toEqual(["elevated liver enzymes"]);
  });

  it("reads a decimal comma and keeps commas between thousands", () => {
    expect(signs("crea 2,8 mg/dl")).toEqual(["azotaemia"]);
    expect(signs("Ca 2,5 mmol/l")).toEqual([]);
    expect(signs("K 6,8 mmol/l")).toEqual(["hyperkalaemia"]);
    expect(signs("WBC 42,000/uL")).toEqual(["leucocytosis"]);
    expect(signs("Na 140, K 4.2")).toEqual([]);
  });

  it("reads ratios and scores: VHS, LA:Ao and UPC against the species' cut-offs", () => {
    expect(signs("VHS 12.5")).toEqual(["cardiomegaly"]);
    expect(signs("VHS 10.1")).toEqual([]);
    expect(signs("VHS 9.6", "cat")).toEqual(["cardiomegaly"]);
    expect(signs("LA:Ao 2.4")).toEqual(["left atrial enlargement"]);
    expect(signs("LA/Ao 1.3")).toEqual([]);
    expect(signs("UPC 3.2")).toEqual(["proteinuria"]);
    expect(signs("UPC 0.3", "cat")).toEqual([]);
  });

  it("needs a unit where a bare number could be another test's", () => {
    expect(signs("UA: RBC 3 /hpf")).toEqual([]);
    expect(signs("bands 3")).toEqual([]);
    expect(signs("bands 2.4 x10^9/L")).toEqual(["left shift"]);
    expect(signs("retics 350 x10^9/L")).toEqual(["reticulocytosis"]);
  });

  it("reads multiples of the upper limit and meters off their scale", () => {
    expect(signs("ALT 3x upper limit")).toEqual(["elevated liver enzymes"]);
    expect(signs("ALT x4")).toEqual(["elevated liver enzymes"]);
    expect(signs("ALP >10x ULN")).toEqual(["elevated liver enzymes"]);
    expect(signs("ALT twice the upper limit")).toEqual(["elevated liver enzymes"]);
    expect(signs("glucose x2 today")).toEqual([]);
    expect(signs("BG checked 2x daily")).toEqual([]);
    expect(signs("BG HI on the glucometer")).toEqual(["hyperglycaemia"]);
    expect(signs("glucose LO")).toEqual(["hypoglycaemia"]);
  });

  it("reads a value at the high or low end of normal as normal", () => {
    expect(signs("urea high normal")).toEqual([]);
    expect(signs("ALT high-normal")).toEqual([]);
    expect(signs("K low normal")).toEqual([]);
    expect(signs("urea high")).toEqual(["azotaemia"]);
  });

  it("uses avian intervals for birds", () => {
    expect(signs("AST 230 U/L", "parrot")).toEqual([]);
    expect(signs("AST 900 U/L", "parrot")).toEqual(["elevated liver enzymes"]);
    expect(signs("bile acids 60 umol/L", "parrot")).toEqual([]);
  });

  it("reads bacteria in the sediment and a positive urine culture", () => {
    expect(signs("Urine sediment: >100 WBC/hpf, many rods")).toEqual(["pyuria", "bacteriuria"]);
    expect(signs("urine culture: E. coli >10^5 cfu/ml")).toEqual(["bacteriuria"]);
    expect(signs("urine culture: no growth")).toEqual([]);
  });

  it("reads values of an effusion or other body fluid as not the blood's", () => {
    expect(signs("Bloods: glucose 60 mg/dL. Abdominal fluid: glucose 32 mg/dL, TS 4.2 g/dL.")).toEqual([
      "hypoglycaemia",
    ]);
    expect(signs("Thoracocentesis yields opaque fluid with a total protein of 5.3 g/dL.", "cat")).toEqual([]);
    expect(signs("PCV 18%, TP 40 g/L.")).toEqual(["anaemia", "hypoproteinaemia"]);
  });

  it("reads a directional word after a qualifier", () => {
    expect(signs("platelets critically low")).toEqual(["thrombocytopenia"]);
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

  it("reads the agents a history names, not those it denies", () => {
    expect(findRiskContext("Ate rat bait three days ago.")).toMatchObject({
      exposure: true,
      agents: ["rodenticide"],
    });
    expect(findRiskContext("Owner put the dog's spot-on flea treatment on the cat.").agents).toEqual([
      "pyrethroid",
    ]);
    // Chewing gum is where dogs meet xylitol; gums as mucous membranes are not gum.
    expect(findRiskContext("Got into a gym bag and ate a container of Mentos gum.").agents).toEqual([
      "xylitol",
    ]);
    expect(findRiskContext("Chewed a packet of sugar-free gum.").agents).toEqual(["xylitol"]);
    expect(findRiskContext("Gums pale, gum margin inflamed.").agents).toBeUndefined();
    const denied = findRiskContext("No access to ibuprofen or any other medication at home.");
    expect(denied.exposure).toBeUndefined();
    expect(denied.agents).toBeUndefined();
  });
});
