// The operator commands behind `npm run admin -- …`, shared by the CLI (database opened directly)
// and the running server (commands arriving over its admin socket).
import { z } from "zod";
import type { Database } from "@/db";
import { invalid } from "@/lib/errors";
import { parseScopeString } from "@/lib/auth/scopes";
import {
  createMachineClient,
  linkMachineClient,
  listMachineClients,
  revokeMachineClient,
  rotateMachineClientSecret,
} from "@/lib/machine-clients/machine-clients";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { listVeterinarians } from "@/lib/veterinarians/list-veterinarians";

export const adminRequestSchema = z.strictObject({
  command: z.array(z.string().max(200)).min(1).max(3),
  options: z.strictObject({
    email: z.string().optional(),
    name: z.string().optional(),
    password: z.string().optional(),
    admin: z.boolean().optional(),
    scopes: z.string().optional(),
    "embed-origin": z.array(z.string()).optional(),
    "client-id": z.string().optional(),
  }),
});
export type AdminRequest = z.infer<typeof adminRequestSchema>;

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [--json]
  vets create --email E --name N [--password P] [--admin]
  vets list
  clients create --name N [--scopes "vetdx/read vetdx/write vetdx/tools"] [--embed-origin URL]...
  clients link --client-id ID --name N [--scopes "..."] [--embed-origin URL]...
  clients list
  clients rotate-secret CLIENT_ID
  clients revoke CLIENT_ID`;

function required(value: string | undefined, flag: string): string {
  if (!value) throw invalid(`--${flag} is required`);
  return value;
}

const scopesOption = (value: string | undefined) =>
  value === undefined ? undefined : parseScopeString(value);

export async function runAdminCommand(db: Database, request: AdminRequest): Promise<unknown> {
  const [group, action, id] = request.command;
  const options = request.options;
  switch (`${group} ${action ?? ""}`.trim()) {
    case "vets create": {
      const vet = await createVeterinarian(db, {
        email: required(options.email, "email"),
        name: required(options.name, "name"),
        password: options.password,
        role: options.admin ? "admin" : "vet",
      });
      return {
        id: vet.id,
        email: vet.email,
        name: vet.name,
        role: vet.role,
        ...(vet.generatedPassword ? { password: vet.generatedPassword } : {}),
      };
    }
    case "vets list":
      return listVeterinarians(db);
    case "clients create": {
      const client = await createMachineClient(db, {
        name: required(options.name, "name"),
        scopes: scopesOption(options.scopes) as never,
        embedOrigins: options["embed-origin"] ?? [],
      });
      return clientOutput(client, client.clientSecret);
    }
    case "clients link":
      return clientOutput(
        await linkMachineClient(db, {
          clientId: required(options["client-id"], "client-id"),
          name: required(options.name, "name"),
          scopes: scopesOption(options.scopes) as never,
          embedOrigins: options["embed-origin"] ?? [],
        }),
      );
    case "clients list":
      return (await listMachineClients(db)).map((client) => clientOutput(client));
    case "clients rotate-secret": {
      const client = await rotateMachineClientSecret(db, required(id, "CLIENT_ID argument"));
      return clientOutput(client, client.clientSecret);
    }
    case "clients revoke":
      return clientOutput(await revokeMachineClient(db, required(id, "CLIENT_ID argument")));
    default:
      throw invalid(`Unknown command "${request.command.join(" ")}"\n${ADMIN_USAGE}`);
  }
}

function clientOutput(
  client: {
    clientId: string;
    name: string;
    veterinarianId: string;
    scopes: string[];
    embedOrigins: string[];
    createdAt: Date;
    revokedAt: Date | null;
  },
  clientSecret?: string,
) {
  return {
    client_id: client.clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    name: client.name,
    veterinarian_id: client.veterinarianId,
    scopes: client.scopes.join(" "),
    embed_origins: client.embedOrigins,
    created_at: client.createdAt,
    revoked_at: client.revokedAt,
  };
}
