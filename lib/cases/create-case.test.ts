// createCase hands the stored case to the runner its caller supplies (Inngest or the inline runner,
// chosen in inngest/runner.ts), and a runner that cannot take it leaves the case in ERROR.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import type { Identity } from "@/lib/auth/identity";
import { AppError } from "@/lib/errors";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import type { CaseRunner, NewCase } from "./case-runner";
import { createCase } from "./create-case";

let handle: DatabaseHandle;
let identity: Identity;

beforeAll(async () => {
  handle = await openTestDatabase();
  const vet = await createVeterinarian(handle.db, { email: "runner@example.com", name: "Dr R" });
  identity = {
    veterinarianId: vet.id,
    kind: "human",
    email: "runner@example.com",
    name: "Dr R",
    role: "vet",
    scopes: ["vetdx/user.write"],
    clientId: null,
    authMethod: "session",
  };
});
afterAll(() => handle.close());

const notes = { notes: "Dog, 4 years, vomiting since yesterday." };
const read = async (id: string) => (await handle.db.select().from(cases).where(eq(cases.id, id)))[0]!;

describe("createCase", () => {
  it("stores the case PENDING and hands it to the runner it is given", async () => {
    const dispatched: NewCase[] = [];
    const runner: CaseRunner = { dispatch: async (newCase) => void dispatched.push(newCase) };
    const created = await createCase(handle.db, identity, notes, runner);
    expect(created.status).toBe("PENDING");
    expect(dispatched).toEqual([{ caseId: created.id, veterinarianId: identity.veterinarianId }]);
    expect((await read(created.id)).status).toBe("PENDING");
  });

  it("ends the case in ERROR and answers unavailable when the runner cannot take it", async () => {
    const runner: CaseRunner = {
      dispatch: async () => {
        throw new Error("event API unreachable");
      },
    };
    const failure = await createCase(handle.db, identity, notes, runner).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ kind: "unavailable", status: 503 });
    const stored = await handle.db
      .select()
      .from(cases)
      .where(eq(cases.veterinarianId, identity.veterinarianId));
    const failed = stored.filter((c) => c.status === "ERROR");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatchObject({ code: "dispatch_failed", step: "dispatch" });
  });
});
