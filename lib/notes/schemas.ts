// SOAP notes: the stored shape (on the case, in REST and MCP answers) and the shape a model must
// return. Field names are the API's snake_case.
import { z } from "zod";

const section = (what: string) => z.string().max(8000).describe(what);

/** What a model writes; our code adds `text`, `generator` and `generated_at`. */
export const soapSectionsSchema = z.object({
  subjective: section("History and presenting complaint, from the notes only"),
  objective: section("Signalment, weight and the recorded clinical findings"),
  assessment: section("Working diagnosis and ranked differentials with their evidence"),
  plan: section(
    "Diagnostics to confirm or rule out the differentials, treatment to decide, owner communication",
  ),
});
export type SoapSections = z.infer<typeof soapSectionsSchema>;

export const soapNotesSchema = soapSectionsSchema
  .extend({
    text: z.string().describe("The four sections as one plain-text document"),
    generator: z
      .string()
      .describe(
        'Who wrote it: "local-soap-v1", the model (e.g. "openai:gpt-4.1-mini"), or the local generator after a model failure',
      ),
    generated_at: z.string().describe("ISO 8601 UTC"),
  })
  .meta({ id: "SoapNotes" });
export type SoapNotes = z.infer<typeof soapNotesSchema>;
