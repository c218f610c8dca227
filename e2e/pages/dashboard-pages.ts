// Page objects for the signed-in vet dashboard.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** Fails on serious or critical axe-core violations (WCAG 2.1 A/AA rules), in light and dark. */
export async function expectAccessible(page: Page, label: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    // A re-render after an update (a refresh of the server components) can briefly leave the
    // document without its <title>; judge the settled page (a page that never gets one still fails).
    await expect(page).toHaveTitle(/\S/);
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    const summary = serious.map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`,
    );
    expect(summary, `axe on ${label} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

export class CasesPage {
  constructor(private readonly page: Page) {}

  async goto(query = "") {
    await this.page.goto(`/cases${query}`);
    await expect(this.page.getByRole("heading", { level: 1, name: "Cases" })).toBeVisible();
  }

  rows(): Locator {
    return this.page.getByTestId("case-row");
  }

  row(caseId: string): Locator {
    return this.page.locator(`[data-testid="case-row"][data-case-id="${caseId}"]`);
  }

  async search(text: string) {
    await this.page.getByLabel("Search patient or notes").fill(text);
    await this.page.getByRole("button", { name: "Search" }).click();
  }
}

export class NewCasePage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/cases/new");
    await expect(this.page.getByRole("heading", { level: 1, name: "New case" })).toBeVisible();
  }

  /** Submits the notes and returns the new case's id from the page it lands on. */
  async create(notes: string): Promise<string> {
    await this.page.getByLabel("Case notes").fill(notes);
    await this.page.getByRole("button", { name: "Create case" }).click();
    await expect(this.page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").pop()!;
  }
}

export class CasePage {
  constructor(private readonly page: Page) {}

  async goto(caseId: string) {
    await this.page.goto(`/cases/${caseId}`);
  }

  status(): Locator {
    return this.page.locator(".case-progress").getByTestId("case-status");
  }

  async waitUntilCompleted() {
    await expect(this.status()).toHaveAttribute("data-status", "COMPLETED", { timeout: 60_000 });
    await expect(this.page.getByTestId("differentials")).toBeVisible();
  }

  editor() {
    return this.page.frameLocator('iframe[title="Diagnostics editor"]');
  }

  /** Picks the top-ranked differential in the embedded component; returns its name. */
  async selectTopDiagnosisInEditor(): Promise<string> {
    const ranked = this.editor().locator('section[aria-labelledby="ddx-heading"][aria-busy="false"]');
    const first = ranked.getByRole("button", { name: / as the diagnosis$/ }).first();
    await expect(first).toBeEnabled({ timeout: 20_000 });
    const label = (await first.getAttribute("aria-label"))!;
    const diagnosis = label.replace(/^Select /, "").replace(/ as the diagnosis$/, "");
    await first.click();
    await expect(
      this.editor().getByRole("button", { name: `${diagnosis} is the working diagnosis` }),
    ).toHaveAttribute("aria-pressed", "true");
    return diagnosis;
  }

  async generateSoapNotes() {
    await this.page
      .getByTestId("generate-soap")
      .getByRole("button", { name: /SOAP notes/ })
      .click();
    await expect(this.page.getByTestId("soap-notes")).toBeVisible({ timeout: 30_000 });
  }

  /**
   * Presses "Delete case" until the confirmation shows. Once in CI (2026-11-28) the press reached
   * the hydrated button while the page was still settling (the embedded editor reporting its
   * height) and no confirmation appeared; a vet would press again, and so does this.
   */
  async askToDelete() {
    await expect(async () => {
      await this.page.getByRole("button", { name: "Delete case" }).click({ timeout: 5_000 });
      await expect(this.page.getByRole("button", { name: "Yes, delete it" })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  }

  async delete() {
    await this.askToDelete();
    await this.page.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(this.page).toHaveURL(/\/cases(\?|$)/);
  }
}

export class OperatorsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/operators");
    await expect(this.page.getByRole("heading", { level: 1, name: "Operators" })).toBeVisible();
  }

  /** Creates a machine client with the default (all) scopes; returns the credentials shown once. */
  async createMachineClient(name: string) {
    const form = this.page.getByRole("form", { name: "Create a machine client" });
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Create client" }).click();
    await expect(form.getByTestId("revealed-client-secret")).toBeVisible();
    const clientId = await form.getByTestId("revealed-client-id").textContent();
    const clientSecret = await form.getByTestId("revealed-client-secret").textContent();
    return { clientId: clientId!.trim(), clientSecret: clientSecret!.trim() };
  }

  client(clientId: string): Locator {
    return this.page.locator(`[data-testid="machine-client"][data-client-id="${clientId}"]`);
  }
}
