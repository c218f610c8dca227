// /callback and the consent screen, with a faked upstream code exchange: consent per vet and
// client, CSRF binding, Allow issuing a hashed single-use code, Deny, and local error pages.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import {
  oauthAuthorizationCodes,
  oauthAuthorizationRequests,
  oauthConsents,
  oauthGrants,
  veterinarians,
} from "@/db/schema";
import { POST as consentRoute } from "@/app/consent/route";
import { sha256 } from "@/lib/auth/secrets";
import { call } from "@/test/support";
import { startAuthorization } from "@/lib/auth/mcp-oauth/authorize";
import { completeUpstreamSignIn } from "@/lib/auth/mcp-oauth/callback";
import { AuthorizationPageError } from "@/lib/auth/mcp-oauth/errors";
import {
  authorizeWithConsent,
  createTestVet,
  fakeUpstream,
  pkcePair,
  registerTestClient,
} from "@/lib/auth/mcp-oauth/testing";

let handle: DatabaseHandle;
let client: { client_id: string };
let vet: { id: string; email: string | null };
const { challenge } = pkcePair();

beforeAll(async () => {
  handle = await openTestDatabase();
  client = await registerTestClient(handle.db, {
    client_name: "Claude <script>",
    redirect_uris: ["https://claude.example/api/mcp/auth_callback"],
  });
  vet = await createTestVet(handle.db);
});
afterAll(() => handle.close());

async function begin(sub = vet.id, scope = "vetdx/read vetdx/tools") {
  const upstream = fakeUpstream(() => ({ sub, email: "ignored@idp.test" }));
  const { requestId } = await startAuthorization(
    handle.db,
    new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "https://claude.example/api/mcp/auth_callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "st-123",
      scope,
    }),
    { clientIp: "192.0.2.30", upstream },
  );
  const callbackParams = new URLSearchParams({
    code: "upstream-code",
    state: requestId,
    iss: "https://idp.vetdx.test",
  });
  return { upstream, requestId, callbackParams };
}

