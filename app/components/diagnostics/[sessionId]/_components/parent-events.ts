// Events to the embedding page (spec 6): a JSON string of {type, payload}, posted only to the
// allowed parent origin the frame is actually in, never to "*". The component sends them to a
// ComponentHost: here the parent page; inside an MCP host, that host's bridge.

export type ComponentEvent =
  | { type: "init"; payload: Record<string, unknown> }
  | { type: "symptomSelected"; payload: { name: string } }
  | { type: "diagnoseSelected"; payload: { name: string } }
  | { type: "save"; payload: Record<string, unknown> }
  | { type: "soapNotesGenerated"; payload: { notes: unknown } }
  | { type: "resize"; payload: { height: number } };

/** Whoever embeds the component and hears its events. */
export interface ComponentHost {
  notify(event: ComponentEvent): void;
}

/** The page framing us, when it is one of the allowed origins; decided once, at the first event. */
export function parentPageHost(allowedOrigins: string[]): ComponentHost {
  let targetOrigin: string | null | undefined;
  return {
    notify(event) {
      if (targetOrigin === undefined) targetOrigin = parentOrigin(allowedOrigins);
      postToParent(targetOrigin, event);
    },
  };
}

/** The allowed origin of the page framing us, or null when we are not framed by one. */
function parentOrigin(allowed: string[]): string | null {
  if (typeof window === "undefined" || window.parent === window) return null;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) {
    const origin = ancestors[0]!;
    return allowed.includes(origin) ? origin : null;
  }
  if (document.referrer) {
    try {
      const origin = new URL(document.referrer).origin;
      if (allowed.includes(origin)) return origin;
    } catch {
      // not a URL: fall through
    }
  }
  // Without either hint only an unambiguous origin is safe; the browser still drops a mismatch.
  return allowed.length === 1 ? allowed[0]! : null;
}

function postToParent(targetOrigin: string | null, event: ComponentEvent): void {
  if (!targetOrigin) return;
  window.parent.postMessage(JSON.stringify(event), targetOrigin);
}
