// Entry of the diagnostics MCP App view (bundled into one HTML document by lib/mcp/app-view). zod
// goes jitless before the SDK loads; the App connects to the host, follows its theme, fonts and
// display mode, renders the case from the tool result, and unmounts when the host tears it down.
import "./jitless";
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";
import { createRoot } from "react-dom/client";
import { DiagnosticsMcpView } from "./diagnostics-mcp-view";
import { createViewStore } from "./view-store";
import "./view.css";

const store = createViewStore();
// The component reports its own height (ResizeObserver on its root), so the SDK's observer is off.
const app = new App({ name: "VetDx diagnostics", version: "1.0.0" }, {}, { autoResize: false });

function followHost(context: McpUiHostContext | undefined) {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  const insets = context.safeAreaInsets;
  if (insets)
    document.body.style.padding = `${insets.top}px ${insets.right}px ${insets.bottom}px ${insets.left}px`;
  store.update({ context: { ...store.get().context, ...context } });
}

app.ontoolinput = ({ arguments: input }) => store.update({ input: input ?? null });
app.ontoolresult = (result) => store.update({ result });
app.onhostcontextchanged = followHost;

const root = createRoot(document.getElementById("root")!);
app.onteardown = async () => {
  root.unmount();
  return {};
};

root.render(<DiagnosticsMcpView app={app} store={store} />);
void app.connect().then(() => followHost(app.getHostContext()));
