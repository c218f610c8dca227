// British and American spellings of catalogue terms ("haemorrhagic gastroenteritis" ↔
// "hemorrhagic gastroenteritis", "oesophageal foreign body" ↔ "esophageal foreign body"), generated
// when the catalogue is read so that every condition answers to both spellings without authoring
// each one twice. The rules are a vetted list of medical stems, applied word by word: a bare
// "ae"→"e" or "oe"→"e" would mangle "aerobic", "does", "toe", and "hem"→"haem" would mangle
// "hemiplegia" and "chemotherapy". Latin genus and species names keep their one spelling
// ("Haemonchus", "Mannheimia haemolytica", "Oesophagostomum").

type Rule = [pattern: RegExp, replacement: string];

/** Latin names (genera, species epithets) spelled the same in every country: never rewritten. */
const LATIN = new Set([
  "haemonchus",
  "haemophilus",
  "haemaphysalis",
  "haematopinus",
  "haematobia",
  "haemoproteus",
  "haemogregarina",
  "haemolytica",
  "haemolyticum",
  "haemofelis",
  "haemocanis",
  "haemolamae",
  "haematoparvum",
  "haemominutum",
  "haemosuis",
  "haemobovis",
  "haemomuris",
  "porrocaecum",
  "angusticaecum",
  "cecorum",
  "callipaeda",
  "entamoeba",
  "acanthamoeba",
  "leucocytozoon",
  "oesophagostomum",
  "oesophagostomiasis",
  "oestrosis",
  "oestridae",
  "aedes",
]);

/** Words whose two spellings are simply listed (either column may be the UK or US spelling). */
const WORD_PAIRS: [uk: string, us: string][] = [
  ["tumour", "tumor"],
  ["tumours", "tumors"],
  ["macrotumour", "macrotumor"],
  ["tumourous", "tumorous"],
  ["behaviour", "behavior"],
  ["behaviours", "behaviors"],
  ["behavioural", "behavioral"],
  ["colour", "color"],
  ["coloured", "colored"],
  ["colours", "colors"],
  ["humour", "humor"],
  ["labour", "labor"],
  ["odour", "odor"],
  ["fibre", "fiber"],
  ["fibres", "fibers"],
  ["grey", "gray"],
  ["mould", "mold"],
  ["moulds", "molds"],
  ["mouldy", "moldy"],
  ["moult", "molt"],
  ["moulting", "molting"],
  ["moulted", "molted"],
  ["aluminium", "aluminum"],
  ["coeliac", "celiac"],
  ["caesarean", "cesarean"],
  ["caesarian", "cesarian"],
  ["ageing", "aging"],
  ["disc", "disk"],
  ["discs", "disks"],
  ["discitis", "diskitis"],
  ["discospondylitis", "diskospondylitis"],
  ["spondylodiscitis", "spondylodiskitis"],
  ["discopathy", "diskopathy"],
  ["mucocoele", "mucocele"],
  ["mucocoeles", "mucoceles"],
  ["naevus", "nevus"],
  ["naevi", "nevi"],
  ["gynaecomastia", "gynecomastia"],
  ["hyphaema", "hyphema"],
  ["microfilariaemia", "microfilaremia"],
];
const UK_TO_US_WORD = new Map(WORD_PAIRS);
const US_TO_UK_WORD = new Map(WORD_PAIRS.map(([uk, us]) => [us, uk]));

// -ise/-ize: only these stems ("generalised", "mineralisation", "necrotising"…); "noise", "bruise",
// "tortoise", "exercise" and "raised" are not -ise verbs.
const IZE_STEMS =
  "general|local|mineral|keratin|sensit|necrot|catheter|ion|femin|masculin|vocal|galvan|organ|immun|steril|vascular|epithelial|hospital|crystall|cannibal|neutral|normal|stabil|immobil|anaesthet|anesthet|hypnot|metabol|visual";
const IZE = new RegExp(`^([a-z]*?(?:${IZE_STEMS}))i[sz](e|ed|es|ing|ation|ations)$`);

// Stems before -emia/-emic that are the American spelling of -aemia/-aemic; "endemic", "systemic",
// "epidemic", "academia" and "seminoma" are not.
const EMIA_STEMS =
  "an|isch|ur|acid|alkal|band|hyper|lactat|fibrinogen|lipas|leuk|leuc|glyc|kal|calc|natr|lip|vir|tox|bacter|septic|cyth|protein|albumin|azot|ammon|globin|globulin|cholesterol|chylomicron|keton|triglycerid|cobalamin|convertin|filar|filari|phosphat|magnes|aceton|py|parasit|fung|chlor|tular|ox|cupr|bilirubin|insulin|gastrin|vol|chol|thyroxin|zinc|lipid";

