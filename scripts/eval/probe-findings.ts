// `npx tsx scripts/eval/probe-findings.ts [probes.json] [--fails] [--group=name]`: finding probes. Each probe is a
// short note fragment with the findings (laboratory, imaging, examination) that must be selected
// and those that must not be (values in range for the species, denied findings). Prints pass and
// fail counts per group; --fails also lists each failing probe. The probes were written for the
// ways vets and labs write results in general, not taken from any evaluation set.
import { runSignProbes } from "./sign-probe-runner";

await runSignProbes("scripts/eval/finding-probes.json", "finding-probes");
