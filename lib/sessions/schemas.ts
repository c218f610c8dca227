// Component sessions (spec 2.6, 4.2): request and response shapes.
import { z } from "zod";
import { originSchema } from "@/lib/validation";

export const createSessionInput = z.strictObject({
  component: z.literal("diagnostics").describe('The component to embed; only "diagnostics" exists'),
  case_id: z.uuid().optional().describe("A case to load; its changes are saved to it automatically"),
  parent_origin: originSchema.optional().describe("The origin of the page that will frame the component"),
});
export type CreateSessionInput = z.infer<typeof createSessionInput>;

export const sessionSchema = z
  .object({
    session_id: z.string().describe("Unguessable capability; treat it as a secret"),
    url: z.string().describe("{components_url}/components/diagnostics/<session_id>: put it in an iframe"),
    expires_at: z.string().describe("ISO 8601 UTC"),
  })
  .meta({ id: "ComponentSession" });
export type ComponentSession = z.infer<typeof sessionSchema>;
