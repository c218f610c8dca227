// The runner behind probe-signs.ts, probe-findings.ts and probe-precision.ts: each probe is a short
// note fragment with the signs or findings that must be selected (`present`) and those that must
// not be (`absent`); a strict run (precision) counts every other selected sign as wrong too,
// except those in `allow`.
// Reads `[probes.json] [--fails] [--group=name]` from the command line, runs every probe through
// the pipeline in-process, prints pass and fail counts per group and a JSON total; --fails lists
// each failing probe with what was missed or wrongly selected.
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

export async function runSignProbes(
  defaultFile: string,
  label: string,
  { strict = false } = {},
): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--")) ?? defaultFile;
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

  const { runNote, close } = await openInProcessPipeline(label);
  const groups = new Map<string, { pass: number; fail: number; missed: number; wrong: number }>();
  for (const probe of probes) {
    const stored = await runNote(probe.note);
    const selected = new Set(
      (stored.selectedSymptoms as { id: number }[]).map((s) => signName.get(s.id) ?? String(s.id)),
    );
    const missed = probe.present.filter((s) => !selected.has(s));
    const allowed = new Set([...probe.present, ...(probe.allow ?? [])]);
    const wrong = strict
      ? [...selected].filter((s) => !allowed.has(s))
      : (probe.absent ?? []).filter((s) => selected.has(s));
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
      `${group.padEnd(14)} pass ${c.pass}  fail ${c.fail}  (missed ${c.missed}, wrongly selected ${c.wrong})`,
    );
    for (const k of ["pass", "fail", "missed", "wrong"] as const) total[k] += c[k];
  }
  console.log(JSON.stringify({ probes: probes.length, ...total }));
  await close();
}
