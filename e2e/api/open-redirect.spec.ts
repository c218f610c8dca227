// The dashboard sign-in is not an open redirect: a hostile callbackUrl (absolute, protocol-relative,
// backslash) in a link to /signin reaches its sign-in button as "/"; posted straight to next-auth,
// through a planted callback-url cookie or with a forged X-Forwarded-Host, it still ends on the
// app's own origin after a real sign-in; so do next-auth's other redirects (its sign-in page, sign-out).
import { expect, test } from "@playwright/test";
import { signInOverHttp } from "../fixtures/http-sign-in";
import { e2eServer } from "../fixtures/server";

const HOSTILE = ["https://evil.example/", "//evil.example", "/\\evil.example", "/\\/evil.example/%2e%2e"];
const APP = new URL(e2eServer.url).origin;

test("a hostile callbackUrl posted to next-auth still lands on the app after signing in", async () => {
  const { vet } = e2eServer.demoCredentials();
  const attempts = [
    ...HOSTILE.map((callbackUrl) => ({ label: `callbackUrl=${callbackUrl}`, callbackUrl })),
    {
      label: "planted next-auth.callback-url cookie",
      cookies: [{ name: "next-auth.callback-url", value: "https://evil.example/" }],
    },
    {
      label: "forged X-Forwarded-Host",
      callbackUrl: "https://evil.example/",
      headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    },
  ];
  for (const attempt of attempts) {
    const signedIn = await signInOverHttp(e2eServer.url, { credentials: vet, ...attempt });
    const offsite = signedIn.hops.filter((hop) => hop.origin !== APP).map(String);
    expect(offsite, attempt.label).toEqual([]);
    // The callback really completed: the last redirect came from next-auth's callback.
    expect(
      signedIn.hops.some((hop) => hop.pathname === "/api/auth/callback/vetdx"),
      attempt.label,
    ).toBe(true);
    expect(signedIn.last.status(), attempt.label).toBeLessThan(500);
    await signedIn.context.dispose();
  }
});

test("next-auth's own redirects keep a hostile callbackUrl on the app", async ({ request }) => {
  for (const callbackUrl of HOSTILE) {
    const signInPage = await request.get(`/api/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, {
      maxRedirects: 0,
    });
    expect(signInPage.status()).toBeGreaterThanOrEqual(300);
    expect(signInPage.status()).toBeLessThan(400);
    const target = new URL(signInPage.headers()["location"]!, e2eServer.url);
    expect(target.origin).toBe(APP);
    const forwarded = target.searchParams.get("callbackUrl");
    expect(
      forwarded === null || new URL(forwarded, e2eServer.url).origin === APP,
      `${callbackUrl} → ${forwarded}`,
    ).toBe(true);

    const csrf = (await (await request.get("/api/auth/csrf")).json()).csrfToken as string;
    const signOut = await request.post("/api/auth/signout", {
      form: { csrfToken: csrf, callbackUrl, json: "true" },
    });
    expect(signOut.status()).toBe(200);
    const { url } = (await signOut.json()) as { url: string };
    expect(new URL(url, e2eServer.url).origin, `sign-out with ${callbackUrl} → ${url}`).toBe(APP);
  }
});

test("a link to /signin with a hostile callbackUrl hands the sign-in button a local path only", async ({
  request,
}) => {
  // The page passes callbackUrl to its client sign-in button in the RSC payload: {"callbackUrl":"…"}.
  const handed = async (callbackUrl: string) => {
    const page = await request.get(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    expect(page.status()).toBe(200);
    const escaped = /\\"callbackUrl\\":\\"(.*?)\\"\}/.exec(await page.text())?.[1];
    expect(escaped, `the sign-in button's callbackUrl for ${callbackUrl}`).toBeDefined();
    // Unescape the RSC payload's JS string, then its JSON string.
    return JSON.parse(`"${JSON.parse(`"${escaped}"`) as string}"`) as string;
  };
  expect(await handed("/cases?q=1")).toBe("/cases?q=1");
  for (const callbackUrl of [...HOSTILE, "\\\\evil.example", "javascript:alert(1)"]) {
    expect(await handed(callbackUrl), callbackUrl).toBe("/");
  }
});
