// What the host has told the view so far: the tool's arguments and result, and the host context
// (theme, display mode). The host sends them before React mounts; components read them through
// useSyncExternalStore.
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps";

export interface ToolResultView {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

export interface ViewState {
  input: Record<string, unknown> | null;
  result: ToolResultView | null;
  context: McpUiHostContext;
}

export function createViewStore() {
  let state: ViewState = { input: null, result: null, context: {} };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    update(change: Partial<ViewState>) {
      state = { ...state, ...change };
      listeners.forEach((listener) => listener());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ViewStore = ReturnType<typeof createViewStore>;
