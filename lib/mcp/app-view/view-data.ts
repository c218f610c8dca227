// What a tool linked to the diagnostics MCP App view adds to its result's `_meta` for the view, and
// under which key. Shared by the server (lib/mcp/app-view/diagnostics-view.ts) and the view.
import type { ComponentCaseView } from "@/lib/sessions/component-case-view";

export const VIEW_DATA_KEY = "vetdx/diagnostics-view";

export interface DiagnosticsViewData {
  /** The case with the names of its signs and breed; null for a ranking without a case. */
  view: ComponentCaseView | null;
  animal_types: { id: number; name: string }[];
  genders: { id: number; name: string }[];
  /** The caller's token has no write scope: the view shows the case and offers no edits. */
  read_only: boolean;
}
