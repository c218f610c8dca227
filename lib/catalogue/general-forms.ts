// A specific sign is also a case of its general sign: "productive cough" is coughing,
// "mucopurulent nasal discharge" is nasal discharge, "tail bobbing" in a bird is dyspnoea. A case
// lists both, so a vet (or a search, or a colleague's checklist) asking for the general sign finds
// it, and the specific one keeps what the note said. Which general sign a specific one belongs to
// comes from the catalogue's words (a sign of the same category whose name or synonym is a run of
// whole words of the specific sign's name) and, for forms whose words do not say so, from the
// short list below.

/**
 * General signs whose forms the catalogue files under other categories (mammary swelling under
 * reproductive, submandibular oedema under haemolymphatic, erythema of the ear canal under ear):
 * their words still make them forms of the general sign.
 */
const ACROSS_CATEGORIES = new Set(["swelling", "erythema"]);

/** Specific signs whose general sign their words do not name: [specific, general]. */
const AUTHORED_FORMS: [string, string][] = [
  // Forms of laboured breathing.
  ["open-mouth breathing", "dyspnoea"],
  ["tail bobbing", "dyspnoea"],
  ["increased expiratory effort", "dyspnoea"],
  ["increased inspiratory effort", "dyspnoea"],
  // Froth or bubbles at the nares are a discharge.
  ["bubbles from nose", "nasal discharge"],
  // A pulse deficit is an irregular rhythm felt at the pulse.
  ["pulse deficits", "arrhythmia"],
  // Scratching at the ears is itch of the ears.
  ["scratching at ears", "pruritus"],
  // Kicking at the belly is abdominal pain (colic).
  ["kicking at abdomen", "abdominal pain"],
  // Eating less of the ration is a poor appetite.
  ["reduced feed intake", "inappetence"],
  // Bloody diarrhoea is blood in the faeces.
  ["haemorrhagic diarrhoea", "haematochezia"],
];

/** A specific sign named as less or none of the general one is not a form of it ("reduced vocalisation"). */
const NEGATING_WORDS = new Set(["reduced", "decreased", "diminished", "absent", "no", "loss", "lack", "low"]);

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean);

function containsRun(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0 || needle.length >= haystack.length) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++)
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  return false;
}

export interface SignTerms {
  id: number;
  name: string;
  /** The sign's category (key or name: only compared with each other). */
  category: string;
  /** Lower-case name and synonyms. */
  terms: string[];
}

/** sign id → the ids of the general signs it is a form of. */
export function generalForms(signs: SignTerms[]): Map<number, number[]> {
  const forms = new Map<number, number[]>();
  const add = (specificId: number, generalId: number) => {
    const list = forms.get(specificId) ?? [];
    if (!list.includes(generalId)) list.push(generalId);
    forms.set(specificId, list);
  };
  const termWords = signs.map((s) => ({ sign: s, terms: s.terms.map(words) }));
  for (const specific of signs) {
    const name = words(specific.name);
    if (NEGATING_WORDS.has(name[0]!)) continue;
    for (const { sign: general, terms } of termWords) {
      if (general.id === specific.id) continue;
      if (general.category !== specific.category && !ACROSS_CATEGORIES.has(general.name)) continue;
      if (terms.some((t) => containsRun(name, t))) add(specific.id, general.id);
    }
  }
  const byName = new Map(signs.map((s) => [s.name, s]));
  for (const [specificName, generalName] of AUTHORED_FORMS) {
    const specific = byName.get(specificName);
    const general = byName.get(generalName);
    if (specific && general) add(specific.id, general.id);
  }
  return forms;
}
