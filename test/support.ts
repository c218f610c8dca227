// Helpers for integration tests: call route handlers as HTTP would, and get real tokens from the
// real token endpoint.
import type { Database } from "@/db";
import { createMachineClient } from "@/lib/machine-clients/machine-clients";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import { POST as tokenEndpoint } from "@/app/idp/oauth2/token/route";

export const APP_URL = "http://vetdx.test";

// `never` params accept every route handler's context type.
export type RouteHandler = (
  request: Request,
  context: { params: Promise<never> },
) => Promise<Response> | Response;

export function call(
  handler: RouteHandler,
  path: string,
  init: RequestInit & { token?: string; params?: Record<string, string>; ip?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  headers.set("x-vetdx-client-ip", init.ip ?? "192.0.2.1");
  const request = new Request(`${APP_URL}${path}`, { ...init, headers });
  return Promise.resolve(handler(request, { params: Promise.resolve(init.params ?? {}) as Promise<never> }));
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
}

export async function requestToken(clientId: string, clientSecret: string, scope?: string, ip?: string) {
  const body = new URLSearchParams({ grant_type: "client_credentials" });
  if (scope) body.set("scope", scope);
  return call(tokenEndpoint, "/idp/oauth2/token", {
    method: "POST",
    headers: {
      authorization: basic(clientId, clientSecret),
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
    ip,
  });
}

/** A new machine client (and its machine veterinarian) with a token for the given scopes. */
export async function machineToken(db: Database, scopes: readonly Scope[] = SCOPES, name = "Test client") {
  const client = await createMachineClient(db, { name, scopes: [...scopes] });
  const response = await requestToken(client.clientId, client.clientSecret);
  const body = (await response.json()) as { access_token: string };
  return { client, token: body.access_token };
}
