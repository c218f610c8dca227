// `npx tsx scripts/eval/probe-precision.ts [probes.json] [--fails] [--group=name]`: sign precision
// probes. Each probe is a short note fragment in which sign words are used in other senses (plans,
// procedures, treatment history, diagnosis names, terse normal findings, reference ranges, headers,
// questionnaires, another animal) or name a real present sign (the controls). A probe passes when
// every sign in `present` is selected and nothing else is, except signs listed in `allow`; signs
// in `absent` are reported by name when selected. Prints pass and fail counts per group; --fails
// lists each failing probe. The fragments were written for the ways vets write in general, not
// taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

interface Probe {
  group: string;
  note: string;
  present: string[];
  absent?: string[];
  allow?: string[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--")) ?? "scripts/eval/precision-probes.json";
const showFails = args.includes("--fails");
const onlyGroup = args.find((a) => a.startsWith("--group="))?.slice("--group=".length);
const signs = readCatalogueData().signs;
const signName = new Map(signs.map((s) => [s.id, s.name]));
const known = new Set(signs.map((s) => s.name));
const probes = (JSON.parse(readFileSync(file, "utf8")) as Probe[]).filter(
  (p) => !onlyGroup || p.group === onlyGroup,
);
const unknown = probes
  .flatMap((p) => [...p.present, ...(p.absent ?? []), ...(p.allow ?? [])])
  .filter((n) => !known.has(n));
if (unknown.length)
  throw new Error(`probes name signs not in the catalogue: ${[...new Set(unknown)].join(", ")}`);

const { runNote, close } = await openInProcessPipeline("precision-probes");
const groups = new Map<string, { pass: number; fail: number; missed: number; extra: number }>();
for (const probe of probes) {
  const stored = await runNote(probe.note);
  const selected = new Set(
    (stored.selectedSymptoms as { id: number }[]).map((s) => signName.get(s.id) ?? String(s.id)),
  );
  const missed = probe.present.filter((s) => !selected.has(s));
  const allowed = new Set([...probe.present, ...(probe.allow ?? [])]);
  const extra = [...selected].filter((s) => !allowed.has(s));
  const counts = groups.get(probe.group) ?? { pass: 0, fail: 0, missed: 0, extra: 0 };
  groups.set(probe.group, counts);
  counts.missed += missed.length;
  counts.extra += extra.length;
  if (missed.length === 0 && extra.length === 0) counts.pass++;
  else {
    counts.fail++;
    if (showFails)
      console.log(
        `FAIL [${probe.group}] ${probe.note}  ${missed.length ? `missed: ${missed.join(", ")}` : ""}${
          extra.length ? `  wrongly selected: ${extra.join(", ")}` : ""
        }`,
      );
  }
}
const total = { pass: 0, fail: 0, missed: 0, extra: 0 };
for (const [group, c] of groups) {
  console.log(
    `${group.padEnd(14)} pass ${c.pass}  fail ${c.fail}  (missed ${c.missed}, wrongly selected ${c.extra})`,
  );
  for (const k of ["pass", "fail", "missed", "extra"] as const) total[k] += c[k];
}
console.log(JSON.stringify({ probes: probes.length, ...total }));
await close();
