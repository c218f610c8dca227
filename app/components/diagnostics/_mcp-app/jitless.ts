// Hosts run the view under a CSP without 'unsafe-eval'. zod's JIT parser probes for eval on its first
// parse, which such a CSP reports as a violation; main.tsx imports this first, before the SDK loads.
// (zod's core `config`, not the `z` namespace, which would bundle every locale.)
import { config } from "zod/v4/core";

config({ jitless: true });
