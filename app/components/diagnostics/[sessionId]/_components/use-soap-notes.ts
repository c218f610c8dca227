// SOAP notes in the component: the last ones written, and writing new ones.
import { useState } from "react";
import type { SoapNotes } from "./component-api";
import type { ComponentBackend, FreeFormSelection } from "./component-backend";

export function useSoapNotes(
  backend: ComponentBackend,
  initial: SoapNotes | null,
  { fail, clearError }: { fail: (problem: unknown) => void; clearError: () => void },
) {
  const [notes, setNotes] = useState<SoapNotes | null>(initial);
  const [writing, setWriting] = useState(false);

  /** Writes notes for the session's case (null) or a free-form selection; null when it failed. */
  const generate = async (selection: FreeFormSelection | null): Promise<SoapNotes | null> => {
    setWriting(true);
    clearError();
    try {
      const next = await backend.generateSoap(selection);
      setNotes(next);
      return next;
    } catch (problem) {
      fail(problem);
      return null;
    } finally {
      setWriting(false);
    }
  };

  return { notes, writing, generate };
}
