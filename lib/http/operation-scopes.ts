// The scopes each REST operation needs (any one of them), declared once: the route passes its entry
// to withAuth, and the OpenAPI document lists the same entry as the operation's `security`.
import type { Scope } from "@/lib/auth/scopes";

const CATALOGUE_READ = ["vetdx/read"] as const;
const CASE_READ = ["vetdx/read", "vetdx/user.read"] as const;
const CASE_WRITE = ["vetdx/write", "vetdx/user.write"] as const;

export const OPERATION_SCOPES = {
  "POST /v1/cases": CASE_WRITE,
  "GET /v1/cases": ["vetdx/user.read"],
  "GET /v1/cases/{id}": CASE_READ,
  "PATCH /v1/cases/{id}": CASE_WRITE,
  "DELETE /v1/cases/{id}": CASE_WRITE,
  "GET /v1/cases/{id}/differentials": ["vetdx/read"],
  "PUT /v1/cases/{id}/diagnosis": CASE_WRITE,
  "POST /v1/cases/{id}/soap-notes": CASE_WRITE,
  "GET /v1/cases/{id}/soap-notes": CASE_READ,
  "POST /v1/differentials": ["vetdx/read"],
  "POST /v1/sessions": ["vetdx/tools"],
  "GET /v1/animal-types": CATALOGUE_READ,
  "GET /v1/breeds": CATALOGUE_READ,
  "GET /v1/genders": CATALOGUE_READ,
  "GET /v1/symptom-categories": CATALOGUE_READ,
  "GET /v1/symptoms": CATALOGUE_READ,
  "GET /v1/symptoms/{id}": CATALOGUE_READ,
  "GET /v1/diagnoses": CATALOGUE_READ,
  "GET /v1/diagnoses/{id}": CATALOGUE_READ,
} as const satisfies Record<`${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /v1/${string}`, readonly Scope[]>;

export type RestOperation = keyof typeof OPERATION_SCOPES;

/**
 * Operations whose lib/ function needs one more scope as well as one of OPERATION_SCOPES': a
 * component session shows a case or the catalogue, so its creator must also be able to read them
 * (lib/sessions/create-session.ts: with case_id a scope that reads the case, else vetdx/read).
 */
export const ALSO_REQUIRED_SCOPES: Partial<Record<RestOperation, readonly Scope[]>> = {
  "POST /v1/sessions": OPERATION_SCOPES["GET /v1/cases/{id}"],
};