function consentForm(fields: Record<string, string>, cookie?: string) {
  return call(consentRoute, "/consent", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

describe("the consent screen", () => {
  it("completes the upstream exchange with the stored checks and shows who asks for what", async () => {
    const { upstream, requestId, callbackParams } = await begin();
    const outcome = await completeUpstreamSignIn(handle.db, callbackParams, { upstream });
    expect(upstream.exchanges).toHaveLength(1);
    const [exchange] = upstream.exchanges;
    expect(`${exchange!.callbackUrl.origin}${exchange!.callbackUrl.pathname}`).toBe(
      "http://vetdx.test/callback",
    );
    expect(exchange!.checks).toMatchObject({
      state: requestId,
      nonce: expect.any(String),
      codeVerifier: expect.any(String),
    });
    expect(outcome.kind).toBe("consent");
    if (outcome.kind !== "consent") return;
    expect(outcome.html).toContain("Claude &#60;script&#62;");
    expect(outcome.html).not.toContain("<script>");
    expect(outcome.html).toContain("claude.example");
    expect(outcome.html).toContain("Read cases, the catalogue and other API resources");
    expect(outcome.html).toContain("vetdx/tools");
    expect(outcome.html).not.toContain("vetdx/write");
    expect(outcome.html).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/);
    // The choice: read only, or read and write (what the client asked for, checked by default).
    expect(outcome.html).toMatch(
      /<input type="radio" name="access" value="read">[^<]*<span><strong>Read only<\/strong> — view cases and the catalogue/,
    );
    expect(outcome.html).toMatch(
      /<input type="radio" name="access" value="read_write" checked>[^<]*<span><strong>Read and write<\/strong> — also create and change cases/,
    );
    expect(outcome.html).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
    expect(outcome.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(outcome.headers["content-security-policy"]).toContain("form-action 'self' https://claude.example");
    expect(outcome.cookie).toMatch(
      new RegExp(`^vetdx_consent_${requestId}=[^;]+; Path=/consent;.*HttpOnly; SameSite=Strict`),
    );
  });

  it("Allow records consent and redirects with a single-use code, state and iss; the code is stored hashed", async () => {
    const { upstream, requestId, callbackParams } = await begin();
    const outcome = await completeUpstreamSignIn(handle.db, callbackParams, { upstream });
    if (outcome.kind !== "consent") throw new Error("expected the consent screen");
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(outcome.html)![1]!;
    const cookie = outcome.cookie.split(";")[0]!;
    const response = await consentForm(
      { request_id: requestId, csrf_token: csrf, decision: "allow", access: "read_write" },
      cookie,
    );
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("https://claude.example/api/mcp/auth_callback");
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("iss")).toBe("http://vetdx.test");
    const code = location.searchParams.get("code")!;
    const [row] = await handle.db
      .select()
      .from(oauthAuthorizationCodes)
      .where(eq(oauthAuthorizationCodes.codeHash, sha256(code)));
    expect(row).toMatchObject({ clientId: client.client_id, codeChallenge: challenge, consumedAt: null });
    expect(row!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(600_000);
    const [consent] = await handle.db
      .select()
      .from(oauthConsents)
      .where(and(eq(oauthConsents.veterinarianId, vet.id), eq(oauthConsents.clientId, client.client_id)));
    expect(consent?.scopes.sort()).toEqual(["vetdx/read", "vetdx/tools"]);
    // Answered once: the same form again is refused.
    const again = await consentForm(
      { request_id: requestId, csrf_token: csrf, decision: "allow", access: "read_write" },
      cookie,
    );
    expect(again.status).toBe(400);
  });

  it("skips the screen when the vet already allowed these scopes, and asks again for more", async () => {
    const { upstream, callbackParams } = await begin(vet.id, "vetdx/read");
    const outcome = await completeUpstreamSignIn(handle.db, callbackParams, { upstream });
    expect(outcome.kind).toBe("redirect");
    if (outcome.kind === "redirect") expect(new URL(outcome.location).searchParams.get("code")).toBeTruthy();
    const more = await begin(vet.id, "vetdx/read vetdx/write");
    expect(
      (await completeUpstreamSignIn(handle.db, more.callbackParams, { upstream: more.upstream })).kind,
    ).toBe("consent");
  });

  it("Deny redirects with access_denied, state and iss, and ends the request", async () => {
    const other = await createTestVet(handle.db);
    const location = await authorizeWithConsent(handle.db, {
      clientId: client.client_id,
      vetId: other.id,
      redirectUri: "https://claude.example/api/mcp/auth_callback",
      challenge,
      decision: "deny",
    });
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("client-state-1");
    expect(location.searchParams.get("iss")).toBe("http://vetdx.test");
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("refuses a consent form without the cookie, with a wrong token, or with another request's token", async () => {
    const first = await begin(vet.id, "vetdx/user.read");
    const outcome = await completeUpstreamSignIn(handle.db, first.callbackParams, {
      upstream: first.upstream,
    });
    if (outcome.kind !== "consent") throw new Error("expected the consent screen");
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(outcome.html)![1]!;
    const cookie = outcome.cookie.split(";")[0]!;
    const noCookie = await consentForm({
      request_id: first.requestId,
      csrf_token: csrf,
      decision: "allow",
      access: "read",
    });
    expect(noCookie.status).toBe(403);
    expect(noCookie.headers.get("location")).toBeNull();
    const wrong = await consentForm(
      { request_id: first.requestId, csrf_token: "forged", decision: "allow", access: "read" },
      cookie,
    );
    expect(wrong.status).toBe(403);
    const second = await begin(vet.id, "vetdx/user.write");
    await completeUpstreamSignIn(handle.db, second.callbackParams, { upstream: second.upstream });
    const crossed = await consentForm(
      { request_id: second.requestId, csrf_token: csrf, decision: "allow", access: "read_write" },
      `vetdx_consent_${second.requestId}=${csrf}`,
    );
    expect(crossed.status).toBe(403);
    // None of these used the request up: the genuine answer still works.
    const genuine = await consentForm(
      { request_id: first.requestId, csrf_token: csrf, decision: "allow", access: "read" },
      cookie,
    );
    expect(genuine.status).toBe(303);
  });
});

describe("the access choice: read only, or read and write", () => {
  async function screenFor(scope: string, who = vet.id) {
    const started = await begin(who, scope);
    const outcome = await completeUpstreamSignIn(handle.db, started.callbackParams, {
      upstream: started.upstream,
    });
    if (outcome.kind !== "consent") throw new Error("expected the consent screen");
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(outcome.html)![1]!;
    const cookie = outcome.cookie.split(";")[0]!;
    const answer = (access?: string) =>
      consentForm(
        { request_id: started.requestId, csrf_token: csrf, decision: "allow", ...(access ? { access } : {}) },
        cookie,
      );
    return { ...started, html: outcome.html, answer };
  }
  const consentOf = async (vetId: string) =>
    (
      await handle.db
        .select()
        .from(oauthConsents)
        .where(and(eq(oauthConsents.veterinarianId, vetId), eq(oauthConsents.clientId, client.client_id)))
    )[0]?.scopes.sort();
  const grantOfCode = async (location: string) => {
    const code = new URL(location).searchParams.get("code")!;
    const [row] = await handle.db
      .select({ scopes: oauthGrants.scopes })
      .from(oauthAuthorizationCodes)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthAuthorizationCodes.grantId))
      .where(eq(oauthAuthorizationCodes.codeHash, sha256(code)));
    return row!.scopes.sort();
  };

  it("read only grants just the read scopes the client asked for, and the consent remembers that", async () => {
    const reader = await createTestVet(handle.db);
    const screen = await screenFor(
      "vetdx/read vetdx/user.read vetdx/write vetdx/user.write vetdx/tools",
      reader.id,
    );
    const response = await screen.answer("read");
    expect(response.status).toBe(303);
    expect(await grantOfCode(response.headers.get("location")!)).toEqual(["vetdx/read", "vetdx/user.read"]);
    expect(await consentOf(reader.id)).toEqual(["vetdx/read", "vetdx/user.read"]);
    // Asked again for write access, the vet sees the screen again; choosing read and write then
    // replaces the remembered answer.
    const again = await screenFor("vetdx/read vetdx/write", reader.id);
    const allowed = await again.answer("read_write");
    expect(await grantOfCode(allowed.headers.get("location")!)).toEqual(["vetdx/read", "vetdx/write"]);
    expect(await consentOf(reader.id)).toEqual(["vetdx/read", "vetdx/write"]);
  });

  it("offers only what the client asked for: read and write is disabled for a read-only request", async () => {
    const screen = await screenFor("vetdx/read", (await createTestVet(handle.db)).id);
    expect(screen.html).toMatch(/value="read" checked>/);
    expect(screen.html).toMatch(/value="read_write" disabled>/);
    expect(screen.html).toContain("(the app did not ask for this)");
    // A forged read_write answer is refused, nothing is granted, and the genuine answer still works.
    const forged = await screen.answer("read_write");
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Choose what the app may do: read only.");
    const genuine = await screen.answer("read");
    expect(await grantOfCode(genuine.headers.get("location")!)).toEqual(["vetdx/read"]);
  });

  it("refuses an Allow without a choice, or with an unknown one, and issues no code", async () => {
    const owner = await createTestVet(handle.db);
    const screen = await screenFor("vetdx/read vetdx/tools", owner.id);
    for (const access of [undefined, "admin", "read write", "x".repeat(5000)]) {
      const response = await screen.answer(access);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
    }
    expect(await consentOf(owner.id)).toBeUndefined();
    const [stillOpen] = await handle.db
      .select({ id: oauthAuthorizationRequests.id })
      .from(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, screen.requestId));
    expect(stillOpen).toBeDefined();
  });

  it("binds the choice to the vet's own request: another vet's token cannot answer it", async () => {
    const mallory = await createTestVet(handle.db);
    const victim = await createTestVet(handle.db);
    const theirs = await screenFor("vetdx/read vetdx/write", victim.id);
    const mine = await screenFor("vetdx/read vetdx/write", mallory.id);
    const myCsrf = /name="csrf_token" value="([^"]+)"/.exec(mine.html)![1]!;
    const crossed = await consentForm(
      { request_id: theirs.requestId, csrf_token: myCsrf, decision: "allow", access: "read_write" },
      `vetdx_consent_${theirs.requestId}=${myCsrf}`,
    );
    expect(crossed.status).toBe(403);
    expect(await consentOf(victim.id)).toBeUndefined();
  });
});

