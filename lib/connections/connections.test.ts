// Connections: the AI clients a vet authorised (name, when, scopes), and revoking one: its access
// and refresh tokens stop working at once, the consent is forgotten, other clients and other vets
// are untouched, and a vet cannot revoke another vet's connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { AuthError } from "@/lib/auth/identity";
import { hasConsent } from "@/lib/auth/mcp-oauth/consent";
import { exchangeToken } from "@/lib/auth/mcp-oauth/token";
import {
  authorizeWithConsent,
  createTestVet,
  pkcePair,
  registerTestClient,
} from "@/lib/auth/mcp-oauth/testing";
import { verifyMcpAccessToken } from "@/lib/auth/mcp-oauth/verify-access-token";
import { AppError } from "@/lib/errors";
import { listConnections } from "./list-connections";
import { revokeConnection } from "./revoke-connection";

let handle: DatabaseHandle;
let vet: { id: string };
let otherVet: { id: string };
let claude: string;
let inspector: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  vet = await createTestVet(handle.db, "connections@clinic.test");
  otherVet = await createTestVet(handle.db, "connections-other@clinic.test");
  claude = (await registerTestClient(handle.db, { client_name: "Claude" })).client_id;
  inspector = (await registerTestClient(handle.db, { client_name: "MCP Inspector" })).client_id;
});
afterAll(() => handle.close());

async function connect(clientId: string, vetId: string, scope: string) {
  const pkce = pkcePair();
  const location = await authorizeWithConsent(handle.db, {
    clientId,
    vetId,
    challenge: pkce.challenge,
    scope,
  });
  return exchangeToken(handle.db, {
    authorization: null,
    clientIp: "192.0.2.60",
    form: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code: location.searchParams.get("code")!,
      code_verifier: pkce.verifier,
      redirect_uri: "http://127.0.0.1:5555/cb",
    }),
  });
}

describe("connections", () => {
  it("lists nothing for a vet who authorised no client", async () => {
    expect(await listConnections(handle.db, vet.id)).toEqual([]);
  });

  it("lists each authorised client once with its name, scopes and dates; revoking one stops its tokens at once", async () => {
    const first = await connect(claude, vet.id, "vetdx/read");
    const second = await connect(claude, vet.id, "vetdx/read vetdx/tools");
    const other = await connect(inspector, vet.id, "vetdx/read vetdx/write");
    const otherVetsClaude = await connect(claude, otherVet.id, "vetdx/read");

    const listed = await listConnections(handle.db, vet.id);
    expect(listed.map((c) => c.name).sort()).toEqual(["Claude", "MCP Inspector"]);
    const claudeEntry = listed.find((c) => c.clientId === claude)!;
    expect(claudeEntry.scopes.sort()).toEqual(["vetdx/read", "vetdx/tools"]);
    expect(claudeEntry.access).toBe("read_write");
    expect(listed.find((c) => c.clientId === inspector)!.access).toBe("read_write");
    expect((await listConnections(handle.db, otherVet.id))[0]!.access).toBe("read");
    expect(claudeEntry.authorisedAt).toBeInstanceOf(Date);
    expect(claudeEntry.lastAuthorisedAt.getTime()).toBeGreaterThanOrEqual(claudeEntry.authorisedAt.getTime());
    expect(await verifyMcpAccessToken(handle.db, first.access_token)).toMatchObject({
      veterinarianId: vet.id,
    });

    // Another vet cannot revoke it, and nothing changes for either of them.
    const foreign = await revokeConnection(handle.db, {
      veterinarianId: otherVet.id,
      clientId: inspector,
    }).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(AppError);
    expect(foreign).toMatchObject({ kind: "not_found" });

    expect(await revokeConnection(handle.db, { veterinarianId: vet.id, clientId: claude })).toEqual({
      revokedGrants: 2,
    });
    for (const token of [first.access_token, second.access_token]) {
      const error = await verifyMcpAccessToken(handle.db, token).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ error: "invalid_token", description: expect.stringMatching(/revoked/) });
    }
    const refresh = await exchangeToken(handle.db, {
      authorization: null,
      clientIp: "192.0.2.61",
      form: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: claude,
        refresh_token: second.refresh_token!,
      }),
    }).catch((error: unknown) => error);
    expect(refresh).toMatchObject({ error: "invalid_grant" });
    expect(await hasConsent(handle.db, vet.id, claude, [])).toBe(false);

    // The vet's other client and the other vet's connection to the same client still work.
    expect((await listConnections(handle.db, vet.id)).map((c) => c.name)).toEqual(["MCP Inspector"]);
    expect(await verifyMcpAccessToken(handle.db, other.access_token)).toMatchObject({ clientId: inspector });
    expect(await verifyMcpAccessToken(handle.db, otherVetsClaude.access_token)).toMatchObject({
      veterinarianId: otherVet.id,
    });
    expect((await listConnections(handle.db, otherVet.id)).map((c) => c.name)).toEqual(["Claude"]);

    // Revoking again finds nothing to revoke.
    await expect(
      revokeConnection(handle.db, { veterinarianId: vet.id, clientId: claude }),
    ).rejects.toMatchObject({
      kind: "not_found",
    });
  });
});
