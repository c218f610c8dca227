// The vet signs in at the embedded identity provider from the dashboard, and signs out again.
import { expect, test } from "@playwright/test";
import { e2eServer } from "../fixtures/server";
import { SignInPage } from "../pages/sign-in-page";

test("a vet signs in at the identity provider and lands signed in", async ({ page }) => {
  const { vet } = e2eServer.demoCredentials();
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in" }).click();
  const signIn = new SignInPage(page);
  await signIn.expectShown();

  await signIn.signIn(vet.email, "wrong-password-123");
  await signIn.expectError(/incorrect/);

  await signIn.signIn(vet.email, vet.password);
  await expect(page).toHaveURL(`${e2eServer.url}/`);
  await expect(page.getByTestId("signed-in-as")).toContainText(vet.email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Welcome, Dr Demo Vet/);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});

test("the sign-in page keeps credentials on the identity provider and cannot be framed", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in" }).click();
  await new SignInPage(page).expectShown();
  const response = await page.request.get(page.url());
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.locator("form")).toHaveAttribute("method", "post");
  await expect(page.locator("form")).toHaveAttribute("action", /\/idp\/interaction\/.+\/login$/);
});
