// `npx tsx scripts/eval/probe-findings.ts [probes.json] [--fails]`: finding probes. Each probe is a
// short note fragment with the findings (laboratory, imaging, examination) that must be selected
// and those that must not be (values in range for the species, denied findings). Prints pass and
// fail counts per group; --fails also lists each failing probe. The probes were written for the
// ways vets and labs write results in general, not taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

interface Probe {
  group: string;
  note: string;
  present: string[];
  absent: string[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--")) ?? "scripts/eval/finding-probes.json";
const showFails = args.includes("--fails");
const signName = new Map(readCatalogueData().signs.map((s) => [s.id, s.name]));
const probes = JSON.parse(readFileSync(file, "utf8")) as Probe[];
const { runNote, close } = await openInProcessPipeline("finding-probes");
const groups = new Map<string, { pass: number; fail: number; missed: number; wrong: number }>();
for (const probe of probes) {
  const stored = await runNote(probe.note);
  const selected = new Set((stored.selectedSymptoms as { id: number }[]).map((s) => signName.get(s.id)));
  const missed = probe.present.filter((s) => !selected.has(s));
  const wrong = probe.absent.filter((s) => selected.has(s));
  const counts = groups.get(probe.group) ?? { pass: 0, fail: 0, missed: 0, wrong: 0 };
  groups.set(probe.group, counts);
  counts.missed += missed.length;
  counts.wrong += wrong.length;
  if (missed.length === 0 && wrong.length === 0) counts.pass++;
  else {
    counts.fail++;
    if (showFails)
      console.log(
        `FAIL [${probe.group}] ${probe.note}  ${missed.length ? `missed: ${missed.join(", ")}` : ""}${
          wrong.length ? `  wrongly selected: ${wrong.join(", ")}` : ""
        }  (selected: ${[...selected].join(", ")})`,
      );
  }
}
const total = { pass: 0, fail: 0, missed: 0, wrong: 0 };
for (const [group, c] of groups) {
  console.log(
    `${group.padEnd(12)} pass ${c.pass}  fail ${c.fail}  (missed ${c.missed}, wrongly selected ${c.wrong})`,
  );
  for (const k of ["pass", "fail", "missed", "wrong"] as const) total[k] += c[k];
}
console.log(JSON.stringify({ probes: probes.length, ...total }));
await close();
