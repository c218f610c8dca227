// The note as every signalment reader sees it, and the token tests they share.
import type { LexiconIndex } from "../lexicon-index";
import type { TokenView } from "../phrase-index";
import type { Token } from "../tokenise";
import { NOT_BREED_WORDS } from "./breed-words";

export interface SignalmentNote {
  text: string;
  tokens: Token[];
  /** The tokens without spelling corrections: a species, breed, sex or name counts as written. */
  view: TokenView;
  index: LexiconIndex;
}

/** A span of tokens [start, end). */
export interface TokenSpan {
  start: number;
  end: number;
}

export function noteAsWritten(text: string, view: TokenView, index: LexiconIndex): SignalmentNote {
  return { text, tokens: view.tokens, view: { ...view, corrections: new Map() }, index };
}

export const SEX_ABBREVIATIONS = new Set(["mn", "mc", "me", "mi", "fn", "fs", "fe", "fi", "m", "f"]);
/** "2-year-old", "two-year-old", "seven-month-old": an age written as one hyphenated word. */
export const HYPHENATED_AGE =
  /^(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen)-(?:year|month|week)s?-old$/;
const AGE_TOKEN = /^~?\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|m|mo|mos|mth|mths|w|wk|wks|d)?$/;

export function isSentenceStart(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  return (
    !prev ||
    prev.kind === "break" ||
    prev.norm === ":" ||
    prev.norm === "-" ||
    prev.norm === "(" ||
    prev.norm === '"'
  );
}

/** Is token i an age ("3y", "~4") or a sex ("MN", "gelding")? */
export function isAgeOrSexToken(note: SignalmentNote, i: number): boolean {
  const { tokens, view, index } = note;
  const t = tokens[i];
  if (!t) return false;
  if (AGE_TOKEN.test(t.norm) && t.kind === "num") return true;
  if (t.norm === "~" && tokens[i + 1]?.kind === "num") return true;
  if (SEX_ABBREVIATIONS.has(t.norm) && t.upper) return true;
  const g = index.genders.matchAt(view, i);
  return Boolean(g && g.entry.tokens.join(" ").length > 2);
}

/** Is token i part of a written signalment: an age, a sex, a species or a visible breed? */
export function isSignalmentToken(note: SignalmentNote, i: number): boolean {
  const { tokens, view, index } = note;
  const t = tokens[i];
  if (!t) return false;
  if (isAgeOrSexToken(note, i)) return true;
  if (index.species.matchAt(view, i)) return true;
  const b = index.breeds.matchAt(view, i);
  return Boolean(b && (t.capitalised || t.upper) && !NOT_BREED_WORDS.has(b.entry.tokens.join(" ")));
}

/** Words before "does" that make it the plural of doe ("two does", "the breeding does"). */
const DOES_AS_NOUN_BEFORE = new Set([
  "the",
  "two",
  "three",
  "four",
  "five",
  "both",
  "all",
  "several",
  "breeding",
  "pregnant",
  "our",
  "my",
  "her",
]);

/** "he does nibble chives", "it does not feel like an egg": the verb, not the plural of doe. */
export function isVerbDoes(tokens: Token[], i: number): boolean {
  if (tokens[i]?.norm !== "does") return false;
  const prev = tokens[i - 1];
  return !(prev && (prev.kind === "num" || DOES_AS_NOUN_BEFORE.has(prev.norm)));
}
