// Tool results a model can afford: long text is cut with a stated truncation, a list page that
// would still be too large comes back shorter (with a cursor to the rest), and every page with more
// results says in words how to get them. structuredContent keeps each tool's output schema; the
// first text block stays its JSON, the notes follow in a second one.
import type { z } from "zod";
import type { ToolContext, ToolDefinition } from "./define-tool";

/** About 10,000 tokens (4 characters a token): the size at which hosts start warning. */
export const MAX_RESULT_CHARS = 40_000;
/** The longest text field of a single result (notes, a SOAP section), in characters. */
export const MAX_FIELD_CHARS = 5_000;
/** The longest text field of a list item: a list is for finding things, get the item for more. */
export const MAX_LIST_FIELD_CHARS = 1_000;

interface Shortened {
  path: string;
  shown: number;
  total: number;
}

function capStrings(value: unknown, path: string, cap: number, shortened: Shortened[]): unknown {
  if (typeof value === "string") {
    if (value.length <= cap) return value;
    shortened.push({ path, shown: cap, total: value.length });
    return `${value.slice(0, cap)} … [truncated: ${cap} of ${value.length} characters shown]`;
  }
  if (Array.isArray(value)) {
    const inList = path === "data";
    return value.map((item) => capStrings(item, `${path}[]`, inList ? MAX_LIST_FIELD_CHARS : cap, shortened));
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        capStrings(item, path ? `${path}.${key}` : key, cap, shortened),
      ]),
    );
  }
  return value;
}

/** How many of a list page's items fit the budget, when the page as a whole does not. */
function itemsThatFit(structured: Record<string, unknown>): number | undefined {
  const total = JSON.stringify(structured).length;
  const data = structured.data;
  if (total <= MAX_RESULT_CHARS || !Array.isArray(data)) return undefined;
  const sizes = data.map((item) => JSON.stringify(item).length + 1);
  let used = total - sizes.reduce((sum, size) => sum + size, 0);
  let count = 0;
  for (const size of sizes) {
    if (used + size > MAX_RESULT_CHARS) break;
    used += size;
    count += 1;
  }
  return Math.max(1, count);
}

function shortenedNote(shortened: Shortened[]): string | undefined {
  if (shortened.length === 0) return undefined;
  const byPath = new Map<string, Shortened[]>();
  for (const entry of shortened) byPath.set(entry.path, [...(byPath.get(entry.path) ?? []), entry]);
  const parts = [...byPath].map(([path, entries]) =>
    entries.length === 1
      ? `${path} (${entries[0]!.shown.toLocaleString("en")} of ${entries[0]!.total.toLocaleString("en")} characters shown)`
      : `${path} in ${entries.length} items (${entries[0]!.shown.toLocaleString("en")} characters shown of each)`,
  );
  return `Truncated: ${parts.join("; ")}. Each cut is marked "… [truncated: …]" in the text.`;
}

export interface FittedResult {
  structured: Record<string, unknown>;
  /** Plain-text notes for the model: truncations, a shorter page, how to get more. */
  notes: string[];
}

/** Runs a tool and fits its answer to the budget (a read-only list may be run again, shorter). */
export async function runWithinBudget(
  tool: ToolDefinition,
  args: z.output<z.ZodObject>,
  context: ToolContext,
): Promise<FittedResult> {
  const fit = async (input: z.output<z.ZodObject>) => {
    const shortened: Shortened[] = [];
    const parsed = tool.output.parse(await tool.run(input, context)) as Record<string, unknown>;
    const structured = capStrings(parsed, "", MAX_FIELD_CHARS, shortened) as Record<string, unknown>;
    return { structured, shortened };
  };
  let result = await fit(args);
  const notes: string[] = [];
  const requested = (args as { limit?: unknown }).limit;
  const fits = itemsThatFit(result.structured);
  if (
    fits !== undefined &&
    tool.annotations.readOnlyHint &&
    typeof requested === "number" &&
    fits < requested
  ) {
    result = await fit({ ...args, limit: fits });
    notes.push(
      `This page holds ${fits} result${fits === 1 ? "" : "s"} instead of the ${requested} asked for, to keep the answer under about ${MAX_RESULT_CHARS / 4} tokens.`,
    );
  }
  const shortened = shortenedNote(result.shortened);
  if (shortened) notes.push(shortened);
  const next = result.structured.next_cursor;
  if (typeof next === "string") {
    notes.push(`More results: call ${tool.name} with cursor="${next}" and the same other arguments.`);
  }
  return { structured: result.structured, notes };
}

/** The result's text: its JSON, then the notes (if any) as a second block. */
export function resultContent(result: FittedResult) {
  const json = { type: "text" as const, text: JSON.stringify(result.structured) };
  return result.notes.length ? [json, { type: "text" as const, text: result.notes.join("\n") }] : [json];
}
