// Which identity-provider JWTs open /mcp (RFC 8707, RFC 9068, MCP authorization "token audience
// validation"): only access tokens (typ at+jwt) whose audience includes the MCP resource
// {APP_URL}/mcp. A client-credentials request without `resource` (spec 5.2) still gets a token for
// both REST and /mcp; one that names a resource gets a token for that resource only.
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { currentSigningKey, getSigningKeys } from "@/lib/auth/signing-keys";
import { createMachineClient } from "@/lib/machine-clients/machine-clients";
import { GET as animalTypes } from "@/app/v1/animal-types/route";
import { POST as tokenEndpoint } from "@/app/idp/oauth2/token/route";
import { basic, call } from "@/test/support";
import { POST as mcp } from "./route";

const API = "http://vetdx.test";
const MCP_RESOURCE = "http://vetdx.test/mcp";

let handle: DatabaseHandle;
let client: { clientId: string; clientSecret: string };

beforeAll(async () => {
  handle = await openTestDatabase();
  client = await createMachineClient(handle.db, { name: "Audience client", scopes: ["vetdx/read"] });
});
afterAll(() => handle.close());

function tokenResponse(form: Record<string, string>) {
  return call(tokenEndpoint, "/idp/oauth2/token", {
    method: "POST",
    headers: {
      authorization: basic(client.clientId, client.clientSecret),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", ...form }),
    ip: "192.0.2.150",
  });
}

async function m2mToken(form: Record<string, string> = {}): Promise<string> {
  const response = await tokenResponse(form);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A token signed with the embedded provider's own key, for claims the token endpoint never issues. */
async function signed(header: { typ?: string }, audience: string | string[]) {
  const { key, kid } = await currentSigningKey(await getSigningKeys(handle.db));
  return new SignJWT({ client_id: client.clientId, scope: "vetdx/read" })
    .setProtectedHeader({ alg: "RS256", kid, ...header })
    .setIssuer(`${API}/idp`)
    .setSubject(client.clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
}

const whoami = (token: string) =>
  call(mcp as never, "/mcp", {
    method: "POST",
    token,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      host: "vetdx.test",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "whoami", arguments: {} },
    }),
  });

const rest = (token: string) => call(animalTypes, "/v1/animal-types", { token });

async function expectRefused(response: Response, description: RegExp) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe("invalid_token");
  expect(body.error_description).toMatch(description);
}

describe("/mcp token audience", () => {
  it("refuses a REST token (aud = the API) at /mcp, also after REST accepted and cached it", async () => {
    const token = await m2mToken({ resource: API });
    expect((await rest(token)).status).toBe(200);
    await expectRefused(await whoami(token), /audience/);
    await expectRefused(await whoami(await signed({ typ: "at+jwt" }, API)), /audience/);
  });

  it("accepts a token asked for with resource={APP_URL}/mcp, which REST refuses", async () => {
    const token = await m2mToken({ resource: MCP_RESOURCE });
    expect((await whoami(token)).status).toBe(200);
    await expectRefused(await rest(token), /audience/);
  });

  it("accepts the spec 5.2 token (no resource) at both REST and /mcp", async () => {
    const token = await m2mToken();
    expect((await whoami(token)).status).toBe(200);
    expect((await rest(token)).status).toBe(200);
  });

  it("refuses a JWT that is not typed as an access token (typ at+jwt), on both surfaces", async () => {
    for (const header of [{}, { typ: "JWT" }]) {
      const token = await signed(header, [API, MCP_RESOURCE]);
      await expectRefused(await whoami(token), /access token/);
      await expectRefused(await rest(token), /access token/);
    }
  });

  it("answers invalid_target for a resource the token endpoint does not serve", async () => {
    const response = await tokenResponse({ resource: "https://other.example/mcp" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_target" });
  });
});