describe("/callback problems are local pages", () => {
  it("refuses a replayed callback, an unknown state and an expired request", async () => {
    const { upstream, callbackParams, requestId } = await begin(vet.id, "vetdx/read");
    await completeUpstreamSignIn(handle.db, callbackParams, { upstream });
    await expect(completeUpstreamSignIn(handle.db, callbackParams, { upstream })).rejects.toThrow(
      /expired or was already used/,
    );
    await expect(
      completeUpstreamSignIn(handle.db, new URLSearchParams({ code: "c", state: "nope" }), { upstream }),
    ).rejects.toBeInstanceOf(AuthorizationPageError);
    const late = await begin();
    await expect(
      completeUpstreamSignIn(handle.db, late.callbackParams, {
        upstream: late.upstream,
        now: new Date(Date.now() + 11 * 60_000),
      }),
    ).rejects.toThrow(/expired/);
    expect(requestId).toBeTruthy();
  });

  it("shows a page when the exchange fails or the person has no account; a cancel goes back as access_denied", async () => {
    const failing = await begin();
    const broken = fakeUpstream(() => {
      throw new Error("nonce mismatch");
    });
    await expect(
      completeUpstreamSignIn(handle.db, failing.callbackParams, { upstream: broken }),
    ).rejects.toThrow(/could not be completed/);
    const stranger = await begin("00000000-0000-4000-8000-000000000000");
    const refused = completeUpstreamSignIn(handle.db, stranger.callbackParams, {
      upstream: stranger.upstream,
    });
    await expect(refused).rejects.toMatchObject({ status: 403 });

    const disabled = await createTestVet(handle.db);
    await handle.db
      .update(veterinarians)
      .set({ disabledAt: new Date() })
      .where(eq(veterinarians.id, disabled.id));
    const disabledAttempt = await begin(disabled.id);
    await expect(
      completeUpstreamSignIn(handle.db, disabledAttempt.callbackParams, {
        upstream: disabledAttempt.upstream,
      }),
    ).rejects.toMatchObject({ status: 403 });

    const cancelled = await begin();
    const outcome = await completeUpstreamSignIn(
      handle.db,
      new URLSearchParams({ error: "access_denied", state: cancelled.requestId }),
      { upstream: cancelled.upstream },
    );
    expect(outcome.kind).toBe("redirect");
    if (outcome.kind === "redirect") {
      const location = new URL(outcome.location);
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("state")).toBe("st-123");
    }
    const upstreamFailure = await begin();
    await expect(
      completeUpstreamSignIn(
        handle.db,
        new URLSearchParams({ error: "server_error", state: upstreamFailure.requestId }),
        { upstream: upstreamFailure.upstream },
      ),
    ).rejects.toBeInstanceOf(AuthorizationPageError);
    const rows = await handle.db
      .select()
      .from(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, upstreamFailure.requestId));
    expect(rows).toHaveLength(0);
  });
});
