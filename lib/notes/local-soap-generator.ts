// The deterministic SOAP writer: clinical prose from the structured context only. Anything the case
// does not record is named as missing and marked for the vet to confirm, never filled in.
import type { SoapSections } from "./schemas";
import type { SoapContext, SoapSign } from "./soap-context";

export const LOCAL_SOAP_GENERATOR = "local-soap-v1";
export const CONFIRM = "[Vet to confirm]";

const NOTES_EXCERPT_CHARS = 1500;

function list(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function quote(phrases: string[]): string {
  return phrases.map((p) => `“${p.replace(/\s+/g, " ").trim()}”`).join(", ");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function age(years: number): string {
  if (years < 1) {
    const months = Math.max(1, Math.round(years * 12));
    return `${months}-month-old`;
  }
  const rounded = Math.round(years * 10) / 10;
  return `${rounded}-year-old`;
}

function ageText(years: number): string {
  if (years < 1) {
    const months = Math.max(1, Math.round(years * 12));
    return `${months} month${months === 1 ? "" : "s"}`;
  }
  const rounded = Math.round(years * 10) / 10;
  return `${rounded} year${rounded === 1 ? "" : "s"}`;
}

function sexPhrase(patient: SoapContext["patient"]): string | null {
  const neuter = patient.neutered === true ? "neutered" : patient.neutered === false ? "entire" : null;
  if (patient.sex) return neuter ? `${neuter} ${patient.sex}` : patient.sex;
  return neuter;
}

function signalment(context: SoapContext): string {
  const p = context.patient;
  const described = [
    p.age_years !== null ? age(p.age_years) : null,
    sexPhrase(p),
    p.breed,
    p.species ? p.species.toLowerCase() : null,
  ]
    .filter(Boolean)
    .join(" ");
  const name = p.name?.trim();
  if (!described && !name) return "Patient details are not recorded on the case";
  if (!described) return `${name}`;
  const article = /^(?:[aeiou]|8|11-|18-)/i.test(described) ? "an" : "a";
  return name ? `${name}, ${article} ${described}` : `${capitalise(article)} ${described}`;
}

function signNames(signs: SoapSign[]): string[] {
  // Significant signs lead: they are what the notes stress.
  return [...signs].sort((a, b) => Number(b.significant) - Number(a.significant)).map((s) => s.name);
}

function subjective(context: SoapContext): string {
  const lines: string[] = [];
  const who = signalment(context);
  if (context.signs.length > 0) {
    lines.push(`${who}, presented with ${list(signNames(context.signs))}.`);
  } else {
    lines.push(`${who}. No presenting signs are selected on the case ${CONFIRM}.`);
  }
  const quoted = context.signs.filter((s) => s.key_phrases.length > 0);
  if (quoted.length > 0) {
    lines.push(`History as recorded in the notes: ${quoted.map((s) => quote(s.key_phrases)).join("; ")}.`);
  }
  if (context.denied.length > 0) {
    // Quote the notes only where they say more than the sign's name ("No diarrhoea", not "diarrhoea").
    const phrases = context.denied.flatMap((s) =>
      s.key_phrases.filter((p) => p.trim().toLowerCase() !== s.name.toLowerCase()),
    );
    lines.push(
      `The notes record no ${list(context.denied.map((s) => s.name))}${phrases.length ? ` (${quote(phrases)})` : ""}.`,
    );
  }
  if (context.historical.length > 0) {
    lines.push(`Previous history: ${list(context.historical.map((s) => s.name))}.`);
  }
  const notes = context.notes.replace(/\s+/g, " ").trim();
  if (notes) {
    const excerpt = notes.length > NOTES_EXCERPT_CHARS ? `${notes.slice(0, NOTES_EXCERPT_CHARS)}…` : notes;
    lines.push(`Clinical notes: ${excerpt}`);
  }
  return lines.join("\n");
}

function objective(context: SoapContext): string {
  const p = context.patient;
  const lines: string[] = [];
  const facts = [
    p.species ? `Species: ${p.species}` : `Species: not recorded ${CONFIRM}`,
    p.breed ? `Breed: ${p.breed}` : null,
    p.age_years !== null ? `Age: ${ageText(p.age_years)}` : null,
    sexPhrase(p) ? `Sex: ${sexPhrase(p)}` : null,
    p.weight_kg !== null ? `Weight: ${p.weight_kg} kg` : `Weight: not recorded ${CONFIRM}`,
  ].filter((fact): fact is string => fact !== null);
  lines.push(`${facts.join(". ")}.`);
  if (context.signs.length > 0) {
    const byCategory = new Map<string, SoapSign[]>();
    for (const sign of context.signs)
      byCategory.set(sign.category, [...(byCategory.get(sign.category) ?? []), sign]);
    lines.push("Clinical signs recorded on the case (* marked significant):");
    for (const [category, signs] of byCategory) {
      lines.push(`- ${category}: ${signs.map((s) => `${s.name}${s.significant ? "*" : ""}`).join(", ")}`);
    }
  } else {
    lines.push(`No clinical signs are recorded on the case ${CONFIRM}.`);
  }
  lines.push(
    `Physical examination parameters (temperature, heart and respiratory rates, mucous membranes, capillary refill time, hydration, body condition) are not recorded in structured form ${CONFIRM}.`,
  );
  return lines.join("\n");
}

function percent(score: number): string {
  const value = score * 100;
  return value >= 1 ? `${Math.round(value)}%` : "<1%";
}

function assessment(context: SoapContext): string {
  const lines: string[] = [];
  lines.push(
    context.diagnosis
      ? `Working diagnosis: ${context.diagnosis.name} (selected by the vet).`
      : `Working diagnosis: not yet selected ${CONFIRM}.`,
  );
  if (context.differentials.length > 0) {
    lines.push(
      "Differential diagnoses, ranked by VetDx from the recorded signs and signalment (decision support, not a diagnosis):",
    );
    context.differentials.forEach((d, index) => {
      const evidence = [
        d.supporting.length ? `supported by ${list(d.supporting)}` : null,
        d.against.length ? `against: ${list(d.against)}` : null,
      ].filter(Boolean);
      lines.push(
        `${index + 1}. ${d.name} (${percent(d.score)})${evidence.length ? `: ${evidence.join("; ")}` : ""}.`,
      );
    });
  } else if (!context.patient.species) {
    lines.push(`Differentials could not be ranked: the patient's species is not recorded ${CONFIRM}.`);
  }
  const significant = context.signs.filter((s) => s.significant).map((s) => s.name);
  if (significant.length > 0) lines.push(`Significant findings: ${list(significant)}.`);
  return lines.join("\n");
}

function plan(context: SoapContext): string {
  const lines: string[] = [];
  // The working diagnosis first, then the leading differentials; one line per kind of workup.
  const targets = [
    ...(context.diagnosis ? [context.diagnosis] : []),
    ...context.differentials.filter((d) => d.name !== context.diagnosis?.name).slice(0, 3),
  ];
  if (targets.length > 0) {
    const what = context.diagnosis
      ? "the working diagnosis and leading differentials"
      : "the leading differentials";
    lines.push(`Diagnostics to confirm or rule out ${what} ${CONFIRM}:`);
    const groups = new Map<string, { names: string[]; tests: string[] }>();
    for (const target of targets) {
      const group = groups.get(target.workup.category) ?? { names: [], tests: target.workup.tests };
      group.names.push(target.name);
      groups.set(target.workup.category, group);
    }
    for (const [category, group] of groups) {
      lines.push(`- ${list(group.names)} (${category}): ${group.tests.join("; ")}.`);
    }
  } else {
    lines.push(
      `Diagnostics: a minimum database (haematology, serum biochemistry, urinalysis) as indicated ${CONFIRM}.`,
    );
  }
  lines.push(`Treatment: supportive and specific treatment to be decided by the attending vet ${CONFIRM}.`);
  lines.push(
    "Discuss with owner: the findings, the differential list, the recommended diagnostics and their costs, and the signs that should prompt re-examination.",
  );
  lines.push(`Recheck: timing to be set by the attending vet ${CONFIRM}.`);
  return lines.join("\n");
}

export function writeSoapNotesLocally(context: SoapContext): SoapSections {
  return {
    subjective: subjective(context),
    objective: objective(context),
    assessment: assessment(context),
    plan: plan(context),
  };
}

/** The four sections as one plain-text document. */
export function soapText(sections: SoapSections): string {
  return [
    `S: Subjective\n${sections.subjective}`,
    `O: Objective\n${sections.objective}`,
    `A: Assessment\n${sections.assessment}`,
    `P: Plan\n${sections.plan}`,
  ].join("\n\n");
}
