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

/**
 * What a vet may grant an MCP client on the consent page. Read only covers every read-only tool
 * (the catalogue, get_case, list_cases, wait_for_case, get_differential_diagnoses); read and write
 * adds creating and changing cases and component sessions.
 */
export const ACCESS_LEVELS = ["read", "read_write"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const READ_ONLY_SCOPES: readonly Scope[] = ["vetdx/read", "vetdx/user.read"];

export const ACCESS_DESCRIPTIONS: Record<AccessLevel, { label: string; detail: string }> = {
  read: { label: "Read only", detail: "view cases and the catalogue" },
  read_write: { label: "Read and write", detail: "also create and change cases" },
};

/** The scopes each level grants out of those a client asked for: never more than it asked. */
export function scopesForAccess(requested: readonly Scope[]): Record<AccessLevel, Scope[]> {
  return {
    read: requested.filter((scope) => READ_ONLY_SCOPES.includes(scope)),
    read_write: [...requested],
  };
}

/** Read and write when any scope goes beyond reading. */
export function accessLevelOf(scopes: readonly string[]): AccessLevel {
  return scopes.every((scope) => (READ_ONLY_SCOPES as readonly string[]).includes(scope))
    ? "read"
    : "read_write";
}
