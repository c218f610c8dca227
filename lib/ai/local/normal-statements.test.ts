import { describe, expect, it } from "vitest";
import { findNormalStatements } from "./normal-statements";

const signs = (notes: string) => findNormalStatements(notes).map((s) => s.sign);

describe("findNormalStatements", () => {
  it("reads 'bright', 'BAR' and 'eating well' as lethargy and inappetence denied", () => {
    expect(signs("V+ x2 this am, otherwise bright and eating.")).toEqual(["lethargy", "inappetence"]);
    expect(signs("BAR, eating well, drinking normally")).toEqual(["lethargy", "inappetence"]);
    expect(signs("Appetite normal.")).toEqual(["inappetence"]);
  });

  it("leaves negated statements, colours and lower-case 'bar' alone", () => {
    expect(signs("not eating well and no longer bright")).toEqual([]);
    expect(signs("bright red blood on the faeces")).toEqual([]);
    expect(signs("ate a chocolate bar")).toEqual([]);
    expect(signs("QAR")).toEqual([]);
  });
});
