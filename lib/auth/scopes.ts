// OAuth scopes of the REST API, components API and MCP tools (spec 5.3 with `svc` = `vetdx`).
import { z } from "zod";

export const SCOPES = [
  "vetdx/read",
  "vetdx/write",
  "vetdx/user.read",
  "vetdx/user.write",
  "vetdx/tools",
] as const;
export type Scope = (typeof SCOPES)[number];

export const scopeSchema = z.enum(SCOPES);

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "vetdx/read": "Read cases, the catalogue and other API resources",
  "vetdx/write": "Create and update cases",
  "vetdx/user.read": "List your cases",
  "vetdx/user.write": "Create and update your cases",
  "vetdx/tools": "Create diagnostics component sessions and use the tools",
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Splits a space-separated scope string, dropping duplicates and empty entries. */
export function parseScopeString(value: string | undefined | null): string[] {
  return [...new Set((value ?? "").split(/\s+/).filter(Boolean))];
}
