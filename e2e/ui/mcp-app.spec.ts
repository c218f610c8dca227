// The diagnostics MCP App in a real host: a page built on ext-apps' own host side (AppBridge), on
// another origin than VetDx, under a CSP without 'unsafe-eval', renders the view in a sandboxed
// frame from get_case's result, with the view's tool calls going through the host to /mcp with
// an M2M token. Also writes docs/screenshots/mcp-app-host.png (the reference host, not Claude or
// ChatGPT: those cannot be driven offline).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test, type Page } from "@playwright/test";
import { startReferenceHost, type ReferenceHost } from "../fixtures/mcp-app-host/server";
import { e2eServer } from "../fixtures/server";

interface HostWindow {
  hostEvents: { sizes: { height?: number }[]; modelContext: unknown[]; initialized: boolean };
  openView(tool: string, args: Record<string, unknown>): Promise<void>;
  setTheme(theme: "light" | "dark"): Promise<void>;
  teardownView(): Promise<void>;
}

async function m2mToken(): Promise<string> {
  const { client } = e2eServer.demoCredentials();
  const response = await fetch(`${e2eServer.url}/idp/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource: `${e2eServer.url}/mcp` }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

let host: ReferenceHost;
let vet: Client;
let caseId: string;

test.beforeAll(async () => {
  const token = await m2mToken();
  vet = new Client({ name: "vetdx-e2e", version: "1.0.0" });
  await vet.connect(
    new StreamableHTTPClientTransport(new URL(`${e2eServer.url}/mcp`), {
      authProvider: { token: async () => token },
    }),
  );
  const created = await vet.callTool({
    name: "create_case",
    arguments: {
      notes:
        "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. Mild abdominal pain on palpation. No diarrhoea.",
    },
  });
  caseId = (created.structuredContent as { id: string }).id;
  await vet.callTool({ name: "wait_for_case", arguments: { case_id: caseId, timeout_seconds: 60 } });
  host = await startReferenceHost(`${e2eServer.url}/mcp`, token);
});

test.afterAll(async () => {
  await host?.close();
  await vet?.close();
});

/**
 * Console errors of the host page and the view. Not counted: the host client's GET /mcp, which
 * VetDx (stateless) answers 405 and the browser logs as a failed load; the SDK expects it.
 */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    const relayedGet = message.location().url === `${host.hostOrigin}/mcp` && / 405 /.test(message.text());
    if (message.type() === "error" && !relayedGet)
      errors.push(`${message.location().url}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

const events = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).hostEvents);

async function openView(page: Page, tool: string, args: Record<string, unknown>) {
  await page.goto(`${host.hostOrigin}/?sandbox=${encodeURIComponent(host.sandboxOrigin)}`);
  await page.evaluate(([name, input]) => (window as unknown as HostWindow).openView(name, input), [
    tool,
    args,
  ] as const);
  return page.frameLocator("#view");
}

test("the view renders get_case's answer, changes the case through the host, resizes and tears down", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const view = await openView(page, "get_case", { case_id: caseId });

  // Initialised, the case shown from the tool result, its size and the vet's context sent.
  await expect(view.getByRole("heading", { name: "Diagnostics · Bella" })).toBeVisible();
  await expect(view.getByTestId("differentials").getByRole("listitem").first()).toBeVisible();
  expect((await events(page)).initialized).toBe(true);
  await expect.poll(async () => (await events(page)).sizes.length).toBeGreaterThan(0);
  await expect
    .poll(async () => JSON.stringify((await events(page)).modelContext.at(-1) ?? null))
    .toContain(caseId);

  // The vet picks the top differential: select_diagnosis goes through the host to /mcp.
  const choose = view.getByRole("button", { name: /^Select .+ as the diagnosis$/ }).first();
  const diagnosis = (await choose.getAttribute("aria-label"))!.replace(
    /^Select (.+) as the diagnosis$/,
    "$1",
  );
  await choose.click();
  await expect(view.getByRole("button", { name: `${diagnosis} is the working diagnosis` })).toBeVisible();
  expect(host.toolCalls).toContain("select_diagnosis");
  const stored = await vet.callTool({ name: "get_case", arguments: { case_id: caseId } });
  expect(
    (stored.structuredContent as { selected_diagnoses: { name: string }[] }).selected_diagnoses[0]?.name,
  ).toBe(diagnosis);
  // The model is told the working diagnosis.
  await expect
    .poll(async () => JSON.stringify((await events(page)).modelContext.at(-1)))
    .toContain(`Working diagnosis: ${diagnosis}`);

  // The frame is as tall as the view says before it is photographed.
  await expect
    .poll(async () => {
      const last = (await events(page)).sizes.at(-1)?.height;
      return page.evaluate((height) => document.getElementById("view")!.clientHeight === height, last);
    })
    .toBe(true);
  // The view is a frame of another origin (another renderer): a viewport as tall as the page
  // photographs all of it, where a full-page screenshot leaves its lower part blank.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await page.waitForTimeout(500);
  mkdirSync(path.join(process.cwd(), "docs", "screenshots"), { recursive: true });
  await page.screenshot({
    path: path.join(process.cwd(), "docs", "screenshots", "mcp-app-host.png"),
    fullPage: true,
  });

  // Narrower: the view's two columns become one and it reports a taller size.
  const wide = (await events(page)).sizes.at(-1)!.height!;
  await page.evaluate(() => {
    document.getElementById("view")!.style.width = "420px";
  });
  await expect.poll(async () => (await events(page)).sizes.at(-1)!.height!).toBeGreaterThan(wide);

  // The host offers full screen; the view asks for it and follows the host's answer.
  await view.getByRole("button", { name: "Full screen" }).click();
  await expect(view.getByRole("button", { name: "Exit full screen" })).toBeVisible();

  // The host's theme reaches the view.
  await page.evaluate(() => (window as unknown as HostWindow).setTheme("dark"));
  await expect(view.locator("html")).toHaveAttribute("data-theme", "dark");

  // Teardown: the view unmounts.
  await page.evaluate(() => (window as unknown as HostWindow).teardownView());
  await expect(view.locator("#root")).toBeEmpty();

  expect(errors).toEqual([]);
});

test("a case the caller cannot see: the view shows the tool's error and no data", async ({ page }) => {
  const errors = consoleErrors(page);
  const view = await openView(page, "get_case", { case_id: "00000000-0000-4000-8000-000000000000" });
  await expect(view.getByTestId("view-message")).toContainText(/not found/i);
  await expect(view.getByRole("heading", { name: /^Diagnostics/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});
