// Model access through one module: AI_MODEL "provider:model" to an AI SDK language model. The
// provider packages read their own API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY).
import { anthropic } from "@ai-sdk/anthropic";
import { openai } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { ConfigurationError } from "@/lib/env";

const providers: Record<string, (modelId: string) => LanguageModel> = {
  openai: (id) => openai(id),
  anthropic: (id) => anthropic(id),
};

export function languageModel(spec: string): LanguageModel {
  const [provider, ...rest] = spec.split(":");
  const create = provider ? providers[provider] : undefined;
  if (!create || rest.length === 0) {
    throw new ConfigurationError(
      `AI_MODEL: unknown provider in "${spec}"; use ${Object.keys(providers).join(" or ")}:<model>`,
    );
  }
  return create(rest.join(":"));
}
