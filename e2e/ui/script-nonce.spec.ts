// Pages run their scripts under a nonce policy (issue 14, finding 14c): no 'unsafe-inline' for
// scripts, a fresh nonce per response that Next.js puts on every script it renders, and in a real
// Chromium the component page hydrates and works, and no page reports a CSP violation.
import { expect, test, type Page } from "@playwright/test";
import { e2eServer } from "../fixtures/server";

const APP = e2eServer.url;

/** Collects the CSP violations `page` reports, from the console and from the DOM event. */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
      violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { reportViolation: (text: string) => void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      ),
    ),
  );
  return violations;
}

/** The response's script nonce, after checking every script on the page carries it. */
async function expectNoncedScripts(page: Page, csp: string): Promise<string> {
  const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src"))!;
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
  expect(nonce).toBeTruthy();
  const scriptNonces = await page.evaluate(() => [...document.scripts].map((script) => script.nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  return nonce!;
}

test("the component page works under a per-response script nonce, with no CSP violation", async ({
  page,
  request,
}) => {
  const { client_id, client_secret } = e2eServer.demoCredentials().client;
  const token = await request.post(`${APP}/idp/oauth2/token`, {
    headers: { authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString("base64")}` },
    form: { grant_type: "client_credentials" },
  });
  const headers = { authorization: `Bearer ${(await token.json()).access_token}` };
  const created = await request.post(`${APP}/v1/sessions`, {
    headers,
    data: { component: "diagnostics", parent_origin: "http://127.0.0.1:9" },
  });
  expect(created.status()).toBe(201);
  const { url } = await created.json();

  const violations = await recordViolations(page);
  const response = await page.goto(url);
  expect(response!.status()).toBe(200);
  const nonce = await expectNoncedScripts(page, response!.headers()["content-security-policy"]!);

  // Hydrated: the species picker and the catalogue search answer the keyboard.
  await expect(page.getByRole("heading", { name: "Diagnostics (free-form)" })).toBeVisible();
  await page.getByLabel("Species").focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel("Species")).not.toHaveValue("");
  await page.getByLabel("Add a sign from the catalogue").fill("vomiting");
  await expect(page.getByRole("button", { name: "Add vomiting", exact: true })).toBeVisible();

  const again = await request.get(url);
  expect(again.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);
  expect(violations).toEqual([]);
});

test("the sign-in page and the not-found page run their scripts by nonce, with no CSP violation", async ({
  page,
}) => {
  const violations = await recordViolations(page);
  for (const [path, status] of [
    ["/signin", 200],
    ["/no-such-page", 404],
  ] as const) {
    const response = await page.goto(`${APP}${path}`);
    expect(response!.status(), path).toBe(status);
    await expectNoncedScripts(page, response!.headers()["content-security-policy"]!);
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
});
