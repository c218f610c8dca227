// POST /register: RFC 7591 registrations as rows of oauth_clients; refused metadata and bodies.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthClients } from "@/db/schema";
import { POST as register, OPTIONS as registerPreflight } from "@/app/register/route";
import { call } from "@/test/support";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const post = (body: unknown, init: { contentType?: string; ip?: string } = {}) =>
  call(register, "/register", {
    method: "POST",
    headers: { "content-type": init.contentType ?? "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ip: init.ip,
  });

describe("POST /register", () => {
  it("registers a public client: no secret, metadata echoed, row stored", async () => {
    const response = await post({
      redirect_uris: ["http://127.0.0.1:33418/callback"],
      token_endpoint_auth_method: "none",
      client_name: "MCP Inspector",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      unknown_field: "ignored",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({
      client_id: expect.stringMatching(/^mcp_/),
      client_id_issued_at: expect.any(Number),
      redirect_uris: ["http://127.0.0.1:33418/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      client_name: "MCP Inspector",
    });
    expect(body).not.toHaveProperty("client_secret");
    expect(body).not.toHaveProperty("unknown_field");
    const [row] = await handle.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, body.client_id));
    expect(row).toMatchObject({ source: "registration", tokenEndpointAuthMethod: "none", secretHash: null });
  });

  it("registers a confidential client by default (client_secret_basic) and stores only the secret's hash", async () => {
    const response = await post({
      redirect_uris: ["https://chat.example/oauth/callback"],
      client_name: "Chat",
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      token_endpoint_auth_method: "client_secret_basic",
      client_secret: expect.any(String),
      client_secret_expires_at: 0,
    });
    const [row] = await handle.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, body.client_id));
    expect(JSON.stringify(row)).not.toContain(body.client_secret);
    expect(row?.secretHash).toHaveLength(43);
  });

  it.each([
    ["missing redirect_uris", {}],
    ["empty redirect_uris", { redirect_uris: [] }],
    ["http on a non-loopback host", { redirect_uris: ["http://client.example/cb"] }],
    ["javascript:", { redirect_uris: ["javascript:alert(document.cookie)"] }],
    ["data:", { redirect_uris: ["data:text/html,<script>alert(1)</script>"] }],
    ["a fragment", { redirect_uris: ["https://client.example/cb#x"] }],
    ["one bad URI among good ones", { redirect_uris: ["https://client.example/cb", "file:///etc/passwd"] }],
  ])("refuses %s with invalid_redirect_uri", async (_name, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_redirect_uri",
      error_description: expect.any(String),
    });
  });

  it.each([
    ["an unknown auth method", { token_endpoint_auth_method: "private_key_jwt" }],
    ["the implicit grant", { grant_types: ["implicit"] }],
    ["only refresh_token", { grant_types: ["refresh_token"] }],
    ["response type token", { response_types: ["token"] }],
    ["a javascript: logo", { logo_uri: "javascript:alert(1)" }],
  ])("refuses %s with invalid_client_metadata", async (_name, extra) => {
    const response = await post({ redirect_uris: ["https://client.example/cb"], ...extra });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  it("refuses non-JSON, malformed JSON and oversized bodies", async () => {
    const form = await post("redirect_uris=https://client.example/cb", {
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({ error: "invalid_client_metadata" });
    const broken = await post("{not json");
    expect(broken.status).toBe(400);
    const array = await post([]);
    expect(array.status).toBe(400);
    const huge = await post({
      redirect_uris: ["https://client.example/cb"],
      client_name: "x".repeat(20_000),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  it("answers CORS preflights for browser-based clients", () => {
    const response = registerPreflight();
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("rate-limits registrations per address with 429, Retry-After and RateLimit headers", async () => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 35; attempt += 1) {
      last = await post({ redirect_uris: ["https://client.example/cb"] }, { ip: "203.0.113.50" });
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last?.headers.get("ratelimit-policy")).toBe('"mcp-registrations";q=30;w=3600');
    expect(last?.headers.get("ratelimit")).toMatch(/^"mcp-registrations";r=0;t=\d+$/);
    expect(last?.headers.get("access-control-expose-headers")).toContain("ratelimit");
    expect(await last?.json()).toMatchObject({ error: "temporarily_unavailable" });
    const other = await post({ redirect_uris: ["https://client.example/cb"] }, { ip: "203.0.113.51" });
    expect(other.status).toBe(201);
  });
});
