// Tool results stay small: list tools page by cursor and say in words how to get the next page,
// long text is cut with a stated truncation, forged or oversized cursors are tool errors, and a
// vet's cursor never shows another vet's cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { encodeCursor } from "@/lib/http/pagination";
import { call, machineToken } from "@/test/support";
import { POST } from "./route";

let handle: DatabaseHandle;
let tokenA: string;
let tokenB: string;
const created: string[] = [];

type ToolResult = {
  isError?: boolean;
  structuredContent: Record<string, unknown> & {
    data: { id: string | number }[];
    next_cursor: string | null;
  };
  content: { type: string; text: string }[];
};

async function callTool(name: string, args: Record<string, unknown>, token = tokenA): Promise<ToolResult> {
  const response = await call(POST as never, "/mcp", {
    method: "POST",
    token,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      host: "vetdx.test",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await response.text();
  const line = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "null");
  return JSON.parse(line).result;
}

beforeAll(async () => {
  handle = await openTestDatabase();
  tokenA = (await machineToken(handle.db, undefined, "Clinic A")).token;
  tokenB = (await machineToken(handle.db, undefined, "Clinic B")).token;
  for (const notes of [
    "Dog, vomiting.",
    "Cat, sneezing.",
    `Horse, colic. ${"Rolling and pawing. ".repeat(900)}`,
  ]) {
    created.push((await callTool("create_case", { notes })).structuredContent.id as unknown as string);
  }
  await inlineRunner().idle();
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

describe("pagination", () => {
  it("pages list_cases by cursor and says how to get more; the last page says nothing", async () => {
    const first = await callTool("list_cases", { limit: 2 });
    expect(first.structuredContent.data).toHaveLength(2);
    const cursor = first.structuredContent.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    expect(JSON.parse(first.content[0]!.text)).toEqual(first.structuredContent);
    expect(first.content[1]!.text).toContain(
      `More results: call list_cases with cursor="${cursor}" and the same other arguments.`,
    );
    const second = await callTool("list_cases", { limit: 2, cursor });
    expect(second.structuredContent.data).toHaveLength(1);
    expect(second.structuredContent.next_cursor).toBeNull();
    expect(second.content.map((c) => c.text).join("\n")).not.toContain("More results");
    const ids = [...first.structuredContent.data, ...second.structuredContent.data].map((c) => c.id);
    expect(new Set(ids)).toEqual(new Set(created));
  });

  it("pages differentials without gaps or repeats, the same order as one longer page", async () => {
    const args = { animal_type_id: 2, present_symptom_ids: [1, 2, 3] };
    const whole = await callTool("get_differential_diagnoses", { ...args, limit: 6 });
    const first = await callTool("get_differential_diagnoses", { ...args, limit: 3 });
    expect(first.content[1]!.text).toMatch(/More results: call get_differential_diagnoses with cursor="/);
    const second = await callTool("get_differential_diagnoses", {
      ...args,
      limit: 3,
      cursor: first.structuredContent.next_cursor,
    });
    expect([...first.structuredContent.data, ...second.structuredContent.data].map((d) => d.id)).toEqual(
      whole.structuredContent.data.map((d) => d.id),
    );
    const forCase = await callTool("get_differential_diagnoses", { case_id: created[0], limit: 2 });
    expect(forCase.isError).toBeFalsy();
    expect(forCase.structuredContent).toHaveProperty("next_cursor");
  });

  it.each([
    ["list_cases", {}],
    ["search_symptoms", { q: "vomiting" }],
    ["search_diagnoses", { q: "kidney" }],
    ["list_breeds", { animal_type_id: 1 }],
    ["get_differential_diagnoses", { animal_type_id: 1, present_symptom_ids: [1] }],
  ])("refuses forged, malformed and oversized cursors on %s as tool errors", async (name, args) => {
    for (const cursor of [
      encodeCursor({ offset: -5 }),
      encodeCursor({ createdAt: "not a time", id: "x" }),
      encodeCursor({ offset: 1e9 }),
      "not*base64",
      "A".repeat(201),
    ]) {
      const result = await callTool(name, { ...args, cursor });
      expect(result.isError, `${name} ${cursor.slice(0, 20)}`).toBe(true);
      expect(result.content[0]!.text).toMatch(/cursor/i);
      expect(result.structuredContent).toBeUndefined();
    }
    const tooMany = await callTool(name === "get_differential_diagnoses" ? name : name, {
      ...args,
      limit: 5000,
    });
    expect(tooMany.isError).toBe(true);
  });

  it("never shows another vet's cases through a cursor", async () => {
    const first = await callTool("list_cases", { limit: 1 });
    const borrowed = await callTool(
      "list_cases",
      { limit: 5, cursor: first.structuredContent.next_cursor },
      tokenB,
    );
    expect(borrowed.isError).toBeFalsy();
    expect(borrowed.structuredContent.data).toEqual([]);
    const stolen = await callTool("get_differential_diagnoses", { case_id: created[0] }, tokenB);
    expect(stolen.isError).toBe(true);
    expect(stolen.content[0]!.text).toMatch(/not found/);
  });
});

describe("long text", () => {
  it("cuts a case's long notes with a stated truncation, in structuredContent and text alike", async () => {
    const long = await callTool("get_case", { case_id: created[2] });
    const notes = long.structuredContent.notes as string;
    expect(notes.length).toBeLessThan(5_100);
    expect(notes).toMatch(/^Horse, colic\. Rolling/);
    expect(notes).toMatch(/ … \[truncated: 5000 of 18014 characters shown\]$/);
    expect(long.content[1]!.text).toMatch(/^Truncated: notes \(5,000 of 18,014 characters shown\)/);
    const short = await callTool("get_case", { case_id: created[0] });
    expect(short.structuredContent.notes).toBe("Dog, vomiting.");
    expect(short.content).toHaveLength(1);
  });

  it("cuts list items' text shorter, and says so", async () => {
    const listed = await callTool("list_cases", { limit: 10 });
    const horse = listed.structuredContent.data.find((c) => c.id === created[2]) as unknown as {
      notes: string;
    };
    expect(horse.notes).toMatch(/^Horse, colic\./);
    expect(horse.notes).toMatch(/truncated: 1000 of \d+ characters shown\]$/);
    expect(listed.content[1]!.text).toContain("data[].notes");
  });
});
