// The embeddable diagnostics component as a partner uses it: a host page on another origin
// (127.0.0.1) frames the session URL with /embed.js and hears the component's events; a host on an
// origin the session does not allow cannot frame it; changes persist; expired and unknown sessions
// show an error with no data; case text is escaped; the first-load JavaScript stays small.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { e2eServer } from "../fixtures/server";
import { freePort } from "../../test/free-port";

const APP = e2eServer.url;
const XSS = "<img src=x onerror=alert(1)>";
const NOTES = `Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. No diarrhoea. Owner note: ${XSS}`;

interface HostEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** A partner page on its own origin: frames `?session=<url>` with /embed.js and records events. */
function hostPage(appUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner practice software</title></head>
<body>
<h1>Partner practice software</h1>
<div id="vetdx"></div>
<script>
  window.__events = [];
  window.__raw = [];
  window.addEventListener("message", function (e) { window.__raw.push({ origin: e.origin, data: e.data }); });
</script>
<script src="${appUrl}/embed.js"></script>
<script>
  VetDx.embed({
    url: new URLSearchParams(location.search).get("session"),
    container: "#vetdx",
    onEvent: function (event) { window.__events.push(event); },
  });
</script>
</body></html>`;
}

async function startHost(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(hostPage(APP));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function bearer(
  request: APIRequestContext,
  baseUrl = APP,
  credentials = e2eServer.demoCredentials().client,
) {
  const response = await request.post(`${baseUrl}/idp/oauth2/token`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString("base64")}`,
    },
    form: { grant_type: "client_credentials" },
  });
  expect(response.status()).toBe(200);
  return { authorization: `Bearer ${(await response.json()).access_token}` };
}

