// The OpenAPI document against the routes themselves: every app/v1 route file and exported method
// is an operation in the document, whose `security` lists exactly the scopes the handler accepts
// (found by calling it with a token for each scope alone); the document has no operation without a
// route, and it is valid OpenAPI 3.1.
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
const PARAM_VALUES: Record<string, string> = { id: "00000000-0000-4000-8000-000000000000" };

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
const tokenFor = new Map<Scope, string>();

beforeAll(async () => {
  handle = await openTestDatabase();
  for (const scope of SCOPES) tokenFor.set(scope, (await machineToken(handle.db, [scope], scope)).token);
  document = await (await call(openapi, "/v1/openapi.json")).json();
  operations = await routeOperations();
});
afterAll(() => handle.close());

/** The scopes the handler accepts: a token with each scope alone, refused or not for its scope. */
async function acceptedScopes(operation: Operation): Promise<Scope[]> {
  const accepted: Scope[] = [];
  for (const scope of SCOPES) {
    const response = await call(operation.handler, operation.path, {
      method: operation.method,
      token: tokenFor.get(scope),
      params: operation.params,
    });
    expect(response.status, `${operation.method} ${operation.path} with ${scope}`).not.toBe(401);
    const refused = response.status === 403 && (await response.json()).error === "insufficient_scope";
    if (!refused) accepted.push(scope);
  }
  return accepted;
}

describe("GET /v1/openapi.json against app/v1's route files", () => {
  it("finds the route files (the walk itself works, and the exemptions still exist)", () => {
    const files = routeFiles(v1);
    expect(files).toEqual(expect.arrayContaining(["cases/route.ts", "sessions/route.ts", ...NOT_OPERATIONS]));
    expect(operations.length).toBeGreaterThanOrEqual(17);
  });

  it("documents every exported method of every route, with exactly the scopes the handler accepts", async () => {
    const documented: Record<string, string[] | "missing"> = {};
    const enforced: Record<string, string[]> = {};
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()];
      documented[name] = entry
        ? (entry.security ?? []).flatMap((requirement) => requirement.bearer ?? []).sort()
        : "missing";
      enforced[name] = (await acceptedScopes(operation)).sort();
    }
    expect(documented).toEqual(enforced);
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
