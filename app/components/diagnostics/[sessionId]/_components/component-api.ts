// The component's calls to its own API (same origin, authorised by the session id in the path), and
// the types it exchanges. Types only from lib/: nothing server-side reaches the browser bundle.
import type { CaseResource } from "@/lib/cases/schemas";
import type { Differential } from "@/lib/diagnosis/schemas";
import type { SoapNotes } from "@/lib/notes/schemas";

export type { CaseResource, Differential, SoapNotes };

export interface SignName {
  id: number;
  symptom_name: string;
  category_name: string;
}

export type { ComponentCaseView as CaseView } from "@/lib/sessions/component-case-view";

export interface Option {
  id: number;
  name: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The problem's type URI, when the answer was problem+json (e.g. …/session-ended). */
    readonly type?: string,
  ) {
    super(message);
  }
}

export function componentApi(sessionId: string) {
  const base = `/components/diagnostics/${encodeURIComponent(sessionId)}/api`;
  return async function request<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
      credentials: "omit",
    });
    const body = (await response.json().catch(() => null)) as { detail?: string; type?: string } | null;
    if (!response.ok)
      throw new ApiError(response.status, body?.detail ?? `Request failed (${response.status})`, body?.type);
    return body as T;
  };
}
