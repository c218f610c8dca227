// Events of the durable case pipeline, typed with zod (a StandardSchema) so sends are validated.
import { eventType } from "inngest";
import { z } from "zod";

/** Sent once a case is stored (PENDING); `process-case` runs the pipeline for it. */
export const caseCreated = eventType("case/created", {
  schema: z.object({
    case_id: z.uuid(),
    veterinarian_id: z.uuid(),
  }),
});
