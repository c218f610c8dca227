// Tokeniser shared by the catalogue index and the notes: words, numbers and the few symbols that
// carry meaning in clinical shorthand ("v+", "d-", "pu/pd", "crt>2s", "5%"), each with its offsets
// in the original text so matches can be reported as exact substrings.

export type TokenKind = "word" | "num" | "sym" | "break";

export interface Token {
  /** Normalised form: lower case, accents stripped, curly quotes straightened. */
  norm: string;
  /** Offsets in the original text: text.slice(start, end) is the token as written. */
  start: number;
  end: number;
  kind: TokenKind;
  /** First letter written in upper case. */
  capitalised: boolean;
  /** Every letter written in upper case (abbreviations: "GSD", "MN", "PU"). */
  upper: boolean;
  /** Index of the token in its list. */
  index: number;
}

const TOKEN_RE =
  /(\d+(?:[.,]\d+)*[a-z]*)|([a-z\u00c0-\u024f]+(?:['\u2019][a-z]+)*)|(\n\s*\n|\r?\n|[.;!?](?=\s|$|["')\]])|[.;!?]$)|([+&/%<>:,()\-=~#@*?\u00b0])/gi;

/** Lower case, strip diacritics, straighten quotes. */
export function normaliseText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u2013\u2014]/g, "-")
    .toLowerCase();
}

function isLetter(ch: string | undefined): boolean {
  return ch !== undefined && /[a-z]/i.test(ch);
}

/**
 * Splits text into tokens. A hyphen inside a word ("weight-loss") is just a separator; a hyphen
 * right after a word and not followed by a word ("v-", "V-D-C-S-") is a token of its own, the
 * shorthand for "absent".
 */
export function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  const lower = normaliseText(text);
  // NFD normalisation can change lengths; only use it when it doesn't.
  const source = lower.length === text.length ? lower : text.toLowerCase();
  TOKEN_RE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN_RE.exec(source)) !== null) {
    const raw = match[0];
    const start = match.index;
    const end = start + raw.length;
    const original = text.slice(start, end);
    let kind: TokenKind;
    let norm = raw.replace(/\u2019/g, "'");
    if (match[1]) kind = "num";
    else if (match[2]) kind = "word";
    else if (match[3]) {
      kind = "break";
      norm = raw.includes("\n") ? "\n" : raw;
    } else kind = "sym";

    if (kind === "sym" && raw === "-") {
      // Keep "-" only as the shorthand negative marker right after a word: "v-", "D- ", "V-D-".
      const prev = tokens[tokens.length - 1];
      const attached =
        prev !== undefined && prev.end === start && (prev.kind === "word" || prev.kind === "num");
      const next = source[end];
      const nextNext = source[end + 1];
      const followedByWord = isLetter(next) && isLetter(nextNext);
      const prevIsShort = prev !== undefined && prev.end - prev.start <= 2 && prev.kind === "word";
      if (
        !attached ||
        (followedByWord && !prevIsShort) ||
        (followedByWord && prevIsShort && isLetter(source[end + 2]))
      ) {
        // "-ve" / "+ve" after a space still counts as a marker.
        if (!(source.slice(end, end + 2) === "ve" && !isLetter(source[end + 2]))) continue;
      }
    }
    if (kind === "word" && norm === "ve" && tokens.length > 0) {
      const prev = tokens[tokens.length - 1]!;
      if (prev.kind === "sym" && (prev.norm === "-" || prev.norm === "+") && prev.end === start) {
        // "-ve" / "+ve": fold into the sign token.
        continue;
      }
    }
    const letters = original.replace(/[^a-z]/gi, "");
    tokens.push({
      norm,
      start,
      end,
      kind,
      capitalised: /^[A-Z]/.test(original),
      upper: letters.length > 0 && letters === letters.toUpperCase() && /[A-Z]/.test(letters),
      index: tokens.length,
    });
  }
  return tokens;
}

/** Tokens of a catalogue phrase, without breaks and commas: the key the index stores. */
export function phraseTokens(phrase: string): string[] {
  return tokenise(phrase)
    .filter((t) => t.kind !== "break" && t.norm !== "," && t.norm !== "(" && t.norm !== ")")
    .map((t) => t.norm);
}

/**
 * A light stemmer: plural and -ing/-ed endings, doubled final consonants, final e. Only used to
 * let "vomits", "vomitting" or "coughed" reach a catalogue phrase; never to build ids.
 */
/** Small counts written as digits read as the words phrases use: "weakness all 4 legs". */
const DIGIT_WORDS: Record<string, string> = { "2": "two", "3": "three", "4": "four" };

export function stem(word: string): string {
  let w = word;
  const spelt = DIGIT_WORDS[w];
  if (spelt) return stem(spelt);
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|us|is)$/.test(w)) {
    /* keep */
  } else if (/(ches|shes|xes|sses)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && w.length > 4) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length >= 6) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length >= 5 && !w.endsWith("eed")) w = w.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("e") && w.length >= 4) w = w.slice(0, -1);
  return w;
}

/**
 * The heading a sentence opens with ("R ear: shaking, thick yellow d/c, very sore"; "Eyes: red,
 * watering"): the words before a colon among its first four tokens, which name the site the rest
 * of the sentence is about. Empty when the sentence holding token i has none.
 */
export function sentenceTopic(tokens: Token[], i: number): string[] {
  let start = Math.min(i, tokens.length - 1);
  while (start > 0 && tokens[start - 1]!.kind !== "break") start--;
  for (let k = start; k < Math.min(tokens.length, start + 4, i); k++) {
    if (tokens[k]!.norm === ":") return tokens.slice(start, k).map((t) => t.norm);
    if (tokens[k]!.kind === "break") break;
  }
  return [];
}
