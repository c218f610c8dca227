// The Inngest client. Used only when INNGEST_EVENT_KEY (Inngest Cloud or self-hosted) or
// INNGEST_DEV is configured; otherwise the server's inline runner processes cases.
import { Inngest } from "inngest";
import { getEnv } from "@/lib/env";

const env = getEnv();

export const inngest = new Inngest({
  id: "vetdx",
  eventKey: env.INNGEST_EVENT_KEY,
  signingKey: env.INNGEST_SIGNING_KEY,
  baseUrl: env.INNGEST_BASE_URL,
  isDev: env.INNGEST_DEV,
});

/** Whether cases go to Inngest (true) or to the in-process runner (false). */
export function inngestConfigured(): boolean {
  return Boolean(env.INNGEST_EVENT_KEY || env.INNGEST_DEV);
}
