// The session's case in the component: its latest view, polled while the pipeline works on it;
// changes saved one at a time; errors shown, and a session that expired, ended or vanished noticed.
import { useCallback, useEffect, useState } from "react";
import { ApiError, type CaseView } from "./component-api";
import type { ComponentBackend } from "./component-backend";

const SETTLED = new Set(["COMPLETED", "ERROR"]);

export function useComponentCase(backend: ComponentBackend, initialView: CaseView | null) {
  const [view, setView] = useState<CaseView | null>(initialView);
  const [gone, setGone] = useState<"expired" | "revoked" | "missing" | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const record = view?.case ?? null;
  const processing = record !== null && !SETTLED.has(record.status);

  /** Shows a failed call: the session's end, or its message. */
  const fail = useCallback((problem: unknown) => {
    if (problem instanceof ApiError && problem.status === 410)
      setGone(problem.type?.endsWith("/session-ended") ? "revoked" : "expired");
    else if (problem instanceof ApiError && problem.status === 404) setGone("missing");
    else setError(problem instanceof Error ? problem.message : "Something went wrong");
  }, []);
  const clearError = () => setError(null);

  // Poll while the pipeline still works on the case (1 s, ×1.5, at most 5 s apart).
  useEffect(() => {
    if (!processing || gone) return;
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await backend.getCase();
        if (stopped) return;
        setView(next);
        if (SETTLED.has(next.case.status)) return;
      } catch (problem) {
        if (!stopped) fail(problem);
        return;
      }
      delay = Math.min(delay * 1.5, 5000);
      timer = setTimeout(poll, delay);
    };
    timer = setTimeout(poll, delay);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [backend, processing, gone, fail]);

  /** Runs one save (or reload) of the case: the case as it now is, or null when it failed. */
  const save = async (call: () => Promise<CaseView>): Promise<CaseView | null> => {
    setBusy(true);
    setError(null);
    try {
      const next = await call();
      setView(next);
      return next;
    } catch (problem) {
      fail(problem);
      return null;
    } finally {
      setBusy(false);
    }
  };

  return { view, record, processing, gone, busy, error, fail, clearError, save };
}
