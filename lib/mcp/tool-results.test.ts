// A list page too large for a model comes back shorter, with the tool's own cursor to the rest.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, READ_ONLY, type ToolContext, type ToolDefinition } from "./define-tool";
import { MAX_RESULT_CHARS, resultContent, runWithinBudget } from "./tool-results";

const items = Array.from({ length: 100 }, (_, index) => ({ id: index, text: "x".repeat(900) }));
const runs: number[] = [];
const bigList = defineTool({
  name: "big_list",
  title: "Big list",
  description: "A list whose items are large.",
  input: z.strictObject({ limit: z.number().int().max(100).default(100), cursor: z.string().optional() }),
  output: z.object({
    data: z.array(z.object({ id: z.number(), text: z.string() })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  scopes: [],
  run: async ({ limit, cursor }) => {
    runs.push(limit);
    const offset = Number(cursor ?? 0);
    const page = items.slice(offset, offset + limit);
    return { data: page, next_cursor: offset + limit < items.length ? String(offset + limit) : null };
  },
}) as unknown as ToolDefinition;

describe("runWithinBudget", () => {
  it("runs a list again with the limit that fits, and the cursor continues after the last item shown", async () => {
    runs.length = 0;
    const result = await runWithinBudget(bigList, { limit: 100 }, {} as ToolContext);
    const data = result.structured.data as { id: number }[];
    expect(runs[0]).toBe(100);
    expect(runs[1]).toBe(data.length);
    expect(data.length).toBeGreaterThan(10);
    expect(data.length).toBeLessThan(100);
    expect(JSON.stringify(result.structured).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(result.structured.next_cursor).toBe(String(data.length));
    const [, notes] = resultContent(result);
    expect(notes!.text).toContain(`This page holds ${data.length} results instead of the 100 asked for`);
    expect(notes!.text).toContain(`More results: call big_list with cursor="${data.length}"`);
  });

  it("leaves a page that fits alone, and runs it once", async () => {
    runs.length = 0;
    const result = await runWithinBudget(bigList, { limit: 5 }, {} as ToolContext);
    expect(runs).toEqual([5]);
    expect(result.notes).toEqual([
      'More results: call big_list with cursor="5" and the same other arguments.',
    ]);
  });
});
