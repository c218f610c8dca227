// An MCP client connecting the way Claude or MCP Inspector does, in a real Chromium: discovery,
// dynamic registration, /authorize with PKCE S256, sign-in at the identity provider, consent,
// the code arriving at a loopback redirect URI, code exchange, refresh rotation and reuse detection.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { e2eServer } from "../fixtures/server";
import { SignInPage } from "../pages/sign-in-page";

interface LoopbackReceiver {
  redirectUri: string;
  nextCallback(): Promise<URL>;
  close(): Promise<void>;
}

/** The native app's side: an http server on 127.0.0.1 and an ephemeral port, as RFC 8252 describes. */
async function loopbackReceiver(): Promise<LoopbackReceiver> {
  const received: URL[] = [];
  const waiting: ((url: URL) => void)[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<h1>Connected</h1><p>You can close this window.</p>");
    if (url.pathname !== "/cb") return; // e.g. the browser's favicon request
    const waiter = waiting.shift();
    if (waiter) waiter(url);
    else received.push(url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/cb`,
    nextCallback: () => {
      const ready = received.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function discover(request: APIRequestContext) {
  const resource = await request.get("/.well-known/oauth-protected-resource/mcp");
  expect(resource.status()).toBe(200);
  const resourceMetadata = await resource.json();
  expect(resourceMetadata).toMatchObject({
    resource: `${e2eServer.url}/mcp`,
    authorization_servers: [e2eServer.url],
  });
  const server = await request.get("/.well-known/oauth-authorization-server");
  expect(server.headers()["access-control-allow-origin"]).toBe("*");
  return (await server.json()) as {
    issuer: string;
    authorization_endpoint: string;
    token_endpoint: string;
    registration_endpoint: string;
  };
}

function authorizeUrl(
  endpoint: string,
  clientId: string,
  redirectUri: string,
  challenge: string,
  state: string,
  scope = "vetdx/read vetdx/tools",
) {
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
    scope,
    resource: `${e2eServer.url}/mcp`,
  }).toString();
  return url.toString();
}

async function signIn(page: Page) {
  const { vet } = e2eServer.demoCredentials();
  const form = new SignInPage(page);
  await form.expectShown();
  await form.signIn(vet.email, vet.password);
}

test("an MCP client registers, the vet signs in and consents, and the client gets and refreshes tokens", async ({
  page,
  request,
  browser,
}) => {
  const metadata = await discover(request);
  const receiver = await loopbackReceiver();
  try {
    const registration = await request.post(metadata.registration_endpoint, {
      data: {
        client_name: "E2E MCP client",
        redirect_uris: [receiver.redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    });
    expect(registration.status()).toBe(201);
    const client = await registration.json();
    expect(client.client_secret).toBeUndefined();

    const first = pkce();
    await page.goto(
      authorizeUrl(
        metadata.authorization_endpoint,
        client.client_id,
        receiver.redirectUri,
        first.challenge,
        "state-1",
      ),
    );
    await signIn(page);

    await expect(page.getByRole("heading", { name: "Allow access?" })).toBeVisible();
    await expect(page.getByTestId("consent-client")).toHaveText("E2E MCP client");
    await expect(page.getByTestId("consent-redirect")).toHaveText(new URL(receiver.redirectUri).host);
    await expect(page.getByTestId("consent-scopes")).toContainText("vetdx/tools");
    // The sign-in callback behind this page is single-use: replaying it is refused locally.
    const replay = await page.request.get(page.url());
    expect(replay.status()).toBe(400);
    // The vet chooses what the app may do: the client asked for read and write (vetdx/tools), which
    // is the default; the vet narrows it to read only.
    const readWrite = page.getByRole("radio", { name: /Read and write — also create and change cases/ });
    const readOnly = page.getByRole("radio", { name: /Read only — view cases and the catalogue/ });
    await expect(readWrite).toBeChecked();
    await readOnly.check();
    await page.getByRole("button", { name: "Allow" }).click();

    const callback = await receiver.nextCallback();
    expect(callback.pathname).toBe("/cb");
    expect(callback.searchParams.get("state")).toBe("state-1");
    expect(callback.searchParams.get("iss")).toBe(metadata.issuer);
    await expect(page.getByRole("heading", { name: "Connected" })).toBeVisible();

    const exchanged = await request.post(metadata.token_endpoint, {
      form: {
        grant_type: "authorization_code",
        client_id: client.client_id,
        code: callback.searchParams.get("code") ?? "",
        code_verifier: first.verifier,
        redirect_uri: receiver.redirectUri,
        resource: `${e2eServer.url}/mcp`,
      },
    });
    expect(exchanged.status()).toBe(200);
    expect(exchanged.headers()["cache-control"]).toBe("no-store");
    const tokens = await exchanged.json();
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "vetdx/read" });

    const refreshed = await request.post(metadata.token_endpoint, {
      form: { grant_type: "refresh_token", client_id: client.client_id, refresh_token: tokens.refresh_token },
    });
    expect(refreshed.status()).toBe(200);
    const rotated = await refreshed.json();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

    // The official MCP SDK client uses the refreshed token as the signed-in vet.
    const mcp = new Client({ name: "vetdx-e2e-oauth", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${e2eServer.url}/mcp`), {
        authProvider: { token: async () => rotated.access_token },
      }),
    );
    // tools/list follows the token's scopes: the catalogue and case readers, no write tools.
    const listed = (await mcp.listTools()).tools.map((tool) => tool.name);
    expect(listed).toHaveLength(12);
    expect(listed).not.toContain("create_case");
    expect(listed).not.toContain("create_component_session");
    const who = (await mcp.callTool({ name: "whoami", arguments: {} })) as {
      structuredContent?: Record<string, unknown>;
    };
    expect(who.structuredContent).toMatchObject({
      kind: "human",
      auth_method: "oauth",
      email: e2eServer.demoCredentials().vet.email,
    });
    const types = (await mcp.callTool({ name: "list_animal_types", arguments: {} })) as { isError?: boolean };
    expect(types.isError).toBeFalsy();
    // The grant has vetdx/read only: a write tool called anyway is a tool error naming the scope.
    const write = (await mcp.callTool({ name: "create_case", arguments: { notes: "Dog, vomiting" } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(write.isError).toBe(true);
    expect(write.content[0]?.text).toMatch(/needs the scope vetdx\/write/);
    await mcp.close();

    const reused = await request.post(metadata.token_endpoint, {
      form: { grant_type: "refresh_token", client_id: client.client_id, refresh_token: tokens.refresh_token },
    });
    expect(reused.status()).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    const afterReuse = await request.post(metadata.token_endpoint, {
      form: {
        grant_type: "refresh_token",
        client_id: client.client_id,
        refresh_token: rotated.refresh_token,
      },
    });
    expect(afterReuse.status()).toBe(400);

    // Next time, in a fresh browser, asking for what the vet allowed: sign in again, consent is
    // remembered, straight back to the client.
    const context = await browser.newContext();
    const second = pkce();
    const again = await context.newPage();
    await again.goto(
      authorizeUrl(
        metadata.authorization_endpoint,
        client.client_id,
        receiver.redirectUri,
        second.challenge,
        "state-2",
        "vetdx/read",
      ),
    );
    await signIn(again);
    const returned = await receiver.nextCallback();
    expect(returned.searchParams.get("state")).toBe("state-2");
    const secondTokens = await request.post(metadata.token_endpoint, {
      form: {
        grant_type: "authorization_code",
        client_id: client.client_id,
        code: returned.searchParams.get("code") ?? "",
        code_verifier: second.verifier,
        redirect_uri: receiver.redirectUri,
      },
    });
    expect(secondTokens.status()).toBe(200);
    await context.close();
  } finally {
    await receiver.close();
  }
});

