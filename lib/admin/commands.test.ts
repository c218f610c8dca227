// Operator commands (the admin CLI and the server's admin socket run these).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { AppError } from "@/lib/errors";
import { verifyPassword } from "@/lib/auth/passwords";
import { veterinarians } from "@/db/schema";
import { eq } from "drizzle-orm";
import { runAdminCommand } from "./commands";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const run = (command: string[], options: Record<string, unknown> = {}) =>
  runAdminCommand(handle.db, { command, options }) as Promise<Record<string, unknown>>;

describe("vets", () => {
  it("creates a vet with an argon2id password, generated when not given", async () => {
    const vet = await run(["vets", "create"], { email: "Jane.Doe@Example.com", name: "Dr Jane Doe" });
    expect(vet).toMatchObject({ email: "jane.doe@example.com", role: "vet", password: expect.any(String) });
    const [row] = await handle.db
      .select()
      .from(veterinarians)
      .where(eq(veterinarians.id, vet.id as string));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row?.passwordHash, vet.password as string)).toBe(true);
  });

  it("refuses a duplicate email, a bad email and a short password", async () => {
    await run(["vets", "create"], { email: "dup@example.com", name: "A" });
    await expect(run(["vets", "create"], { email: "DUP@example.com", name: "B" })).rejects.toMatchObject({
      kind: "conflict",
    });
    await expect(run(["vets", "create"], { email: "not-an-email", name: "B" })).rejects.toBeInstanceOf(
      AppError,
    );
    await expect(
      run(["vets", "create"], { email: "c@example.com", name: "C", password: "short" }),
    ).rejects.toMatchObject({
      kind: "validation",
    });
  });
});

describe("clients", () => {
  it("creates, lists, rotates and revokes a machine client", async () => {
    const created = await run(["clients", "create"], {
      name: "Partner PIMS",
      scopes: "vetdx/read vetdx/tools",
      "embed-origin": ["https://partner.example/"],
    });
    expect(created).toMatchObject({
      client_id: expect.stringMatching(/^m2m_/),
      client_secret: expect.any(String),
      scopes: "vetdx/read vetdx/tools",
      embed_origins: ["https://partner.example"],
    });
    const listed = (await runAdminCommand(handle.db, {
      command: ["clients", "list"],
      options: {},
    })) as Record<string, unknown>[];
    expect(listed.find((c) => c.client_id === created.client_id)).not.toHaveProperty("client_secret");
    const rotated = await run(["clients", "rotate-secret", created.client_id as string]);
    expect(rotated.client_secret).not.toBe(created.client_secret);
    const revoked = await run(["clients", "revoke", created.client_id as string]);
    expect(revoked.revoked_at).not.toBeNull();
    await expect(run(["clients", "rotate-secret", created.client_id as string])).rejects.toMatchObject({
      kind: "conflict",
    });
  });

  it("refuses unknown scopes, bad embed origins and unknown ids", async () => {
    await expect(run(["clients", "create"], { name: "X", scopes: "vetdx/admin" })).rejects.toMatchObject({
      kind: "validation",
    });
    await expect(
      run(["clients", "create"], { name: "X", "embed-origin": ["javascript:alert(1)"] }),
    ).rejects.toMatchObject({
      kind: "validation",
    });
    await expect(
      run(["clients", "create"], { name: "X", "embed-origin": ["https://a.example/path"] }),
    ).rejects.toMatchObject({
      kind: "validation",
    });
    await expect(run(["clients", "revoke", "m2m_nope"])).rejects.toMatchObject({ kind: "not_found" });
    await expect(run(["clients", "frobnicate"])).rejects.toMatchObject({ kind: "validation" });
  });

  it("links a client of an external identity provider without a secret", async () => {
    const linked = await run(["clients", "link"], {
      "client-id": "7abc-cognito",
      name: "Cognito app",
      scopes: "vetdx/read",
    });
    expect(linked).toMatchObject({ client_id: "7abc-cognito" });
    expect(linked).not.toHaveProperty("client_secret");
  });
});
