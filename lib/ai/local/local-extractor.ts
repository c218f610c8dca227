// The local, deterministic clinical-text extractor ("local-v1"): no network, no model. Notes are
// tokenised once; signalment is read first (its breed and name words are then off limits for
// signs), then sign phrases, shorthand and measurements, each given a status from its clause.
import type { Lexicon } from "@/lib/ai/lexicon";
import type { Extraction, Extractor, MentionStatus, SymptomMention } from "@/lib/ai/types";
import { buildContext, mentionStatus } from "./context";
import { getLexiconIndex } from "./lexicon-index";
import { findSignMentions, qualifiedMeasurements, spellingCorrections } from "./match-signs";
import type { TokenView } from "./phrase-index";
import { isSignificant } from "./significance";
import { extractSignalment } from "./signalment";
import { stem, tokenise } from "./tokenise";
import { findVitalSigns } from "./vitals";

export const LOCAL_EXTRACTOR_NAME = "local-v1";

/** Synchronous core of the extractor (the interface is async; this never waits on anything). */
export function extractLocally(notes: string, lexicon: Lexicon): Extraction {
  const text = typeof notes === "string" ? notes : "";
  const index = getLexiconIndex(lexicon);
  const tokens = tokenise(text);
  const view: TokenView = {
    tokens,
    stems: tokens.map((t) => stem(t.norm)),
    corrections: new Map(),
    blocked: new Set(),
  };

  const signalment = extractSignalment(text, view, index);
  const speciesId = signalment.patient.animalTypeId;
  const speciesKey = speciesId === null ? null : (lexicon.animalTypeById.get(speciesId)?.key ?? null);

  view.blocked = signalment.claimed;
  spellingCorrections(view, index);
  const ctx = buildContext(tokens);
  const { mentions, claimed } = findSignMentions(text, view, index);
  mentions.push(...qualifiedMeasurements(text, view, index, claimed));

  for (const finding of findVitalSigns(text, speciesKey, signalment.weights)) {
    const id = index.symptomIdByName.get(finding.sign);
    if (id === undefined) continue;
    const inside = tokens.filter((t) => t.start >= finding.start && t.end <= finding.end);
    if (inside.length === 0) continue;
    mentions.push({
      symptomId: id,
      start: inside[0]!.index,
      end: inside[inside.length - 1]!.index + 1,
      keyPhrase: text.slice(finding.start, finding.end),
      distance: 0,
      forced: null,
      significantHint: finding.significant,
    });
  }

  const byKey = new Map<string, SymptomMention & { order: number }>();
  for (const m of mentions) {
    const symptom = lexicon.symptomById.get(m.symptomId);
    if (!symptom) continue;
    if (speciesId !== null && symptom.animalTypeIds && !symptom.animalTypeIds.includes(speciesId)) continue;
    // "?hairballs": a query, not a finding.
    const before = tokens[m.start - 1];
    if (before && before.norm === "?" && before.end === tokens[m.start]!.start) continue;
    let status: MentionStatus;
    if (m.forced) {
      const judged = mentionStatus(ctx, m.start, m.end, claimed);
      if (judged.dropped) continue;
      // An explicit "+"/"-" wins over the clause, except for another animal's signs.
      status = judged.status === "other_animal" ? "other_animal" : m.forced;
    } else {
      const judged = mentionStatus(ctx, m.start, m.end, claimed);
      if (judged.dropped) continue;
      status = judged.status;
    }
    const significant = m.significantHint || isSignificant(symptom.name, tokens, m.start, m.end);
    const key = `${m.symptomId}|${status}`;
    const existing = byKey.get(key);
    const order = tokens[m.start]?.start ?? 0;
    if (existing) {
      if (!existing.keyPhrases.includes(m.keyPhrase)) existing.keyPhrases.push(m.keyPhrase);
      existing.distance = Math.min(existing.distance, m.distance);
      existing.significant = existing.significant || significant;
      existing.order = Math.min(existing.order, order);
    } else {
      byKey.set(key, {
        symptomId: m.symptomId,
        keyPhrases: [m.keyPhrase],
        distance: Math.round(m.distance * 1000) / 1000,
        status,
        significant,
        order,
      });
    }
  }
  const symptoms: SymptomMention[] = [...byKey.values()]
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...mention }) => mention);

  return { patient: signalment.patient, symptoms, extractor: LOCAL_EXTRACTOR_NAME };
}

export const localExtractor: Extractor = {
  name: LOCAL_EXTRACTOR_NAME,
  async extract(notes, lexicon, options) {
    if (options?.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    return extractLocally(notes, lexicon);
  },
};
