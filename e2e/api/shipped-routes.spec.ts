// What the production build does not serve (issue 14, finding 12): the benchmark's floor routes
// are compiled only into bench/rest.ts's own build, and /api/inngest is a plain 404 while Inngest is
// not configured (the e2e server runs the inline runner).
import { expect, test } from "@playwright/test";

test("the benchmark floors are not part of the app", async ({ request }) => {
  for (const path of ["/api/floor", "/api/floor/0b8e6f4e-6a0b-4a6e-9d7c-3f1e2a1b0c9d"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).not.toContain('"ok":true');
  }
});

test("/api/inngest answers 404 problem+json for every method without Inngest", async ({ request }) => {
  for (const method of ["GET", "PUT", "POST"] as const) {
    const response = await request.fetch("/api/inngest", {
      method,
      headers: { "content-type": "application/json" },
      data: method === "GET" ? undefined : "{}",
    });
    expect(response.status(), method).toBe(404);
    expect(response.headers()["content-type"], method).toBe("application/problem+json");
  }
});
