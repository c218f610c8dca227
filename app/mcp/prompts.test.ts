// /mcp prompts and argument completion with the official MCP client: the four prompts a vet picks
// from a menu, tenant-scoped, and the bad input (foreign or unknown cases, missing or unknown
// arguments, unknown conditions, huge completion prefixes).
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { cases } from "@/db/schema";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { machineToken } from "@/test/support";
import { connectMcpClient as connect } from "@/test/mcp-client";

let handle: DatabaseHandle;
let tokenA: string;
let tokenB: string;
let bella: string;
let tom: string;

async function rpcError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected an MCP error").toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

const patient = (name: string, animalTypeId: string) => ({
  animal_type_id: animalTypeId,
  breed: null,
  name,
  gender: null,
  weight: null,
  neutered: null,
});

beforeAll(async () => {
  handle = await openTestDatabase();
  const a = await machineToken(handle.db, undefined, "Clinic A");
  const b = await machineToken(handle.db, undefined, "Clinic B");
  tokenA = a.token;
  tokenB = b.token;
  const rows = await handle.db
    .insert(cases)
    .values([
      {
        veterinarianId: a.client.veterinarianId,
        notes: "Bella, 4mo dog, vomiting and bloody diarrhoea.",
        aiExtractedPatient: patient("Bella", "1"),
      },
      {
        veterinarianId: a.client.veterinarianId,
        notes: "Tom, 12y cat, drinking a lot, losing weight.",
        aiExtractedPatient: patient("Tom", "2"),
      },
    ])
    .returning({ id: cases.id });
  [bella, tom] = rows.map((row) => row.id) as [string, string];
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

const promptText = (result: { messages: { content: unknown }[] }) =>
  result.messages.map((m) => (m.content as { text: string }).text).join("\n");

describe("/mcp prompts", () => {
  it("lists the four prompts with their arguments", async () => {
    const client = await connect(tokenA);
    const { prompts } = await client.listPrompts();
    expect(Object.fromEntries(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)]))).toEqual({
      work_up_case: ["case_id"],
      write_soap_notes: ["case_id"],
      explain_to_owner: ["case_id"],
      compare_differentials: ["case_id", "first", "second", "species"],
    });
    for (const prompt of prompts) expect(prompt.description).toBeTruthy();
    await client.close();
  });

  it("builds each prompt for the vet's own case, naming the tools to call", async () => {
    const client = await connect(tokenA);
    for (const [name, tools] of [
      ["work_up_case", ["wait_for_case", "get_differential_diagnoses"]],
      ["write_soap_notes", ["get_case", "generate_soap_notes"]],
      ["explain_to_owner", ["get_case"]],
    ] as const) {
      const text = promptText(await client.getPrompt({ name, arguments: { case_id: bella } }));
      expect(text).toContain(bella);
      expect(text).toContain("Bella");
      for (const tool of tools) expect(text).toContain(tool);
    }
    const compared = promptText(
      await client.getPrompt({
        name: "compare_differentials",
        arguments: { case_id: bella, first: "parvo", second: "gastroenteritis" },
      }),
    );
    expect(compared).toMatch(/parvovir/i);
    expect(compared).toContain("get_diagnosis");
    await client.close();
  });

  it("refuses another vet's case, an unknown case and bad arguments with invalid params", async () => {
    const asB = await connect(tokenB);
    const foreign = await rpcError(asB.getPrompt({ name: "work_up_case", arguments: { case_id: bella } }));
    expect(foreign.code).toBe(-32602);
    expect(JSON.stringify(foreign)).not.toContain("Bella");
    const asA = await connect(tokenA);
    for (const args of [
      { case_id: "00000000-0000-4000-8000-000000000000" },
      { case_id: "x".repeat(101) },
      {},
      { case_id: bella, extra: "nope" },
    ] as Record<string, string>[]) {
      expect((await rpcError(asA.getPrompt({ name: "write_soap_notes", arguments: args }))).code).toBe(
        -32602,
      );
    }
    const unknownCondition = await rpcError(
      asA.getPrompt({
        name: "compare_differentials",
        arguments: { case_id: bella, first: "zzzzqqqq xxyy", second: "parvo" },
      }),
    );
    expect(unknownCondition.code).toBe(-32602);
    expect((await rpcError(asA.getPrompt({ name: "no_such_prompt", arguments: {} }))).code).toBe(-32602);
    await Promise.all([asA.close(), asB.close()]);
  });

  it("completes the vet's own case ids by prefix or patient name, and nobody else's", async () => {
    const asA = await connect(tokenA);
    const ref = { type: "ref/prompt" as const, name: "work_up_case" };
    const byName = await asA.complete({ ref, argument: { name: "case_id", value: "tom" } });
    expect(byName.completion.values).toEqual([tom]);
    const byId = await asA.complete({ ref, argument: { name: "case_id", value: bella.slice(0, 6) } });
    expect(byId.completion.values).toContain(bella);
    const all = await asA.complete({ ref, argument: { name: "case_id", value: "" } });
    expect(all.completion.values.sort()).toEqual([bella, tom].sort());
    const asB = await connect(tokenB);
    expect((await asB.complete({ ref, argument: { name: "case_id", value: "" } })).completion.values).toEqual(
      [],
    );
    expect(
      (await asB.complete({ ref, argument: { name: "case_id", value: bella.slice(0, 8) } })).completion
        .values,
    ).toEqual([]);
    await Promise.all([asA.close(), asB.close()]);
  });

  it("completes species and condition names, scoped by the case's species", async () => {
    const client = await connect(tokenA);
    const ref = { type: "ref/prompt" as const, name: "compare_differentials" };
    const species = await client.complete({ ref, argument: { name: "species", value: "ca" } });
    expect(species.completion.values).toContain("cat");
    const forDog = await client.complete({
      ref,
      argument: { name: "first", value: "parvo" },
      context: { arguments: { case_id: bella } },
    });
    expect(forDog.completion.values.join(" ")).toMatch(/parvovir/i);
    expect(forDog.completion.values.length).toBeLessThanOrEqual(100);
    const forCat = await client.complete({
      ref,
      argument: { name: "first", value: "" },
      context: { arguments: { case_id: tom } },
    });
    expect(forCat.completion.values.length).toBeGreaterThan(0);
    const anySpecies = await client.complete({ ref, argument: { name: "first", value: "diab" } });
    expect(anySpecies.completion.values.length).toBeGreaterThan(0);
    expect(new Set(anySpecies.completion.values).size).toBe(anySpecies.completion.values.length);
    await client.close();
  });

  it("answers a huge prefix quickly with nothing, and an oversized request with an error", async () => {
    const client = await connect(tokenA);
    const ref = { type: "ref/prompt" as const, name: "compare_differentials" };
    const started = Date.now();
    for (const name of ["case_id", "first", "species"]) {
      const result = await client.complete({ ref, argument: { name, value: "a".repeat(10_000) } });
      expect(result.completion.values).toEqual([]);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    // Over the route's 1 MiB message limit: refused before any handler runs.
    const tooBig = await client
      .complete({ ref, argument: { name: "first", value: "a".repeat(2 * 1024 * 1024) } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(tooBig).toBeInstanceOf(Error);
    await client.close();
  });

  it("needs the read scope to build a prompt", async () => {
    const writer = await machineToken(handle.db, ["vetdx/write"], "Writer");
    const client = await connect(writer.token);
    const error = await rpcError(client.getPrompt({ name: "work_up_case", arguments: { case_id: bella } }));
    expect(error.message).toContain("vetdx/read or vetdx/user.read");
    const ref = { type: "ref/prompt" as const, name: "work_up_case" };
    expect(
      (await client.complete({ ref, argument: { name: "case_id", value: "" } })).completion.values,
    ).toEqual([]);
    await client.close();
  });
});
