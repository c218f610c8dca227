// The diagnostics component inside an MCP host: the same UI as the embeddable page, with the case
// from the tool result the host delivered, tools as its backend and the App bridge as its host.
import type { App, McpUiDisplayMode } from "@modelcontextprotocol/ext-apps";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { Diagnostics } from "../[sessionId]/_components/diagnostics";
import type { DiagnosticsViewData } from "@/lib/mcp/app-view/view-data";
import { appBridgeHost } from "./app-bridge-host";
import { mcpBackend, viewDataOf } from "./mcp-backend";
import type { ToolResultView, ViewStore } from "./view-store";

export function DiagnosticsMcpView({ app, store }: { app: App; store: ViewStore }) {
  const { input, result, context } = useSyncExternalStore(store.subscribe, store.get, store.get);
  const fullscreen = context.availableDisplayModes?.includes("fullscreen") ?? false;
  const mode: McpUiDisplayMode = context.displayMode ?? "inline";
  // The host decides: the view takes the mode it answers (and any later host context change).
  const toggle = async () => {
    const granted = await app.requestDisplayMode({ mode: mode === "fullscreen" ? "inline" : "fullscreen" });
    store.update({ context: { ...store.get().context, displayMode: granted.mode } });
  };

  return (
    <>
      {fullscreen ? (
        <div className="view-bar">
          <button type="button" onClick={() => void toggle().catch(() => {})}>
            {mode === "fullscreen" ? "Exit full screen" : "Full screen"}
          </button>
        </div>
      ) : null}
      <ViewBody app={app} input={input} result={result} />
    </>
  );
}

function ViewBody({
  app,
  input,
  result,
}: {
  app: App;
  input: Record<string, unknown> | null;
  result: ToolResultView | null;
}) {
  if (!result)
    return <Message title={input?.case_id ? "Loading the case…" : "Loading…"} text="VetDx is answering." />;
  if (result.isError) {
    const text = result.content?.map((block) => block.text ?? "").join(" ") || "The tool call failed.";
    return <Message title="Nothing to show" text={text} />;
  }
  const data = viewDataOf(result);
  if (!data) return <Message title="Nothing to show" text="This answer carries no diagnostics data." />;
  return <CaseDiagnostics key={data.view?.case.id ?? "free"} app={app} data={data} />;
}

function CaseDiagnostics({ app, data }: { app: App; data: DiagnosticsViewData }) {
  const host = useMemo(() => appBridgeHost(app), [app]);
  const backend = useMemo(
    () => mcpBackend(app, data.view?.case.id ?? null, host.caseChanged),
    [app, data.view, host],
  );
  // The model hears the case as the host delivered it; later changes come through the backend.
  useEffect(() => {
    if (data.view) host.caseChanged(data.view);
  }, [data.view, host]);
  return (
    <Diagnostics
      backend={backend}
      host={host}
      animalTypes={data.animal_types}
      genders={data.genders}
      initialView={data.view}
      readOnly={data.read_only}
    />
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <main className="view-message" data-testid="view-message">
      <h1>{title}</h1>
      <p role="status">{text}</p>
    </main>
  );
}
