// First start only: a demo veterinarian and a demo machine client, so a newcomer can sign in and
// call the API at once. Credentials are written to DATA_DIR/demo-credentials.json (mode 0600).
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { SCOPES } from "@/lib/auth/scopes";
import { createMachineClient } from "@/lib/machine-clients/machine-clients";
import { createVeterinarian } from "./create-veterinarian";

export const DEMO_VET_EMAIL = "demo.vet@vetdx.example";

export interface DemoCredentials {
  vet: { email: string; password: string };
  client: { client_id: string; client_secret: string; scopes: string };
}

export function demoCredentialsPath(dataDir: string): string {
  return path.join(dataDir, "demo-credentials.json");
}

/** Creates the demo accounts when the database has no veterinarians yet; returns them, once. */
export async function ensureDemoAccounts(
  db: Database,
  options: { dataDir: string; appUrl: string },
): Promise<DemoCredentials | undefined> {
  const file = demoCredentialsPath(options.dataDir);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(veterinarians);
  if (total > 0 || existsSync(file)) return undefined;
  const vet = await createVeterinarian(db, { email: DEMO_VET_EMAIL, name: "Dr Demo Vet", role: "admin" });
  const client = await createMachineClient(db, {
    name: "Demo integration",
    scopes: [...SCOPES],
    embedOrigins: [options.appUrl],
  });
  const credentials: DemoCredentials = {
    vet: { email: vet.email, password: vet.generatedPassword ?? "" },
    client: {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scopes: client.scopes.join(" "),
    },
  };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
