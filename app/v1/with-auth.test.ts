// Bearer authentication for /v1 (RFC 6750): which tokens open the API and what the rest get.
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { currentSigningKey, getSigningKeys } from "@/lib/auth/signing-keys";
import { linkMachineClient, revokeMachineClient } from "@/lib/machine-clients/machine-clients";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { call, machineToken } from "@/test/support";
import { GET as animalTypes } from "@/app/v1/animal-types/route";
import { withAuth, json } from "@/lib/http/with-auth";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

async function sign(
  claims: Record<string, unknown>,
  options: { expiresIn?: string; issuer?: string; audience?: string } = {},
) {
  const { key, kid } = await currentSigningKey(await getSigningKeys(handle.db));
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
    .setIssuer(options.issuer ?? "http://vetdx.test/idp")
    .setAudience(options.audience ?? "http://vetdx.test")
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(options.expiresIn ?? "2h")
    .sign(key);
}

async function expectChallenge(response: Response, status: number, error: string | null) {
  expect(response.status).toBe(status);
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer realm="vetdx"/);
  if (error) expect(challenge).toContain(`error="${error}"`);
  else expect(challenge).not.toContain("error=");
  const body = await response.json();
  expect(body).toEqual({ error: error ?? "invalid_token", error_description: expect.any(String) });
}

describe("withAuth", () => {
  it("opens the API for a client-credentials token", async () => {
    const { token } = await machineToken(handle.db);
    const response = await call(animalTypes, "/v1/animal-types", { token });
    expect(response.status).toBe(200);
  });

  it("answers 401 without an error code when no token is sent", async () => {
    await expectChallenge(await call(animalTypes, "/v1/animal-types"), 401, null);
  });

  it("answers 401 for another authorization scheme", async () => {
    const response = await call(animalTypes, "/v1/animal-types", {
      headers: { authorization: "Basic Zm9vOmJhcg==" },
    });
    await expectChallenge(response, 401, null);
  });

  it.each([
    ["a forged signature", async (token: string) => `${token.slice(0, -4)}AAAA`],
    ["garbage", async () => "not.a.jwt"],
    ["an expired token", async () => sign({ sub: "x", client_id: "x" }, { expiresIn: "-1h" })],
    ["another issuer", async () => sign({ sub: "x" }, { issuer: "https://evil.example" })],
    ["another audience", async () => sign({ sub: "x" }, { audience: "https://other-api.example" })],
  ])("answers 401 invalid_token for %s", async (_name, make) => {
    const { token } = await machineToken(handle.db);
    await expectChallenge(
      await call(animalTypes, "/v1/animal-types", { token: await make(token) }),
      401,
      "invalid_token",
    );
  });

  it("rejects tokens signed with a symmetric key, with alg none, or by an unknown key", async () => {
    const hs = await new SignJWT({ sub: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("http://vetdx.test/idp")
      .setAudience("http://vetdx.test")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("a-shared-secret-that-is-long-enough"));
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(
      JSON.stringify({
        sub: "x",
        iss: "http://vetdx.test/idp",
        aud: "http://vetdx.test",
        exp: 9_999_999_999,
        iat: 1,
      }),
    ).toString("base64url");
    const { privateKey } = await generateKeyPair("RS256");
    const stranger = await new SignJWT({ sub: "x" })
      .setProtectedHeader({ alg: "RS256", kid: "stranger" })
      .setIssuer("http://vetdx.test/idp")
      .setAudience("http://vetdx.test")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    for (const token of [hs, `${header}.${payload}.`, stranger]) {
      await expectChallenge(await call(animalTypes, "/v1/animal-types", { token }), 401, "invalid_token");
    }
  });

  it("rejects a client id that is not mapped to a machine veterinarian", async () => {
    const token = await sign({ sub: "unmapped-client", client_id: "unmapped-client", scope: "vetdx/read" });
    const response = await call(animalTypes, "/v1/animal-types", { token });
    expect(response.status).toBe(401);
    expect((await response.json()).error_description).toMatch(/not registered as a machine veterinarian/);
  });

  it("refuses tokens of a revoked client at once", async () => {
    const { client, token } = await machineToken(handle.db);
    await revokeMachineClient(handle.db, client.clientId);
    await expectChallenge(await call(animalTypes, "/v1/animal-types", { token }), 401, "invalid_token");
  });

  it("resolves a linked external client and a human token to their veterinarians", async () => {
    const linked = await linkMachineClient(handle.db, {
      clientId: "cognito-abc123",
      name: "Linked",
      scopes: ["vetdx/read"],
    });
    const vet = await createVeterinarian(handle.db, { email: "a.vet@example.com", name: "Dr A" });
    const echo = withAuth({ anyScope: ["vetdx/read"] }, async ({ identity }) => json(identity));
    const machine = await call(echo, "/v1/echo", {
      token: await sign({
        sub: linked.clientId,
        client_id: linked.clientId,
        scope: "vetdx/read vetdx/tools",
      }),
    });
    expect(await machine.json()).toMatchObject({
      veterinarianId: linked.veterinarianId,
      kind: "machine",
      scopes: ["vetdx/read"], // never more than the client is allowed now
    });
    const human = await call(echo, "/v1/echo", {
      token: await sign({ sub: vet.id, client_id: "vetdx-dashboard", scope: "vetdx/read" }),
    });
    expect(await human.json()).toMatchObject({
      veterinarianId: vet.id,
      kind: "human",
      email: "a.vet@example.com",
    });
  });

  it("answers 403 insufficient_scope naming the scope needed", async () => {
    const { token } = await machineToken(handle.db, ["vetdx/tools"]);
    const response = await call(animalTypes, "/v1/animal-types", { token });
    await expectChallenge(response, 403, "insufficient_scope");
    expect(response.headers.get("www-authenticate")).toContain('scope="vetdx/read"');
  });

  it("gives two machine clients two different veterinarians", async () => {
    const echo = withAuth({ anyScope: [] }, async ({ identity }) => json(identity));
    const first = await machineToken(handle.db, ["vetdx/read"], "Clinic A");
    const second = await machineToken(handle.db, ["vetdx/read"], "Clinic B");
    const a = await (await call(echo, "/v1/echo", { token: first.token })).json();
    const b = await (await call(echo, "/v1/echo", { token: second.token })).json();
    expect(a.veterinarianId).not.toBe(b.veterinarianId);
    expect(a.name).toBe("Clinic A");
  });
});
