import { describe, expect, it } from "vitest";
import { findVitalSigns } from "./vitals";

const signs = (text: string, species: string | null = "dog") =>
  findVitalSigns(text, species, []).map((f) => f.sign);

describe("findVitalSigns", () => {
  it("reads temperature, pulse and respiration written as one TPR", () => {
    expect(signs("TPR 40.3/220/60", "cat")).toEqual(["pyrexia", "tachycardia", "tachypnoea"]);
    expect(signs("TPR: 38.5 / 100 / 24")).toEqual([]);
    expect(signs("T/P/R 100.5F/60/16", "horse")).toEqual(["tachycardia"]);
  });

  it("reads capillary refill written out or approximate", () => {
    expect(signs("capillary refill time 4 seconds")).toEqual(["prolonged crt"]);
    expect(signs("CRT ~3 sec")).toEqual(["prolonged crt"]);
    expect(signs("CRT <2s")).toEqual([]);
  });
});
