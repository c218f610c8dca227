// `npx tsx scripts/eval/probe-signs.ts [probes.json] [--fails] [--group=name]`: clinical-sign
// probes. Each probe is a short note fragment (examination shorthand, a vet's note on a horse,
// cow, rabbit, bird or reptile, or an owner's words) with the signs that must be selected and those
// that must not be; probes in the "negative" group must select none of their listed signs. Prints
// pass and fail counts per group; --fails lists each failing probe with what was missed or wrongly
// selected. The probes were written for the ways vets and owners write in general, not taken from
// any evaluation set.
import { runSignProbes } from "./sign-probe-runner";

await runSignProbes("scripts/eval/sign-probes.json", "sign-probes");
