// Tools about the caller: who the server thinks you are.
import { z } from "zod";
import { defineTool, READ_ONLY } from "../define-tool";

export const whoami = defineTool({
  name: "whoami",
  title: "Who am I",
  description:
    "Returns who your credentials act as: the veterinarian (human or machine), email, name, scopes and how you authenticated.",
  input: z.strictObject({}),
  output: z.object({
    veterinarian_id: z.uuid(),
    kind: z.enum(["human", "machine"]),
    email: z.string().nullable(),
    name: z.string(),
    role: z.enum(["vet", "admin"]),
    scopes: z.array(z.string()),
    auth_method: z.enum(["jwt", "oauth", "session"]),
    client_id: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  scopes: [],
  run: async (_args, { identity }) => ({
    veterinarian_id: identity.veterinarianId,
    kind: identity.kind,
    email: identity.email,
    name: identity.name,
    role: identity.role,
    scopes: identity.scopes,
    auth_method: identity.authMethod,
    client_id: identity.clientId,
  }),
});
