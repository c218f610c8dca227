// Longest-match phrase lookup over tokens. Phrases are keyed by the stems of their tokens, so
// "vomits" or "coughed" reach "vomit" and "coughing"; an exact token sequence scores distance 0.
import { phraseTokens, stem, type Token } from "./tokenise";

export interface PhraseEntry<T> {
  tokens: string[];
  stems: string[];
  payload: T;
  /** Added to the match distance: 0 for a catalogue phrase, more for derived variants. */
  variantDistance: number;
}

export interface PhraseMatch<T> {
  entry: PhraseEntry<T>;
  /** Token indices [start, end) in the notes. */
  start: number;
  end: number;
  distance: number;
  /** Indices of the tokens that matched phrase tokens (skipped fillers excluded). */
  matched: number[];
}

/** A view of the note's tokens for matching: normalised form, stem, optional spelling correction. */
export interface TokenView {
  tokens: Token[];
  stems: string[];
  /** Spelling corrections: token index -> corrected stem and its distance (0..1). */
  corrections: Map<number, { stem: string; distance: number }>;
  /** Tokens another matcher already claimed (breeds, names, drugs). */
  blocked: Set<number>;
}

/** A doubled consonant before the ending: a short-vowel root ("scarring", "hopped"). */
const SHORT_ROOT = /([b-df-hj-np-tv-z])\1(?:ing|ed|er)$/;
/** A silent-e root: "scared", "scares", "scare". */
const SILENT_E_ROOT = /[aeiou][b-df-hj-np-tv-z](?:e|ed|es)$/;

/**
 * A note word reaches a phrase word of the same stem unless the note word has a short-vowel root
 * and the phrase word a silent-e one: "scarring" (scar) is not "scared" (scare), "hopping" is not
 * "hoped". ("vomitting" still reaches "vomiting".)
 */
export function sameRoot(noteWord: string, phraseWord: string): boolean {
  if (noteWord === phraseWord) return true;
  const short = SHORT_ROOT.test(noteWord) && !/(ll|ss|zz)(?:ing|ed|er)$/.test(noteWord);
  return !(short && SILENT_E_ROOT.test(phraseWord));
}

export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, PhraseEntry<T>[]>();
  private readonly seen = new Set<string>();

  /** Adds a phrase; returns false when empty or already present for the same payload key. */
  add(phrase: string | string[], payload: T, variantDistance = 0, key = ""): boolean {
    const tokens = typeof phrase === "string" ? phraseTokens(phrase) : phrase;
    if (tokens.length === 0) return false;
    const dedupe = `${tokens.join(" ")}|${key}`;
    if (this.seen.has(dedupe)) return false;
    this.seen.add(dedupe);
    const stems = tokens.map(stem);
    const entry: PhraseEntry<T> = { tokens, stems, payload, variantDistance };
    const list = this.byFirst.get(stems[0]!) ?? [];
    list.push(entry);
    this.byFirst.set(stems[0]!, list);
    return true;
  }

  /** Sort candidate lists longest first; call once after adding. */
  freeze(): void {
    for (const list of this.byFirst.values())
      list.sort((a, b) => b.tokens.length - a.tokens.length || a.variantDistance - b.variantDistance);
  }

  has(firstStem: string): boolean {
    return this.byFirst.has(firstStem);
  }

  /** Every stem that starts some phrase (for spelling correction). */
  firstStems(): IterableIterator<string> {
    return this.byFirst.keys();
  }

  private tokenDistance(
    view: TokenView,
    i: number,
    phraseToken: string,
    phraseStem: string,
    single: boolean,
  ): number | null {
    const token = view.tokens[i];
    if (!token || token.kind === "break" || view.blocked.has(i)) return null;
    if (token.norm === phraseToken) return 0;
    const s = view.stems[i]!;
    if (s === phraseStem && (!single || phraseStem.length >= 4) && sameRoot(token.norm, phraseToken)) {
      // A bare word never reaches an inflected single-word phrase ("yellow" is not "yellowing").
      if (single && token.norm === s && phraseToken !== phraseStem && !/s$/.test(phraseToken)) return null;
      return 0.05;
    }
    const corrected = view.corrections.get(i);
    if (corrected && corrected.stem === phraseStem) return corrected.distance;
    return null;
  }

  /**
   * The longest phrase starting at token i. Inside a phrase (never first or last), tokens in
   * `skippable` may be passed over, at most two ("pain on R hip extension").
   */
  matchAt(view: TokenView, i: number, skippable?: ReadonlySet<string>): PhraseMatch<T> | null {
    const candidates: PhraseEntry<T>[] = [];
    const token = view.tokens[i];
    if (!token || token.kind === "break" || view.blocked.has(i)) return null;
    const keys = new Set([view.stems[i]!, token.norm]);
    const corrected = view.corrections.get(i);
    if (corrected) keys.add(corrected.stem);
    for (const key of keys) for (const entry of this.byFirst.get(key) ?? []) candidates.push(entry);
    let best: PhraseMatch<T> | null = null;
    for (const entry of candidates) {
      const single = entry.tokens.length === 1;
      let j = 0;
      let k = i;
      let distance = 0;
      let skips = 0;
      const matched: number[] = [];
      let ok = true;
      while (j < entry.tokens.length) {
        const d = this.tokenDistance(view, k, entry.tokens[j]!, entry.stems[j]!, single);
        if (d !== null) {
          distance = Math.max(distance, d);
          matched.push(k);
          j += 1;
          k += 1;
          continue;
        }
        const t = view.tokens[k];
        if (j > 0 && skips < 2 && t && skippable?.has(t.norm) && !view.blocked.has(k)) {
          skips += 1;
          k += 1;
          continue;
        }
        ok = false;
        break;
      }
      if (!ok) continue;
      const total = Math.min(1, distance + entry.variantDistance + skips * 0.02);
      const span = matched.length;
      const bestSpan = best ? best.matched.length : -1;
      if (!best || span > bestSpan || (span === bestSpan && total < best.distance)) {
        best = { entry, start: i, end: k, distance: total, matched };
      }
    }
    return best;
  }
}
