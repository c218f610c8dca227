"use client";
// The embeddable page's diagnostics component: the UI with the session's own HTTP API for data and
// the framing page for events.
import { useMemo } from "react";
import type { CaseView, Option } from "./component-api";
import { httpBackend } from "./component-backend";
import { Diagnostics } from "./diagnostics";
import { parentPageHost } from "./parent-events";

interface Props {
  sessionId: string;
  allowedOrigins: string[];
  animalTypes: Option[];
  genders: Option[];
  /** The session's case, or null for a free-form session. */
  initialView: CaseView | null;
  /** Whoever opened the session may not change the case: show it, offer no edits or notes. */
  readOnly?: boolean;
}

export function DiagnosticsApp({ sessionId, allowedOrigins, ...ui }: Props) {
  const backend = useMemo(() => httpBackend(sessionId), [sessionId]);
  const host = useMemo(() => parentPageHost(allowedOrigins), [allowedOrigins]);
  return <Diagnostics backend={backend} host={host} {...ui} />;
}
