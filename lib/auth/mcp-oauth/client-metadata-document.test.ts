// Client ID metadata documents: fetched through an injected fetcher, validated, cached in
// oauth_clients for their Cache-Control max-age (bounded), and usable at /authorize as public clients.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthClients } from "@/db/schema";
import { startAuthorization } from "./authorize";
import {
  cacheSeconds,
  MetadataDocumentError,
  metadataDocumentUrlProblem,
  resolveMetadataDocumentClient,
} from "./client-metadata-document";
import { resolveAuthorizationClient } from "./clients";
import { AuthorizationPageError, oauthErrorToResponse } from "./errors";
import type { DocumentFetcher, FetchedDocument } from "./safe-fetch";
import { fakeUpstream, pkcePair } from "./testing";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const CLIENT_ID = "https://client.example/oauth/metadata.json";

function serving(document: unknown, extra: Partial<FetchedDocument> = {}) {
  const calls: URL[] = [];
  const fetcher: DocumentFetcher = async (url) => {
    calls.push(url);
    return {
      status: 200,
      cacheControl: "max-age=3600",
      contentType: "application/json",
      body: typeof document === "string" ? document : JSON.stringify(document),
      ...extra,
    };
  };
  return { fetcher, calls };
}

const validDocument = (clientId = CLIENT_ID) => ({
  client_id: clientId,
  client_name: "Example MCP client",
  redirect_uris: ["https://client.example/callback", "http://127.0.0.1/callback"],
  token_endpoint_auth_method: "none",
});

describe("client ID metadata documents", () => {
  it("fetches, stores as a public metadata_document client, and serves from cache while fresh", async () => {
    const now = new Date("2030-01-01T00:00:00Z");
    const { fetcher, calls } = serving(validDocument());
    const client = await resolveMetadataDocumentClient(handle.db, CLIENT_ID, { fetchDocument: fetcher, now });
    expect(client).toMatchObject({
      clientId: CLIENT_ID,
      source: "metadata_document",
      tokenEndpointAuthMethod: "none",
      secretHash: null,
      clientName: "Example MCP client",
      redirectUris: ["https://client.example/callback", "http://127.0.0.1/callback"],
    });
    expect(client.metadataFetchedAt).toEqual(now);
    expect(client.metadataExpiresAt).toEqual(new Date(now.getTime() + 3600_000));
    await resolveMetadataDocumentClient(handle.db, CLIENT_ID, {
      fetchDocument: fetcher,
      now: new Date(now.getTime() + 1800_000),
    });
    expect(calls).toHaveLength(1);
    const refreshed = serving({ ...validDocument(), client_name: "Renamed" });
    const later = await resolveMetadataDocumentClient(handle.db, CLIENT_ID, {
      fetchDocument: refreshed.fetcher,
      now: new Date(now.getTime() + 3601_000),
    });
    expect(later.clientName).toBe("Renamed");
  });

  it("bounds the cache lifetime to between 5 minutes and 24 hours", () => {
    expect(cacheSeconds(null)).toBe(300);
    expect(cacheSeconds("no-store")).toBe(300);
    expect(cacheSeconds("public, max-age=10")).toBe(300);
    expect(cacheSeconds("max-age=7200")).toBe(7200);
    expect(cacheSeconds("max-age=9999999")).toBe(86400);
  });

  it.each([
    ["http://client.example/meta.json", /https/],
    ["https://client.example/", /path/],
    ["https://client.example/a/../meta.json", /normalised/],
    ["https://user:pw@client.example/meta.json", /credentials/],
    ["https://client.example/meta.json#x", /fragment/],
  ])("refuses the client_id URL %s", (url, reason) => {
    expect(metadataDocumentUrlProblem(url)).toMatch(reason);
  });

  it.each([
    ["a client_id other than its URL", validDocument("https://other.example/meta.json"), {}, /client_id/],
    ["no redirect_uris", { client_id: CLIENT_ID }, {}, /redirect_uris/],
    [
      "a javascript: redirect URI",
      { ...validDocument(), redirect_uris: ["javascript:alert(1)"] },
      {},
      /javascript/,
    ],
    ["a client secret", { ...validDocument(), client_secret: "s" }, {}, /secret/],
    [
      "a confidential auth method",
      { ...validDocument(), token_endpoint_auth_method: "client_secret_basic" },
      {},
      /public/,
    ],
    ["not JSON", "<html>", {}, /not JSON/],
    ["an HTTP error", validDocument(), { status: 404 }, /404/],
  ])("refuses a document with %s", async (_name, document, extra, reason) => {
    const id = `https://client.example/refused/${Math.random().toString(36).slice(2)}.json`;
    const body =
      typeof document === "object" && document && "client_id" in document && document.client_id === CLIENT_ID
        ? { ...document, client_id: id }
        : document;
    const { fetcher } = serving(body, extra);
    const attempt = resolveMetadataDocumentClient(handle.db, id, { fetchDocument: fetcher });
    await expect(attempt).rejects.toThrow(MetadataDocumentError);
    await expect(resolveMetadataDocumentClient(handle.db, id, { fetchDocument: fetcher })).rejects.toThrow(
      reason,
    );
    expect(await handle.db.select().from(oauthClients).where(eq(oauthClients.clientId, id))).toHaveLength(0);
  });

  it("is refused with a local page when the fetch fails (e.g. the SSRF guard refuses the host)", async () => {
    const id = "https://internal.example/meta.json";
    const failing: DocumentFetcher = async () => {
      throw new Error("internal.example resolves to a non-public address");
    };
    const params = new URLSearchParams({
      response_type: "code",
      client_id: id,
      redirect_uri: "https://client.example/callback",
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
    });
    const attempt = startAuthorization(handle.db, params, {
      clientIp: "192.0.2.77",
      fetchDocument: failing,
      upstream: fakeUpstream(() => ({ sub: "x" })),
    });
    await expect(attempt).rejects.toBeInstanceOf(AuthorizationPageError);
    await expect(
      startAuthorization(handle.db, params, {
        clientIp: "192.0.2.77",
        fetchDocument: failing,
        upstream: fakeUpstream(() => ({ sub: "x" })),
      }),
    ).rejects.toThrow("The client metadata document could not be fetched");
  });

  it("limits document fetches per address: a 429 page with Retry-After and RateLimit headers", async () => {
    const failing: DocumentFetcher = async () => {
      throw new Error("unreachable");
    };
    const resolve = () =>
      resolveAuthorizationClient(handle.db, "https://slow.example/meta.json", {
        clientIp: "198.51.100.178",
        fetchDocument: failing,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect(await resolve()).toMatchObject({ status: 400 });
    }
    const refused = await resolve();
    expect(refused).toMatchObject({ status: 429 });
    const response = oauthErrorToResponse(refused, "browser");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(response.headers.get("ratelimit-policy")).toBe('"mcp-cimd-fetches";q=30;w=300');
    expect(response.headers.get("ratelimit")).toMatch(/^"mcp-cimd-fetches";r=0;t=\d+$/);
  });

  it("starts an authorization for a metadata document client with one of its redirect URIs", async () => {
    const id = "https://client.example/authorize-test.json";
    const { fetcher } = serving(validDocument(id));
    const { location } = await startAuthorization(
      handle.db,
      new URLSearchParams({
        response_type: "code",
        client_id: id,
        redirect_uri: "http://127.0.0.1:61234/callback",
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256",
      }),
      { clientIp: "192.0.2.78", fetchDocument: fetcher, upstream: fakeUpstream(() => ({ sub: "x" })) },
    );
    expect(new URL(location).origin).toBe("https://idp.vetdx.test");
  });
});
