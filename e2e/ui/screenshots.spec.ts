// Screenshots of every dashboard page at 1280 and 390 px wide, for the closing note:
// docs/screenshots/<page>-<width>.png.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { e2eServer } from "../fixtures/server";
import { expect, SIGNED_OUT, test } from "../fixtures/signed-in";
import { CasePage, NewCasePage } from "../pages/dashboard-pages";

const OUT = path.join(process.cwd(), "docs", "screenshots");
const WIDTHS = [1280, 390];
const NOTES =
  "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. Mild abdominal pain on palpation. No diarrhoea. Temp 39.4 C.";

test("every dashboard page at 1280 and 390 px", async ({ page, browser }) => {
  test.setTimeout(180_000);
  mkdirSync(OUT, { recursive: true });
  const form = new NewCasePage(page);
  await form.goto();
  const caseId = await form.create(NOTES);
  const casePage = new CasePage(page);
  await casePage.waitUntilCompleted();
  await casePage.selectTopDiagnosisInEditor();
  await expect(page.getByTestId("working-diagnosis")).toBeVisible();
  await casePage.generateSoapNotes();

  const pages: [string, string][] = [
    ["home", "/"],
    ["cases", "/cases"],
    ["cases-new", "/cases/new"],
    ["case", `/cases/${caseId}`],
    ["connections", "/connections"],
    ["profile", "/profile"],
    ["operators", "/operators"],
  ];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, url] of pages) {
      await page.goto(url);
      if (name === "case") {
        await expect(casePage.editor().getByTestId("case-notes")).toBeVisible();
        await page.waitForTimeout(500);
      }
      await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
    }
  }

  const signedOut = await browser.newContext({ baseURL: e2eServer.url, storageState: SIGNED_OUT });
  const visitor = await signedOut.newPage();
  for (const width of WIDTHS) {
    await visitor.setViewportSize({ width, height: 900 });
    await visitor.goto("/signin?callbackUrl=%2Fcases");
    await visitor.screenshot({ path: path.join(OUT, `signin-${width}.png`), fullPage: true });
  }
  await signedOut.close();
});
