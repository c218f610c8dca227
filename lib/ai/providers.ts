// The one place that decides which extractor runs: the local clinical-text extractor by default,
// an LLM through the AI SDK when AI_MODEL is set. Tests swap in their own.
import { getEnv } from "@/lib/env";
import { localExtractor } from "./local/local-extractor";
import { createLlmExtractor } from "./llm-extractor";
import { languageModel } from "./model";
import type { Extractor } from "./types";

let configured: Extractor | undefined;

export function getExtractor(): Extractor {
  const model = getEnv().AI_MODEL;
  configured ??= model ? createLlmExtractor(languageModel(model), model) : localExtractor;
  return configured;
}