test("a vet who denies access sends the client access_denied", async ({ page, request }) => {
  const metadata = await discover(request);
  const receiver = await loopbackReceiver();
  try {
    const client = await (
      await request.post(metadata.registration_endpoint, {
        data: {
          client_name: "Denied client",
          redirect_uris: [receiver.redirectUri],
          token_endpoint_auth_method: "none",
        },
      })
    ).json();
    await page.goto(
      authorizeUrl(
        metadata.authorization_endpoint,
        client.client_id,
        receiver.redirectUri,
        pkce().challenge,
        "deny-1",
      ),
    );
    await signIn(page);
    await page.getByRole("button", { name: "Deny" }).click();
    const callback = await receiver.nextCallback();
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe("deny-1");
    expect(callback.searchParams.get("code")).toBeNull();
  } finally {
    await receiver.close();
  }
});

test("an unknown client and a foreign redirect URI are refused on a local page, never redirected", async ({
  page,
}) => {
  const response = await page.goto(
    `/authorize?response_type=code&client_id=mcp_unknown&redirect_uri=${encodeURIComponent("https://evil.example/cb")}&code_challenge=${pkce().challenge}&code_challenge_method=S256`,
  );
  expect(response?.status()).toBe(400);
  expect(new URL(page.url()).origin).toBe(e2eServer.url);
  await expect(page.getByRole("heading", { name: "Unknown app" })).toBeVisible();
});
