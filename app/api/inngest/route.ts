// /api/inngest — Inngest's serve() endpoint for the durable pipeline (a 404 where Inngest is not
// configured: inngest/serve-guard.ts).
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions as caseFunctions } from "@/inngest/functions/process-case";
import { purgeExpiredRecords } from "@/inngest/functions/purge-expired-records";
import { whenInngestConfigured } from "@/inngest/serve-guard";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = whenInngestConfigured(
  serve({ client: inngest, functions: [...caseFunctions, purgeExpiredRecords] }),
);
