// Statements that an animal is well in itself: "BAR", "QAR", "bright and alert", "otherwise
// bright", "eating well", "appetite normal". They deny the two non-specific signs vets most often
// record, lethargy and inappetence, so a dog that vomited twice but is bright and eating is not
// ranked like one that is flat and anorexic. A sign the note mentions in any way keeps that mention.

export interface NormalStatement {
  sign: "lethargy" | "inappetence";
  /** The words that said so, as written. */
  keyPhrase: string;
  /** Character offsets of the statement in the notes. */
  start: number;
  end: number;
}

const PATTERNS: { sign: NormalStatement["sign"]; re: RegExp }[] = [
  // Bright, alert and responsive / quiet, alert and responsive (capitals only: "bar" is a word).
  { sign: "lethargy", re: /\b(?:BAR|BARH)\b/g },
  {
    sign: "lethargy",
    re: /\b(?:bright(?:,? (?:and )?(?:alert|responsive|happy|interactive|well))+|(?:otherwise|still|is|was|remains|remained|seems|seemed|appears|appeared) (?:very |quite )?bright|bright in (?:her|him|it)self|alert and (?:responsive|interactive)|full of energy|(?:normal|usual) energy(?: levels?)?|energy (?:levels? )?(?:is |are )?(?:normal|good|unchanged))\b/gi,
  },
  {
    sign: "inappetence",
    re: /\b(?:(?:still |otherwise |is |was )?eating (?:and drinking )?(?:well|normally|fine|ok|okay|as normal|as usual|everything)|(?:normal|good|healthy|unchanged|fine|ravenous) appetite|appetite (?:is |was |remains |has been )?(?:normal|good|fine|unchanged|ok|okay|maintained|excellent|great)|(?:still|otherwise) eating|(?:bright|well|happy|alert) and eating(?= *[.,;)]| *$)|eats well|eating and drinking(?! less)(?= *[.,;)]| *$| and))\b/gim,
  },
];

/** Words shortly before a statement that turn it around ("not eating well", "no longer bright"). */
const NEGATED_BEFORE =
  /\b(?:not|no longer|n't|never|less|poor|reduced|decreased|off|without|but not|nor)\W+(?:\w+\W+){0,2}$/i;

export function findNormalStatements(notes: string): NormalStatement[] {
  const found: NormalStatement[] = [];
  for (const { sign, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(notes); m; m = re.exec(notes)) {
      const before = notes.slice(Math.max(0, m.index - 30), m.index);
      if (NEGATED_BEFORE.test(before)) continue;
      found.push({ sign, keyPhrase: m[0], start: m.index, end: m.index + m[0].length });
    }
  }
  return found;
}
