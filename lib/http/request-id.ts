// Request ids: the caller's X-Request-Id when it is a plausible id (so a proxy's id carries
// through), otherwise a new UUID. Echoed in the response and added to every log line.
import { randomUUID } from "node:crypto";

const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestIdFrom(header: string | string[] | undefined | null): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && WELL_FORMED.test(value) ? value : randomUUID();
}

/**
 * The path as it may appear in logs: no query string (codes, states) and no component session id
 * (the id in a component page's URL is its credential).
 */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0] ?? "/";
  return path.replace(/^\/components\/diagnostics\/[^/]+/, "/components/diagnostics/:session").slice(0, 300);
}