/** UK → US, applied to one lower-case word in order. */
const TO_US: Rule[] = [
  [/haem/g, "hem"],
  [/aemi(?=a|c)/g, "emi"],
  [/paeni(?=a|c)/g, "peni"],
  [/(?<=^|[ao])oesophag/g, "esophag"],
  [/(?<!i)oedem/g, "edem"],
  [/aetiolog/g, "etiolog"],
  [/aesth/g, "esth"],
  [/^foet/, "fet"],
  [/caec/g, "cec"],
  [/faec/g, "fec"],
  [/paed/g, "ped"],
  [/^(an|di|sub|met|inter|hyper|hypo|poly|pseudo|)oestr/, "$1estr"],
  [/^prooestr/, "proestr"],
  [/leuc(?=o(?:sis|pen|cyt|enceph|derm|trich|ma\b)|openia)/g, "leuk"],
  [/rrhoe/g, "rrhe"],
  [/pnoe(?=a|ic)/g, "pne"],
  [/amoeb/g, "ameb"],
  [/sulph/g, "sulf"],
  [/^phaeo/, "pheo"],
  [/chaet/g, "chet"],
];

/** US → UK, applied to one lower-case word in order. */
const TO_UK: Rule[] = [
  [
    /^(|met|ot|oto|micro|necro|ictero|pseudo|hydro|pneumo|pyo|chylo|sero|sulf|sulph|carboxy|oxy|intra|hypo|hyper|peri|sub|retro|poly)hem(?=o|a)/,
    "$1haem",
  ],
  [new RegExp(`(${EMIA_STEMS})emi(a|as|c)$`), "$1aemi$2"],
  // "megaesophagus" → "megaoesophagus", "gastroesophageal" → "gastro-oesophageal"; a word already
  // spelled "oesophag…" or "…aoesophag…"/"…ooesophag…" is British and left alone.
  [/^(?!.*(?:^|[ao])oesophag)(.*?)(^|[^o])esophag/, "$1$2oesophag"],
  [/^(?!.*(?:^|[ao])oesophag)(.*?[^o]o)esophag/, "$1-oesophag"],
  [/^(|lymph|myx|blephar)edem/, "$1oedem"],
  [/^angioedem/, "angio-oedem"],
  [/^etiolog/, "aetiolog"],
  [/^(an|postan|hyper|hypo|par|dys|)esth(?=e|a)/, "$1aesth"],
  [/^fet(?=al$|us$|uses$|o[a-z]|id$)/, "foet"],
  [/(?<=^|o)cec(?=um$|al$|itis$|o[a-z]|a$)/g, "caec"],
  [/^fec(?=al$|es$|alith|aloma|ulith)/, "faec"],
  [/^orthoped/, "orthopaed"],
  [/^pediatr/, "paediatr"],
  [/^(|an|di|pro|hyper|hypo|pseudo|met|poly|inter)estr(?=us|ous|ogen|adiol|al$|ual)/, "$1oestr"],
  [/leuk(?=o(?:sis|pen|cyt|enceph|derm|trich))/g, "leuc"],
  [/rrhe(?=a|ic)/g, "rrhoe"],
  [/pne(?=a$|as$|ic$)/g, "pnoe"],
  [/ameb/g, "amoeb"],
  [/sulf/g, "sulph"],
  [/^pheo/, "phaeo"],
  [/spirochet/g, "spirochaet"],
];

// Words recur across the catalogue's ~40,000 terms: each lower-case word is converted once per direction.
const converted = new Map<Rule[], Map<string, string>>([
  [TO_US, new Map()],
  [TO_UK, new Map()],
]);

function convertLower(lower: string, rules: Rule[], pairs: Map<string, string>): string {
  const cache = converted.get(rules)!;
  let out = cache.get(lower);
  if (out !== undefined) return out;
  out = pairs.get(lower);
  if (out === undefined) {
    out = lower;
    if (!LATIN.has(lower) && lower.length >= 4) {
      for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
      const ize = IZE.exec(out);
      if (ize) out = `${ize[1]}i${rules === TO_US ? "z" : "s"}${ize[2]}`;
    }
  }
  cache.set(lower, out);
  return out;
}

function mapWord(word: string, rules: Rule[], pairs: Map<string, string>): string {
  const lower = word.toLowerCase();
  const out = convertLower(lower, rules, pairs);
  if (out === lower) return word;
  // Keep the word's case: "Haemorrhagic" → "Hemorrhagic", "IMHA" is never rewritten (too short or no rule).
  if (word === word.toUpperCase()) return out.toUpperCase();
  if (word[0] !== lower[0]) return out[0]!.toUpperCase() + out.slice(1);
  return out;
}

function convert(term: string, rules: Rule[], pairs: Map<string, string>): string {
  return term.replace(/[A-Za-z]+/g, (word) => mapWord(word, rules, pairs));
}

