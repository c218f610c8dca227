// How the dashboard names case statuses and shows pipeline progress; shared by server pages and
// client leaves.
import type { CaseStatus } from "@/db/schema";

export const STATUS_LABELS: Record<CaseStatus, string> = {
  PENDING: "Pending",
  PROCESSING: "Processing",
  INITIAL_AI_PROCESSING_DONE: "Signs extracted",
  SANITIZING: "Checking signs",
  COMPLETED: "Completed",
  ERROR: "Error",
};

export const IN_PROGRESS_STATUSES: CaseStatus[] = [
  "PENDING",
  "PROCESSING",
  "INITIAL_AI_PROCESSING_DONE",
  "SANITIZING",
];

export function isInProgress(status: CaseStatus): boolean {
  return IN_PROGRESS_STATUSES.includes(status);
}

/** Pipeline steps done out of PIPELINE_STEPS, for the progress indicator. */
export const PIPELINE_STEPS = 4;
export function stepsDone(status: CaseStatus): number {
  return { PENDING: 0, PROCESSING: 1, INITIAL_AI_PROCESSING_DONE: 2, SANITIZING: 3, COMPLETED: 4, ERROR: 4 }[
    status
  ];
}

/** Dates render the same on the server and in the browser: fixed locale and time zone. */
export function formatDateTime(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return `${date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}
