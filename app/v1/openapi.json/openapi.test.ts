// The OpenAPI document against the routes themselves: every app/v1 route file and exported method
// is an operation in the document whose `security` admits exactly the tokens the handler accepts
// (found by calling it with a token for every combination of scopes); the document has no
// operation without a route, and it is valid OpenAPI 3.1.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { GET as openapi } from "./route";

const v1 = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
// Route files that are not API operations: the document itself (public), and the catch-all that
// answers unknown /v1 paths with a problem+json 404.
const NOT_OPERATIONS = ["openapi.json/route.ts", "[...path]/route.ts"];
// A value for each dynamic segment; an accepted call may answer 400 or 404, only 403 matters here.
const NO_SUCH_CASE = "00000000-0000-4000-8000-000000000000";
const PARAM_VALUES: Record<string, string> = { id: NO_SUCH_CASE };
// Bodies that get past parsing to the scope checks an operation's lib/ function makes itself.
const BODIES: Record<string, unknown> = {
  "POST /v1/sessions": {
    component: "diagnostics",
    case_id: NO_SUCH_CASE,
    parent_origin: "https://a.example",
  },
};

/** Every non-empty combination of scopes. */
const SCOPE_SETS: Scope[][] = Array.from({ length: 2 ** SCOPES.length - 1 }, (_, index) =>
  SCOPES.filter((_, bit) => ((index + 1) >> bit) & 1),
);
const nameOf = (scopes: readonly string[]) => [...scopes].sort().join(" ");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(v1, full).split(path.sep).join("/")] : [];
  });
}

/** app/v1/cases/[id]/route.ts → /v1/cases/{id} */
function openApiPath(file: string): string {
  const segments = file.split("/").slice(0, -1);
  return ["/v1", ...segments.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
}

interface Operation {
  file: string;
  path: string;
  method: (typeof METHODS)[number];
  handler: RouteHandler;
  params: Record<string, string>;
}

async function routeOperations(): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const file of routeFiles(v1).filter((f) => !NOT_OPERATIONS.includes(f))) {
    const routeModule = (await import(/* @vite-ignore */ path.join(v1, file))) as Record<string, unknown>;
    const params = Object.fromEntries(
      [...file.matchAll(/\[(\w+)\]/g)].map(([, name]) => [name!, PARAM_VALUES[name!] ?? "1"]),
    );
    for (const method of METHODS) {
      const handler = routeModule[method];
      if (typeof handler === "function") {
        operations.push({ file, path: openApiPath(file), method, handler: handler as RouteHandler, params });
      }
    }
  }
  return operations;
}

let handle: DatabaseHandle;
let document: { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
let operations: Operation[];
const tokenFor = new Map<string, string>();

beforeAll(async () => {
  handle = await openTestDatabase();
  for (const scopes of SCOPE_SETS) {
    tokenFor.set(nameOf(scopes), (await machineToken(handle.db, scopes, nameOf(scopes))).token);
  }
  document = await (await call(openapi, "/v1/openapi.json")).json();
  operations = await routeOperations();
});
afterAll(() => handle.close());

/** The scope combinations the handler accepts: those it does not refuse as insufficient_scope. */
async function acceptedScopeSets(operation: Operation): Promise<string[]> {
  const name = `${operation.method} ${operation.path}`;
  const body = BODIES[name];
  const accepted: string[] = [];
  for (const scopes of SCOPE_SETS) {
    const response = await call(operation.handler, operation.path, {
      method: operation.method,
      token: tokenFor.get(nameOf(scopes)),
      params: operation.params,
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    expect(response.status, `${name} with ${nameOf(scopes)}`).not.toBe(401);
    const refused = response.status === 403 && (await response.json()).error === "insufficient_scope";
    if (!refused) accepted.push(nameOf(scopes));
  }
  return accepted;
}

/** The least combinations of a family (none of whose proper subsets is in it), for readable diffs. */
function leastOf(family: string[]): string[] {
  const sets = family.map((name) => name.split(" "));
  return sets
    .filter((set) => !sets.some((other) => other.length < set.length && other.every((s) => set.includes(s))))
    .map(nameOf);
}

/** The scope combinations the document admits: those holding every scope of some requirement. */
function documentedScopeSets(security: Record<string, string[]>[]): string[] {
  return SCOPE_SETS.filter((scopes) =>
    security.some((requirement) =>
      (requirement.bearer ?? []).every((scope) => scopes.includes(scope as Scope)),
    ),
  ).map(nameOf);
}

describe("GET /v1/openapi.json against app/v1's route files", () => {
  it("finds the route files (the walk itself works, and the exemptions still exist)", () => {
    const files = routeFiles(v1);
    expect(files).toEqual(expect.arrayContaining(["cases/route.ts", "sessions/route.ts", ...NOT_OPERATIONS]));
    expect(operations.length).toBeGreaterThanOrEqual(17);
  });

  it("documents every exported method of every route, admitting exactly the tokens the handler accepts", async () => {
    const documented: Record<string, string[] | "missing"> = {};
    const enforced: Record<string, string[]> = {};
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()];
      documented[name] = entry ? documentedScopeSets(entry.security ?? []) : "missing";
      enforced[name] = await acceptedScopeSets(operation);
    }
    // The least combinations first, so that a mismatch reads as "vetdx/read | vetdx/user.read".
    const least = (families: Record<string, string[] | "missing">) =>
      Object.fromEntries(
        Object.entries(families).map(([name, family]) => [
          name,
          family === "missing" ? family : leastOf(family).join(" | "),
        ]),
      );
    expect(least(documented)).toEqual(least(enforced));
    expect(documented).toEqual(enforced);
  });

  it("lists one scope per requirement where any one scope will do", () => {
    expect(document.paths["/v1/cases/{id}"]!.get!.security).toEqual([
      { bearer: ["vetdx/read"] },
      { bearer: ["vetdx/user.read"] },
    ]);
    expect(document.paths["/v1/sessions"]!.post!.security).toEqual([
      { bearer: ["vetdx/tools", "vetdx/read"] },
      { bearer: ["vetdx/tools", "vetdx/user.read"] },
    ]);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents no operation that has no route", () => {
    const routed = new Set(operations.map((operation) => `${operation.method} ${operation.path}`));
    const documented = Object.entries(document.paths).flatMap(([documentedPath, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key.toUpperCase() as (typeof METHODS)[number]))
        .map((method) => `${method.toUpperCase()} ${documentedPath}`),
    );
    expect(documented.filter((operation) => !routed.has(operation))).toEqual([]);
  });
});