/** The American spelling of a term ("gastro-oesophageal" → "gastroesophageal"). */
export function americanSpelling(term: string): string {
  // "Mannheimia haemolytica" is Latin; "oestrus ovis" the bot fly.
  if (/\boestrus ovis\b/i.test(term)) return term;
  return convert(term, TO_US, UK_TO_US_WORD).replace(/o-(?=esophag|edem|estr)/gi, "o");
}

/** The British spelling of a term ("gastroesophageal" → "gastro-oesophageal"). */
export function britishSpelling(term: string): string {
  return convert(term, TO_UK, US_TO_UK_WORD).replace(/([a-z]o)(?=oesophag|oedem|oestr)/gi, "$1-");
}

/** The other spellings of a term, without the term itself (empty when it has none). */
export function spellingVariants(term: string): string[] {
  const key = term.trim().toLowerCase();
  return [...new Set([americanSpelling(term), britishSpelling(term)])].filter(
    (variant) => variant.trim().toLowerCase() !== key,
  );
}

/** Folds a term for comparison as scripts/eval/matching.ts does (case, apostrophes, hyphens). */
const fold = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[’']/g, "")
    .replace(/[\s_\-–]+/g, " ");

interface Termed {
  id: number;
  name: string;
  synonyms: string[];
  retired?: boolean;
}

/**
 * Cheap test for a term that some rule could rewrite (a stem of the rules, or a listed word); most
 * terms fail it and are skipped.
 */
const MAYBE = new RegExp(
  [
    "ae|oe|hem|emi|esoph|edem|etiol|esth|fet|cec|fec|ped|estr|leu|rrhe|pne|ameb|sulf|sulph|pheo|chet",
    "i[sz](?:e|ing|ation)",
    ...WORD_PAIRS.flat(),
  ].join("|"),
  "i",
);

/** Whether a term may have another spelling (false: it surely has none). */
export const mightHaveVariants = (term: string) => MAYBE.test(term);

/**
 * Adds to each entry's synonyms the other spellings of its name and synonyms. A variant is skipped
 * when another entry that shares a group (a species, for conditions; all signs share one group)
 * already answers to it or would be given it too, so a spelling never makes two entries ambiguous
 * that its authored spelling did not. Returns new entries (the input is not changed) and how many
 * variants were added, and the added variants as `id:variant` lines (for the catalogue's content hash).
 */
export function withSpellingVariants<T extends Termed>(
  entries: T[],
  groupsOf: (entry: T) => readonly (string | null)[],
): { entries: T[]; added: number; generated: string[] } {
  // The candidate variants of each entry, with the term each was made from.
  const candidates = new Map<T, { variant: string; key: string; source: string }[]>();
  const watched = new Set<string>();
  for (const entry of entries) {
    let own: Set<string> | null = null;
    const found: { variant: string; key: string; source: string }[] = [];
    for (const source of [entry.name, ...entry.synonyms]) {
      if (!mightHaveVariants(source)) continue;
      for (const variant of spellingVariants(source)) {
        own ??= new Set([entry.name, ...entry.synonyms].map(fold));
        const key = fold(variant);
        if (own.has(key)) continue;
        own.add(key);
        found.push({ variant, key, source: fold(source) });
        watched.add(key).add(fold(source));
      }
    }
    if (found.length) candidates.set(entry, found);
  }

  // Who answers to each watched term, per group: authored terms, then the generated claims (so
  // two entries that would both be given one new spelling are seen).
  const owners = new Map<string, Set<number>>();
  const claim = (key: string, entry: T) => {
    for (const group of groupsOf(entry)) {
      const slot = `${group}|${key}`;
      const set = owners.get(slot) ?? new Set<number>();
      set.add(entry.id);
      owners.set(slot, set);
    }
  };
  for (const entry of entries)
    for (const term of [entry.name, ...entry.synonyms]) {
      const key = fold(term);
      if (watched.has(key)) claim(key, entry);
    }
  const authored = new Map([...owners].map(([slot, set]) => [slot, new Set(set)]));
  for (const [entry, found] of candidates) for (const { key } of found) claim(key, entry);

  // A variant is kept when, in each of the entry's groups, everything that answers to it already
  // answered to the term it was made from ("beta cell tumour" of two insulinoma entries): it adds
  // no ambiguity the authored data did not have.
  let added = 0;
  const generated: string[] = [];
  const result = entries.map((entry) => {
    const found = (candidates.get(entry) ?? [])
      .filter(({ key, source }) =>
        groupsOf(entry).every((group) => {
          const sourceOwners = authored.get(`${group}|${source}`)!;
          return [...owners.get(`${group}|${key}`)!].every((id) => sourceOwners.has(id));
        }),
      )
      .map(({ variant }) => variant);
    if (found.length === 0) return entry;
    added += found.length;
    for (const variant of found) generated.push(`${entry.id}:${variant}`);
    return { ...entry, synonyms: [...entry.synonyms, ...found] };
  });
  return { entries: result, added, generated };
}
