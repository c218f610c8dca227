import { describe, expect, it } from "vitest";
import { findVitalSigns } from "./vitals";
import { findWeights } from "./weight-age";

const signs = (text: string, species: string | null = "dog") =>
  findVitalSigns(text, species, []).map((f) => f.sign);

describe("findVitalSigns", () => {
  it("reads temperature, pulse and respiration written as one TPR", () => {
    expect(signs("TPR 40.3/220/60", "cat")).toEqual(["pyrexia", "tachycardia", "tachypnoea"]);
    expect(signs("TPR: 38.5 / 100 / 24")).toEqual([]);
    expect(signs("T/P/R 100.5F/60/16", "horse")).toEqual(["tachycardia"]);
  });

  it("reads one-letter pulse and respiration beside another vital sign or with a rate unit", () => {
    expect(signs("T 38.4, P 108, R 66.")).toEqual(["tachypnoea"]);
    expect(signs("On admission: P 80/min, R 32/min, T 101.2 F.", "horse")).toEqual([
      "tachycardia",
      "tachypnoea",
    ]);
    expect(signs("P 80 on the biochemistry panel.")).toEqual([]);
  });

  it("takes the vet's '(tachy)', and a lower resting heart rate for a dog of 10 kg or more", () => {
    expect(signs("HR 160 (tachy), T 39.0.")).toEqual(["tachycardia"]);
    const withWeights = (text: string) => findVitalSigns(text, "dog", findWeights(text)).map((f) => f.sign);
    expect(withWeights("Whippet, 13 kg. HR 150, RR 30.")).toEqual(["tachycardia"]);
    expect(withWeights("Chihuahua, 2.5 kg. HR 150.")).toEqual([]);
    expect(withWeights("Lab, 30 kg. HR 120.")).toEqual([]);
  });

  it("reads capillary refill written out or approximate", () => {
    expect(signs("capillary refill time 4 seconds")).toEqual(["prolonged crt"]);
    expect(signs("CRT ~3 sec")).toEqual(["prolonged crt"]);
    expect(signs("CRT <2s")).toEqual([]);
  });

  it("reads water drunk a day against the weight, and weight gained since an earlier weighing", () => {
    const withWeights = (text: string, species: string, age: number | null = null) =>
      findVitalSigns(text, species, findWeights(text), age).map((f) => f.sign);
    expect(withWeights("Bichon, 6.9 kg. Drinking ~1.2 L/day.", "dog")).toEqual(["polydipsia"]);
    expect(withWeights("Lab 30 kg, drinks 1.5 litres a day.", "dog")).toEqual([]);
    expect(withWeights("Cat 4 kg, drinking 300 ml per day.", "cat")).toEqual(["polydipsia"]);
    expect(withWeights("Retriever 39.5 kg (34 kg last yr).", "dog", 8)).toEqual(["weight gain"]);
    // A puppy is growing.
    expect(withWeights("Pup 12 kg (8 kg last month).", "dog", 0.3)).toEqual([]);
  });
});
