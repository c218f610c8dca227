// The component's events to its host: init once the vet can start, resize whenever the content's
// height changes, and an `emit` for the rest.
import { useCallback, useEffect, useRef } from "react";
import type { CaseResource } from "./component-api";
import type { ComponentEvent, ComponentHost } from "./parent-events";

/**
 * `ready`: the vet can start (at once without a case, else once the case is processed); `record`:
 * the session's case, or null for a free-form session.
 */
export function useHostEvents(
  host: ComponentHost,
  { ready, record }: { ready: boolean; record: CaseResource | null },
) {
  const rootRef = useRef<HTMLDivElement>(null);
  const initSent = useRef(false);
  const emit = useCallback((event: ComponentEvent) => host.notify(event), [host]);

  // The embedding page sizes the frame to the content.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || typeof ResizeObserver === "undefined") return;
    let last = 0;
    const observer = new ResizeObserver(() => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        emit({ type: "resize", payload: { height } });
      }
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [emit]);

  useEffect(() => {
    if (initSent.current || !ready) return;
    initSent.current = true;
    emit({
      type: "init",
      payload: record ? { mode: "case", case_id: record.id, case: record } : { mode: "free" },
    });
  }, [emit, ready, record]);

  return { rootRef, emit };
}
