// The diagnostics component's host inside an MCP host: its events become MCP Apps messages. The
// frame's size goes to the host (ui/notifications/size-changed), and what the vet chose (working
// diagnosis, selected signs) goes to the model (ui/update-model-context), so the assistant's next
// answer knows it without asking.
import type { App } from "@modelcontextprotocol/ext-apps";
import { selectedSigns, signNames } from "../[sessionId]/_components/case-display";
import type { CaseView } from "../[sessionId]/_components/component-api";
import type { ComponentHost } from "../[sessionId]/_components/parent-events";

export interface AppBridgeHost extends ComponentHost {
  /** The case as it now is (after a load or a change). */
  caseChanged(view: CaseView): void;
}

/** What the model is told about the vet's choices on a case: a sentence and the same as data. */
export function modelContextOf(view: CaseView) {
  const record = view.case;
  const signs = selectedSigns(record, signNames(view));
  const diagnosis = record.selected_diagnoses[0] ?? null;
  const patient = record.patient?.name ? ` (${record.patient.name})` : "";
  const signText = signs.length
    ? signs.map((sign) => `${sign.name}${sign.significant ? " (significant)" : ""}`).join(", ")
    : "none";
  const text =
    `In the VetDx diagnostics view the vet is working on case ${record.id}${patient}. ` +
    `Working diagnosis: ${diagnosis ? diagnosis.name : "none chosen yet"}. Selected signs: ${signText}.`;
  return {
    content: [{ type: "text" as const, text }],
    structuredContent: {
      case_id: record.id,
      working_diagnosis: diagnosis ? { id: diagnosis.id, name: diagnosis.name } : null,
      selected_signs: signs.map(({ id, name, significant }) => ({ id, name, significant })),
    },
  };
}

export function appBridgeHost(app: Pick<App, "updateModelContext" | "sendSizeChanged">): AppBridgeHost {
  let told = "";
  return {
    notify(event) {
      // The frame's width is the host's; the view reports the height its document needs (the
      // component's root, which the event measures, plus the view's own bar above it).
      if (event.type === "resize") void app.sendSizeChanged({ height: documentHeight() }).catch(ignore);
    },
    caseChanged(view) {
      const context = modelContextOf(view);
      const key = JSON.stringify(context.structuredContent);
      if (key === told) return;
      told = key;
      void app.updateModelContext(context).catch(ignore);
    },
  };
}

function documentHeight(): number {
  return Math.ceil(document.documentElement.getBoundingClientRect().height);
}

// A host that does not take the message (no such capability, or the view is closing) loses nothing
// the vet needs: the case itself is saved by the tools.
function ignore() {}