async function completedCase(request: APIRequestContext, headers: Record<string, string>, baseUrl = APP) {
  const created = await request.post(`${baseUrl}/v1/cases`, { headers, data: { notes: NOTES } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await expect
    .poll(async () => (await (await request.get(`${baseUrl}/v1/cases/${id}`, { headers })).json()).status, {
      timeout: 60_000,
    })
    .toBe("COMPLETED");
  return id as string;
}

async function session(
  request: APIRequestContext,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  baseUrl = APP,
) {
  const response = await request.post(`${baseUrl}/v1/sessions`, {
    headers,
    data: { component: "diagnostics", ...body },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { session_id: string; url: string };
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: HostEvent[] }).__events);
const ofType = async (page: Page, type: string) => (await events(page)).filter((e) => e.type === type);

test.describe("the diagnostics component embedded by a partner", () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  let otherHost: Awaited<ReturnType<typeof startHost>>;

  test.beforeAll(async () => {
    host = await startHost();
    otherHost = await startHost();
  });
  test.afterAll(async () => {
    await host.close();
    await otherHost.close();
  });

  test("events reach the allowed host once each, changes persist, case text is escaped", async ({
    page,
    request,
  }) => {
    const headers = await bearer(request);
    const caseId = await completedCase(request, headers);
    const { url } = await session(request, headers, { case_id: caseId, parent_origin: host.origin });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await page.goto(`${host.origin}/?session=${encodeURIComponent(url)}`);
    const frame = page.frameLocator("iframe");

    // init, with the case.
    await expect.poll(() => ofType(page, "init")).toHaveLength(1);
    const [init] = await ofType(page, "init");
    expect(init!.payload).toMatchObject({
      mode: "case",
      case_id: caseId,
      case: { id: caseId, status: "COMPLETED", notes: NOTES },
    });

    // The notes render as text, key phrases highlighted; the markup in them is not markup.
    await expect(frame.getByTestId("case-notes")).toContainText(XSS);
    await expect(frame.getByTestId("case-notes").locator("img")).toHaveCount(0);
    await expect(frame.getByTestId("case-notes").locator("mark").first()).toBeVisible();

    // resize: the host sizes the frame to the content.
    await expect.poll(async () => (await ofType(page, "resize")).length).toBeGreaterThan(0);
    const lastHeight = (await ofType(page, "resize")).at(-1)!.payload.height as number;
    expect(lastHeight).toBeGreaterThan(200);
    await expect
      .poll(() => page.locator("iframe").evaluate((el) => (el as HTMLIFrameElement).style.height))
      .toBe(`${Math.ceil(lastHeight)}px`);

    // symptomSelected: add a sign from the catalogue.
    await frame.getByLabel("Add a sign from the catalogue").fill("coughing");
    await frame.getByRole("button", { name: "Add coughing" }).click();
    await expect(frame.getByTestId("selected-signs")).toContainText("coughing");
    await expect
      .poll(() => ofType(page, "symptomSelected"))
      .toEqual([{ type: "symptomSelected", payload: { name: "coughing" } }]);

    // diagnoseSelected: pick the top differential once the ranking has caught up.
    const ddx = frame.locator('section[aria-labelledby="ddx-heading"][aria-busy="false"]');
    await expect(ddx.getByRole("button", { name: / as the diagnosis$/ }).first()).toBeEnabled();
    const label = (await ddx
      .getByRole("button", { name: / as the diagnosis$/ })
      .first()
      .getAttribute("aria-label"))!;
    const diagnosis = label.replace(/^Select /, "").replace(/ as the diagnosis$/, "");
    await ddx.getByRole("button", { name: label }).click();
    await expect(
      frame.getByRole("button", { name: `${diagnosis} is the working diagnosis` }),
    ).toHaveAttribute("aria-pressed", "true");
    await expect
      .poll(() => ofType(page, "diagnoseSelected"))
      .toEqual([{ type: "diagnoseSelected", payload: { name: diagnosis } }]);

    // save: the case is already saved; the event carries it.
    await frame.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(async () => (await ofType(page, "save")).length).toBe(1);
    const [save] = await ofType(page, "save");
    expect(save!.payload).toMatchObject({
      mode: "case",
      case_id: caseId,
      case: { selected_diagnoses: [{ name: diagnosis }] },
    });

    // soapNotesGenerated.
    await frame.getByRole("button", { name: "Generate SOAP notes" }).click();
    await expect(frame.getByTestId("soap-notes")).toContainText("S: Subjective");
    await expect.poll(async () => (await ofType(page, "soapNotesGenerated")).length).toBe(1);
    const [soap] = await ofType(page, "soapNotesGenerated");
    const notes = soap!.payload.notes as { text: string; assessment: string; generator: string };
    expect(notes.generator).toBe("local-soap-v1");
    expect(notes.assessment).toContain(`Working diagnosis: ${diagnosis}`);
    expect(notes.text).toContain("coughing");
    await expect(frame.getByTestId("soap-notes")).toContainText(XSS);

    // Every event arrived exactly once (resize aside), all from the components origin.
    const counts = (await events(page)).reduce<Record<string, number>>(
      (acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }),
      {},
    );
    expect({ ...counts, resize: undefined }).toEqual({
      init: 1,
      symptomSelected: 1,
      diagnoseSelected: 1,
      save: 1,
      soapNotesGenerated: 1,
      resize: undefined,
    });
    const raw = await page.evaluate(
      () => (window as unknown as { __raw: { origin: string; data: unknown }[] }).__raw,
    );
    expect(new Set(raw.map((m) => m.origin))).toEqual(new Set([new URL(APP).origin]));
    expect(raw.every((m) => typeof m.data === "string")).toBe(true);

    // The selection survives a reload and is on the case.
    const rest = await (await request.get(`${APP}/v1/cases/${caseId}`, { headers })).json();
    const cough = (await (await request.get(`${APP}/v1/symptoms?q=coughing&limit=1`, { headers })).json())
      .data[0];
    expect(rest.selected_symptoms).toEqual(expect.arrayContaining([{ id: cough.id, significant: false }]));
    expect(rest.selected_diagnoses).toEqual([
      { id: expect.any(Number), name: diagnosis, selected_at: expect.any(String) },
    ]);
    expect(rest.soap_notes.text).toBe(notes.text);
    await page.reload();
    await expect(page.frameLocator("iframe").getByTestId("selected-signs")).toContainText("coughing");
    await expect(
      page.frameLocator("iframe").getByRole("button", { name: `${diagnosis} is the working diagnosis` }),
    ).toHaveAttribute("aria-pressed", "true");
    await expect(page.frameLocator("iframe").getByTestId("soap-notes")).toContainText("S: Subjective");

    expect(dialogs).toEqual([]);
  });

  test("a host on an origin the session does not allow cannot frame it and hears nothing", async ({
    page,
    request,
  }) => {
    const headers = await bearer(request);
    const caseId = await completedCase(request, headers);
    const { url } = await session(request, headers, { case_id: caseId, parent_origin: host.origin });

    const direct = await request.get(url);
    expect(direct.status()).toBe(200);
    expect(direct.headers()["content-security-policy"]).toContain(`frame-ancestors ${host.origin}`);
    expect(direct.headers()["content-security-policy"]).toContain("object-src 'none'");
    expect(direct.headers()["referrer-policy"]).toBe("no-referrer");

    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/frame-ancestors|Refused to frame/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${otherHost.origin}/?session=${encodeURIComponent(url)}`);
    await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as unknown as { __raw: unknown[] }).__raw)).toEqual([]);
    expect(await events(page)).toEqual([]);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(
      frame &&
        (await frame
          .locator("text=Clinical notes")
          .count()
          .catch(() => 0)),
    ).toBeFalsy();
  });

  test("an unknown session shows an error page with no data (404, framable by nobody)", async ({ page }) => {
    const response = await page.goto(`${APP}/components/diagnostics/${"x".repeat(43)}`);
    expect(response!.status()).toBe(404);
    expect(response!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await expect(page.getByTestId("session-error")).toContainText("Session not found");
    await expect(page.getByText("Clinical notes")).toHaveCount(0);
    const short = await page.goto(`${APP}/components/diagnostics/nope`);
    expect(short!.status()).toBe(404);
  });

  test("the component works from the keyboard at 360 px, free-form without a case, in little JavaScript", async ({
    page,
    request,
  }) => {
    const headers = await bearer(request);
    const { url } = await session(request, headers, { parent_origin: host.origin });
    let scriptBytes = 0;
    const scripts: Promise<void>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") {
        scripts.push(response.body().then((body) => void (scriptBytes += gzipSync(body).length)));
      }
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(url);
    await expect(page.getByRole("heading", { name: "Diagnostics (free-form)" })).toBeVisible();
    await Promise.all(scripts);
    const size = `${(scriptBytes / 1024).toFixed(1)} kB`;
    test.info().annotations.push({ type: "first-load JS (gzip)", description: size });
    console.log(`component first-load JavaScript: ${size} gzipped`);
    expect(scriptBytes).toBeLessThanOrEqual(150 * 1024);

    // Keyboard only: species, then a sign, then a diagnosis.
    await page.getByLabel("Species").focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByLabel("Species")).not.toHaveValue("");
    await page.getByLabel("Add a sign from the catalogue").focus();
    await page.keyboard.type("vomiting");
    await expect(page.getByRole("button", { name: "Add vomiting", exact: true })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Add vomiting", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("selected-signs")).toContainText("vomiting");
    const ranked = page.locator('section[aria-labelledby="ddx-heading"][aria-busy="false"]');
    await expect(ranked.getByText(/Supported by: .*vomiting/).first()).toBeVisible();
    const first = ranked.getByRole("button", { name: / as the diagnosis$/ }).first();
    await first.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: / is the working diagnosis$/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test.describe("an expired session", () => {
  let server: ChildProcess | undefined;
  let dataDir: string | undefined;

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("shows an error page with no data (410, framable by nobody)", async ({ page, request }) => {
    test.setTimeout(180_000);
    // A second server on the same build whose sessions last two seconds.
    const port = await freePort();
    const base = `http://localhost:${port}`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), "vetdx-e2e-expiry-"));
    let output = "";
    server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        ...e2eServer.env,
        PORT: String(port),
        APP_URL: base,
        DATA_DIR: dataDir,
        COMPONENT_SESSION_TTL_SECONDS: "2",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk) => void (output += chunk));
    server.stderr!.on("data", (chunk) => void (output += chunk));
    await expect
      .poll(
        async () => {
          if (server!.exitCode !== null) throw new Error(`the second server exited:\n${output}`);
          return (await request.get(`${base}/readyz`).catch(() => null))?.status() ?? 0;
        },
        { timeout: 150_000, intervals: [1000] },
      )
      .toBe(200);
    // On PostgreSQL both servers share the e2e database, whose demo accounts the main server made.
    const credentials = e2eServer.env.DATABASE_URL
      ? e2eServer.demoCredentials().client
      : JSON.parse(readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")).client;
    const headers = await bearer(request, base, credentials);
    const caseId = await completedCase(request, headers, base);
    const { url } = await session(
      request,
      headers,
      { case_id: caseId, parent_origin: "http://127.0.0.1:9" },
      base,
    );
    await page.waitForTimeout(2500);
    const response = await page.goto(url);
    expect(response!.status()).toBe(410);
    expect(response!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await expect(page.getByTestId("session-error")).toContainText("This session has expired");
    await expect(page.getByText("Bella")).toHaveCount(0);
    await expect(page.getByText("Clinical notes")).toHaveCount(0);
    const api = await request.get(`${url}/api/case`);
    expect(api.status()).toBe(410);
    expect(await api.text()).not.toContain("Bella");
  });
});
