// `npx tsx scripts/eval/probe-precision.ts [probes.json] [--fails] [--group=name]`: sign precision
// probes. Each probe is a short note fragment in which sign words are used in other senses (plans,
// procedures, treatment history, diagnosis names, terse normal findings, reference ranges, headers,
// questionnaires, another animal) or name a real present sign (the controls). A probe passes when
// every sign in `present` is selected and nothing else is, except signs listed in `allow`; signs
// in `absent` are reported by name when selected. Prints pass and fail counts per group; --fails
// lists each failing probe. The fragments were written for the ways vets write in general, not
// taken from any evaluation set.
import { runSignProbes } from "./sign-probe-runner";

await runSignProbes("scripts/eval/precision-probes.json", "precision-probes", { strict: true });
