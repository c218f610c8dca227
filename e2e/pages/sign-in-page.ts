// Page object for the embedded identity provider's sign-in form.
import { expect, type Page } from "@playwright/test";

export class SignInPage {
  constructor(private readonly page: Page) {}

  async expectShown() {
    await expect(this.page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(this.page).toHaveURL(/\/idp\/interaction\//);
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  async expectError(text: RegExp) {
    await expect(this.page.getByRole("alert")).toHaveText(text);
  }
}
