// /api/inngest exists only where Inngest runs the pipeline. Without INNGEST_EVENT_KEY or
// INNGEST_DEV the inline runner does the work and Inngest's serve() could only fail (500, and an
// error in the log for every request a scanner sends): answer a plain 404 instead.
import type { RequestHandler } from "inngest/next";
import { problemResponse } from "@/lib/http/problem";
import { inngestConfigured } from "./client";

type ServeHandlers = Record<"GET" | "POST" | "PUT", RequestHandler>;

const notServed: RequestHandler = async () =>
  problemResponse(404, "not_found", "There is nothing at this address");

/** serve()'s handlers when Inngest is configured; 404s otherwise. */
export function whenInngestConfigured(handlers: ServeHandlers): ServeHandlers {
  if (inngestConfigured()) return handlers;
  return { GET: notServed, POST: notServed, PUT: notServed };
}
