// The local, deterministic clinical-text extractor ("local-v1"): no network, no model. Notes are
// tokenised once; signalment is read first (its breed and name words are then off limits for
// signs), then sign phrases, shorthand and measurements, each given a status from its clause.
import type { Lexicon } from "@/lib/ai/lexicon";
import type { Extraction, Extractor, MentionStatus, SymptomMention } from "@/lib/ai/types";
import { buildContext, mentionStatus, type StatusResult } from "./context";
import { getLexiconIndex } from "./lexicon-index";
import { findSignMentions, qualifiedMeasurements, spellingCorrections } from "./match-signs";
import type { TokenView } from "./phrase-index";
import { isSignificant } from "./significance";
import { extractSignalment } from "./signalment";
import { sentenceTopic, stem, tokenise, type Token } from "./tokenise";
import { findLabFindings } from "./lab-values";
import { findRiskContext } from "./risk-context";
import { findVitalSigns } from "./vitals";
import { findNormalStatements } from "./normal-statements";
import { applySignSenses } from "./sign-senses";

export const LOCAL_EXTRACTOR_NAME = "local-v1";

const FINDING_CATEGORIES = new Set(["Laboratory findings", "Imaging findings"]);
/** Findings a result section may name: laboratory and imaging entries, masses, organ size, fluid. */
const RESULT_LIKE =
  /mass|megaly|effusion|kidneys|calculi|uroliths|fracture|thickened|distended|lymphadenopathy|haemoabdomen|nodule/;
/** A sign named in a result section is its laboratory finding: "UA: haematuria". */
const RESULT_EQUIVALENTS: Record<string, string> = {
  haematuria: "microscopic haematuria",
  hematuria: "microscopic haematuria",
};
function isFinding(symptom: { name: string; categoryName: string }): boolean {
  return FINDING_CATEGORIES.has(symptom.categoryName) || RESULT_LIKE.test(symptom.name);
}

/** Synchronous core of the extractor (the interface is async; this never waits on anything). */
/** Something only to watch for by a word that says so ("watch for", "if"), not by a plan section alone. */
const onlyWatched = (judged: StatusResult) => judged.status === "hypothetical" || judged.watchWord === true;

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

  // Signs read from spans of text rather than phrases: measured values, patterns, vital signs.
  const spanMention = (
    span: { sign: string; start: number; end: number },
    extra: { significantHint: boolean; forced?: "present"; measured?: true },
  ) => {
    const id = index.symptomIdByName.get(span.sign);
    const inside = tokens.filter((t) => t.start >= span.start && t.end <= span.end);
    if (id === undefined || inside.length === 0) return;
    mentions.push({
      symptomId: id,
      start: inside[0]!.index,
      end: inside[inside.length - 1]!.index + 1,
      keyPhrase: text.slice(span.start, span.end).trim(),
      distance: 0,
      forced: extra.forced ?? null,
      significantHint: extra.significantHint,
      ...(extra.measured ? { measured: true } : {}),
    });
  };
  const lab = findLabFindings(text, speciesKey, signalment.patient.ageYears);
  for (const finding of lab.findings)
    spanMention(finding, { significantHint: finding.significant, forced: "present", measured: true });
  for (const pattern of findPatternSigns(text)) spanMention(pattern, { significantHint: false });
  // A measured value is what it is, whatever the clause says ("pulse 140 with no arrhythmia, RR 54").
  for (const finding of findVitalSigns(text, speciesKey, signalment.weights, signalment.patient.ageYears))
    spanMention(finding, { significantHint: finding.significant, measured: true });

  for (const m of mentions) {
    const name = lexicon.symptomById.get(m.symptomId)?.name;
    const equivalent = name ? RESULT_EQUIVALENTS[name] : undefined;
    const clause = ctx.clauses[ctx.clauseOf[m.start] ?? -1];
    const id = equivalent ? index.symptomIdByName.get(equivalent) : undefined;
    if (id !== undefined && clause?.section === "lab") m.symptomId = id;
  }
  resolveSites(mentions, tokens, index.symptomIdByName);
  dropRetractionWithEffusion(mentions, tokens, index.symptomIdByName);
  applyQualifiers(mentions, tokens, index.symptomIdByName);
  readTransientUnconsciousness(mentions, tokens, index.symptomIdByName);
  applySignSenses(text, mentions, tokens, (id) => lexicon.symptomById.get(id)?.name);

  const byKey = new Map<string, SymptomMention & { order: number }>();
  /** Signs the note later says have settled or resolved, by the position of that statement. */
  const resolvedAt = new Map<number, number>();
  for (const m of mentions) {
    const symptom = lexicon.symptomById.get(m.symptomId);
    if (!symptom) continue;
    if (speciesId !== null && symptom.animalTypeIds && !symptom.animalTypeIds.includes(speciesId)) continue;
    // "?hairballs": a query, not a finding.
    const before = tokens[m.start - 1];
    const queried = Boolean(before && before.norm === "?" && before.end === tokens[m.start]!.start);
    let status: MentionStatus;
    const finding = isFinding(symptom);
    if ((queried || m.quoted) && !m.measured) {
      // "'collapsed'": a word in quotes is someone's word for what happened, not a finding.
      status = "hypothetical";
    } else if (m.measured) {
      // A value is the animal's now, unless another animal's, or a raised or low value named
      // without a number only to watch for ("watch for a raised RR").
      const judged = mentionStatus(ctx, m.start, m.end, claimed, { finding });
      const valued = tokens.slice(m.start, m.end).some((t) => /\d/.test(t.norm));
      status =
        judged.status === "other_animal" || (!valued && onlyWatched(judged)) ? judged.status : "present";
    } else if (m.forced) {
      const judged = mentionStatus(ctx, m.start, m.end, claimed, { finding });
      if (judged.dropped) continue;
      // "no v+, no d+": a negation right before the marked shorthand wins over its "+".
      const negated = ["no", "nil", "not", "without", "w/o", "denies"].includes(
        tokens[m.start - 1]?.norm ?? "",
      );
      if (negated && m.forced === "present") status = "absent";
      // An explicit "+"/"-" wins over the clause, except for another animal's signs and for
      // something only to watch for ("watch for bloody D+ over the next 24 h").
      else if (judged.status === "other_animal") status = "other_animal";
      else if (m.forced === "present" && onlyWatched(judged)) status = judged.status;
      // "Had mild D+ at the weekend, resolved.": the sentence ends the episode.
      else if (m.forced === "present" && judged.resolved) status = judged.status;
      else status = m.forced;
    } else {
      const judged = mentionStatus(ctx, m.start, m.end, claimed, { finding });
      if (judged.dropped) continue;
      status = judged.status;
      if (judged.resolved) resolvedAt.set(m.symptomId, Math.max(resolvedAt.get(m.symptomId) ?? 0, m.start));
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
  // "mild itch ..., itch mostly settled since": the earlier mention was of a sign since resolved.
  for (const [id, at] of resolvedAt) {
    const present = byKey.get(`${id}|present`);
    const historical = byKey.get(`${id}|historical`);
    if (!present || !historical || (tokens[at]?.start ?? 0) < present.order) continue;
    byKey.delete(`${id}|present`);
    for (const phrase of present.keyPhrases)
      if (!historical.keyPhrases.includes(phrase)) historical.keyPhrases.push(phrase);
    historical.order = Math.min(historical.order, present.order);
  }
  // "BAR", "eating well": lethargy and inappetence denied, unless the note mentions them itself.
  for (const statement of findNormalStatements(text)) {
    const id = index.symptomIdByName.get(statement.sign);
    if (id === undefined || [...byKey.values()].some((m) => m.symptomId === id)) continue;
    byKey.set(`${id}|absent`, {
      symptomId: id,
      keyPhrases: [statement.keyPhrase],
      distance: 0,
      status: "absent",
      significant: false,
      order: statement.start,
    });
  }
  const symptoms: SymptomMention[] = [...byKey.values()]
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...mention }) => mention);

  const patient = { ...signalment.patient, riskContext: findRiskContext(text) };
  const flags = [...lab.flags];
  const w = signalment.patient.weight;
  const kg = w ? w.value * ({ kg: 1, g: 0.001, lb: 0.4536 } as const)[w.unit] : null;
  if (w && kg !== null && (kg > 1600 || kg <= 0)) {
    flags.push({
      text: `${w.value} ${w.unit}`,
      reason: "weight outside what any animal could have; not used",
    });
    patient.weight = null;
  }
  return { patient, symptoms, extractor: LOCAL_EXTRACTOR_NAME, ...(flags.length > 0 ? { flags } : {}) };
}

/** Generic words for a mass; the site named beside them decides which finding it is. */
const GENERIC_MASS = new Set([
  "mass",
  "masses",
  "lump",
  "lumps",
  "growth",
  "growths",
  "nodule",
  "nodules",
  "tumour",
  "tumor",
  "tumours",
  "tumors",
  "neoplasm",
  "lesion",
  "bump",
  "bumps",
]);
const MASS_SITES: [RegExp, string][] = [
  [/^(?:skin|subcutaneous|subcutis|cutaneous|dermal|sc|subcut|intradermal)$/, "skin mass"],
  [/^(?:splen\w*|spleen)$/, "splenic mass"],
  [/^(?:liver|hepatic|hepatobiliary)$/, "hepatic mass"],
  [/^(?:kidney|kidneys|renal)$/, "renal mass"],
  [/^adrenal\w*$/, "adrenomegaly"],
  [/^(?:stomach|gastric|pylor\w*)$/, "gastric mass"],
  [/^(?:pancrea\w*)$/, "pancreatic mass"],
  [
    /^(?:intestin\w*|jejun\w*|duoden\w*|ile\w*|colon|colonic|caec\w*|cec\w*|bowel|gut|rect\w*)$/,
    "intestinal mass",
  ],
  [/^(?:o?esophag\w*)$/, "oesophageal mass"],
  [/^(?:bladder|urethra\w*|trigon\w*)$/, "bladder mass"],
  [
    /^(?:chest|thora\w*|mediastin\w*|lung|lungs|pulmonary|intrathoracic|heart|atri\w*|cardiac|pericardi\w*|pleura\w*)$/,
    "thoracic mass",
  ],
  [
    /^(?:mouth|oral|gum|gums|gingiva\w*|tongue|lingual|sublingual|palat\w*|maxill\w*|mandib\w*|jaw|tonsil\w*|buccal|lip|cheek|cheeks|pharyn\w*|oropharyn\w*)$/,
    "oral mass",
  ],
  [/^(?:nose|nasal|intranasal|nasopharyn\w*|laryn\w*|sinus\w*)$/, "nasal mass"],
  [/^(?:neck|cervical|thyroid|salivary|submandibular|throat)$/, "cervical mass"],
  // "masses L M3 and M4": the glands by number.
  [/^(?:mammary|teat|teats|breast|m[1-5])$/, "mammary mass"],
  [/^(?:perianal|anal|perineal|perineum|circumanal|vent|cloaca\w*)$/, "perianal mass"],
  [/^(?:testic\w*|testis|testes|scrot\w*)$/, "testicular mass"],
  [/^(?:vagina\w*|vulva\w*)$/, "vaginal mass"],
  [/^(?:eyelid|eyelids|lid|conjunctiva\w*|third)$/, "eyelid mass"],
  [/^(?:eye|ocular|orbit\w*|retrobulbar|intraocular|iris)$/, "ocular mass"],
  [/^(?:ear|aural|pinna)$/, "ear canal mass"],
  [/^(?:coelom\w*)$/, "coelomic mass"],
  [
    /^(?:abdomen|abdominal|abdo|intra-abdominal|intraabdominal|peritoneal|mesenteric|sublumbar|pelvic|pelvis)$/,
    "abdominal mass",
  ],
  [
    /^(?:limb|leg|legs|bone|bony|tars\w*|carp\w*|humer\w*|femur|femoral|radius|radial|ulna\w*|tibia\w*|stifle|elbow|shoulder|hock|digit|toe|metacarp\w*|metatars\w*|rib|ribs|scapula\w*|skull|vertebra\w*)$/,
    "limb mass",
  ],
];

const PAIN_SITES: [RegExp, string][] = [
  [/^(?:abdomen|abdominal|abdo|belly|tummy|epigastric)$/, "abdominal pain"],
  [/^(?:bladder)$/, "bladder pain"],
  [/^(?:kidney|kidneys|renal|flank)$/, "renal pain"],
  [/^(?:neck|cervical)$/, "neck pain"],
  [/^(?:back|spine|spinal|lumbar|thoracolumbar|lumbosacral|vertebra\w*|paraspinal|sacral)$/, "spinal pain"],
  [
    /^(?:joint|joints|hip|hips|stifle|stifles|elbow|elbows|carpus|carpi|shoulder|shoulders|tarsus|hock|hocks|fetlock)$/,
    "joint pain",
  ],
  [/^(?:mouth|oral|jaw|teeth|tooth|gums)$/, "oral pain"],
  [/^(?:ear|ears|pinna)$/, "ear pain"],
  [/^(?:bone|bones|long)$/, "bone pain"],
  [/^(?:muscle|muscles|muscular|quadriceps|thigh)$/, "muscle pain"],
  [/^(?:perianal|perineal|anal|anus|rectal)$/, "perianal pain"],
  [/^(?:mammary|udder|teat|teats)$/, "mammary pain"],
  [/^(?:hoof|hooves|foot|feet|sole)$/, "hoof pain"],
  // The catalogue files a painful eye under blepharospasm ("ocular pain" is its synonym).
  [/^(?:eye|eyes|ocular|globe)$/, "blepharospasm"],
  // A limb keeps plain pain, and being nearer it stops a farther site from taking the word
  // ("L ear clean, R hind leg very painful").
  [
    /^(?:limb|limbs|leg|legs|hind|fore|forelimb|forelimbs|hindlimb|hindlimbs|paw|paws|digit|toe|toes)$/,
    "pain",
  ],
];
// Limbs and joints keep plain "swelling": vets write "swollen R forelimb over carpus" for a
// soft-tissue swelling as often as for a joint effusion.
const SWELLING_SITES: [RegExp, string][] = [
  [
    /^(?:face|facial|muzzle|lips|lip|cheek|cheeks|head|jaw|jawline|jowl|jowls|zygomatic|zygoma|cheekbone|maxilla|maxillary|mandible|mandibular)$/,
    "facial swelling",
  ],
  [/^(?:neck|throat|cervical|throatlatch)$/, "neck swelling"],
  [/^(?:eyelid|eyelids|periorbital|orbit\w*|periocular)$/, "periorbital swelling"],
  [/^(?:vulva|vulval|vulvar)$/, "vulval swelling"],
  [/^(?:mammary|udder|teat|teats)$/, "mammary swelling"],
  [/^(?:testicle|testicles|testis|testes|scrotum|scrotal)$/, "testicular swelling"],
  [/^(?:prepuce|preputial|sheath)$/, "preputial swelling"],
  [/^(?:umbilicus|umbilical|navel)$/, "umbilical swelling"],
  [/^(?:perianal|perineal|perineum|anal)$/, "perineal swelling"],
  [/^(?:ventral|belly|brisket|ventrally)$/, "ventral oedema"],
  [/^(?:submandibular|intermandibular)$/, "submandibular oedema"],
  [/^(?:tendon|tendons)$/, "swollen tendon"],
  [/^(?:nose|nasal)$/, "nasal swelling"],
  [/^(?:sinus|sinuses)$/, "swollen sinuses"],
  [/^(?:wattle|wattles)$/, "wattle swelling"],
  // A limb or joint keeps plain swelling, and being nearer it stops a farther site from taking
  // the word ("soft lower jaw, swollen hind legs").
  [
    /^(?:limb|limbs|leg|legs|hind|fore|forelimb|forelimbs|hindlimb|hindlimbs|joint|joints|carpus|hock|hocks|stifle|fetlock|foot|feet|paw|paws|digit|toe|toes)$/,
    "swelling",
  ],
];
const ABDOMEN = /^(?:abdomen|abdominal|abdo|belly|tummy)$/;
const LYMPH_NODE = /^(?:lymph|ln|lns|lnn|node|nodes)$/;
/** Nodules in the lungs are the radiographic pattern, not a mass. */
const GENERIC_NODULE = new Set(["nodule", "nodules"]);
const NODULE_SITES: [RegExp, string][] = [[/^(?:lung|lungs|pulmonary)$/, "pulmonary nodules"], ...MASS_SITES];
/** A smell takes its source: the mouth or breath is halitosis, the ears ear odour. */
const GENERIC_MALODOUR = new Set([
  "smell",
  "smelly",
  "malodour",
  "malodor",
  "bad smell",
  "foul odour",
  "foul odor",
  "offensive smell",
  "smells bad",
  "stinks",
  "unpleasant odour",
]);
const MALODOUR_SITES: [RegExp, string][] = [
  [/^(?:mouth|oral|breath|teeth|gums|jaw)$/, "halitosis"],
  [/^(?:ear|ears|aural)$/, "ear odour"],
];
const INTENSIFIERS =
  /^(?:(?:very|v|slightly|mildly|quite|clearly|obviously|acutely|moderately|severely|extremely|markedly)\s+)+/;
const GENERIC_PAIN = new Set([
  "pain",
  "painful",
  "uncomfortable",
  "sore",
  "tender",
  "discomfort",
  "pain on palpation",
  "painful on palpation",
  "resents palpation",
  "painful to palpate",
  "sore to touch",
]);
const GENERIC_SWELLING = new Set(["swelling", "swellings", "swollen"]);
const GENERIC_WEAKNESS = new Set(["weak", "weakness", "weaker"]);
// Weakness of the limbs is paresis ("hind limb weakness", "weak on both hindlimbs").
const WEAKNESS_SITES: [RegExp, string][] = [
  [
    /^(?:hindlimb|hindlimbs|hind|hinds|limbs|limb|legs|forelimb|forelimbs|fore|hls|fls|pelvic|back)$/,
    "paresis",
  ],
];
const GENERIC_OEDEMA = new Set(["oedema", "edema", "oedematous", "edematous"]);
// Oedema of the limbs is peripheral oedema, unlike a swollen limb.
const OEDEMA_SITES: [RegExp, string][] = [
  [
    /^(?:limb|limbs|leg|legs|hls|fls|hindlimbs|forelimbs|hindlimb|forelimb|pasterns|distal|lower)$/,
    "peripheral oedema",
  ],
];

/** Every sign a site table above names, for checking that each is a catalogue sign (a synonym is not). */
export const SITE_SIGN_NAMES: readonly string[] = [
  ...new Set(
    [
      MASS_SITES,
      PAIN_SITES,
      SWELLING_SITES,
      NODULE_SITES,
      MALODOUR_SITES,
      WEAKNESS_SITES,
      OEDEMA_SITES,
    ].flatMap((table) => table.map(([, name]) => name)),
  ),
];

/**
 * Lung lobes retract from the thoracic wall with fluid as well as with air: "pleural effusion with
 * retracted lung lobes" is no pneumothorax. A retraction phrase is read as pneumothorax only when
 * its sentence names no pleural effusion.
 */
function dropRetractionWithEffusion(
  mentions: { symptomId: number; start: number; keyPhrase: string }[],
  tokens: Token[],
  idByName: ReadonlyMap<string, number>,
) {
  const pneumothorax = idByName.get("pneumothorax");
  const effusion = idByName.get("pleural effusion");
  if (pneumothorax === undefined || effusion === undefined) return;
  const sentenceOf = (i: number) => {
    let n = 0;
    for (let k = 0; k < i && k < tokens.length; k++) if (tokens[k]!.kind === "break") n++;
    return n;
  };
  const effusionSentences = new Set(
    mentions.filter((m) => m.symptomId === effusion).map((m) => sentenceOf(m.start)),
  );
  if (effusionSentences.size === 0) return;
  for (let i = mentions.length - 1; i >= 0; i--) {
    const m = mentions[i]!;
    if (
      m.symptomId === pneumothorax &&
      /retract/i.test(m.keyPhrase) &&
      effusionSentences.has(sentenceOf(m.start))
    )
      mentions.splice(i, 1);
  }
}

/**
 * A generic mention takes the site written beside it: "mass in the cranial mediastinum" is a
 * thoracic mass, "bladder v large + painful" bladder pain, "swelling all 4 legs" limb swelling.
 * The nearest site word in the same sentence decides; with none the generic sign stays.
 */
function resolveSites(
  mentions: { symptomId: number; start: number; end: number; keyPhrase: string }[],
  tokens: Token[],
  idByName: ReadonlyMap<string, number>,
) {
  const rules: [number | undefined, Set<string>, [RegExp, string][]][] = [
    [idByName.get("skin mass"), GENERIC_NODULE, NODULE_SITES],
    [idByName.get("skin mass"), GENERIC_MASS, MASS_SITES],
    [idByName.get("malodour"), GENERIC_MALODOUR, MALODOUR_SITES],
    [idByName.get("pain"), GENERIC_PAIN, PAIN_SITES],
    // The abdomen: "abdomen swollen" is distension, "a swelling palpable in the abdomen" a mass.
    [idByName.get("swelling"), new Set(["swollen"]), [[ABDOMEN, "abdominal distension"], ...SWELLING_SITES]],
    [idByName.get("swelling"), GENERIC_SWELLING, [[ABDOMEN, "abdominal mass"], ...SWELLING_SITES]],
    [idByName.get("swelling"), GENERIC_OEDEMA, [...OEDEMA_SITES, ...SWELLING_SITES]],
    [idByName.get("weakness"), GENERIC_WEAKNESS, WEAKNESS_SITES],
  ];
  // The site of the last mass placed, for a later "the mass" that names none ("a mass in the
  // spleen … the mass is partly cavitary").
  let lastMassSite: number | null = null;
  const placedMassIds = new Set(
    [...MASS_SITES, ...NODULE_SITES]
      .map(([, name]) => idByName.get(name))
      .filter((id): id is number => id !== undefined && id !== idByName.get("skin mass")),
  );
  for (const m of [...mentions].sort((a, b) => a.start - b.start)) {
    // "very uncomfortable", "mildly painful": the generic word under an intensifier.
    const phrase = m.keyPhrase.toLowerCase().replace(INTENSIFIERS, "");
    const rule = rules.find(([id, words]) => id === m.symptomId && words.has(phrase));
    if (!rule) {
      // A mass named with its site ("splenic mass", "mass in the spleen").
      if (placedMassIds.has(m.symptomId)) lastMassSite = m.symptomId;
      continue;
    }
    const sites = rule[2];
    // Weakness is paresis only with the limbs right beside it ("HL weakness", "weak on both
    // hindlimbs"), not "weak, worst in the hind legs".
    const near = rule[2] === WEAKNESS_SITES;
    let best: { id: number; distance: number } | null = null;
    for (const direction of [-1, 1]) {
      for (
        let k = direction < 0 ? m.start - 1 : m.end, steps = 0;
        k >= 0 && k < tokens.length && steps < (near ? 5 : 12);
        k += direction, steps++
      ) {
        const t = tokens[k]!;
        if (t.kind === "break") break;
        if (near && (t.norm === "," || t.norm === "and")) break;
        // "mid-coelom", "mid-abdomen": the site is the hyphenated word's last part.
        let word = t.norm.includes("-") ? t.norm.slice(t.norm.lastIndexOf("-") + 1) : t.norm;
        // "L M3 and M4": a mammary gland by number, written as a letter and a digit.
        if (
          word === "m" &&
          tokens[k + 1]?.kind === "num" &&
          /^[1-5]$/.test(tokens[k + 1]!.norm) &&
          !/^(?:kg|g|lb|lbs|y|yo|yr|yrs|years?|mo|mos|months?|wk|wks|weeks?|cm|mm|%)$/.test(
            tokens[k + 2]?.norm ?? "",
          )
        )
          word = `m${tokens[k + 1]!.norm}`;
        let site = sites.find(([re]) => re.test(t.norm) || re.test(word));
        if (!site) continue;
        // "swollen mandibular lymph nodes", "submandibular LNs enlarged": the nodes, not the region.
        if ([tokens[k + 1], tokens[k + 2]].some((n) => n && LYMPH_NODE.test(n.norm)))
          site = [LYMPH_NODE, "lymphadenopathy"];
        // "mass in the right limb of the pancreas": the organ after "of" is the site.
        if (tokens[k + 1]?.norm === "of") {
          const organ = [tokens[k + 2], tokens[k + 3]].find(
            (o) => o && sites.some(([re]) => re.test(o.norm)),
          );
          if (organ) site = sites.find(([re]) => re.test(organ.norm)) ?? site;
        }
        const id = idByName.get(site[1]);
        if (id !== undefined && (!best || steps < best.distance)) best = { id, distance: steps };
        break;
      }
    }
    // "R ear: shaking, thick d/c, very sore to touch": else the sentence's heading names the site.
    if (!best && !near) {
      const topic = sentenceTopic(tokens, m.start);
      const site = sites.find(([re]) => topic.some((w) => re.test(w)));
      const id = site && idByName.get(site[1]);
      if (id !== undefined) best = { id, distance: 0 };
    }
    const isMass = sites === MASS_SITES || sites === NODULE_SITES;
    if (isMass && !best && lastMassSite !== null && definiteBefore(tokens, m.start))
      best = { id: lastMassSite, distance: 0 };
    if (best) m.symptomId = best.id;
    if (isMass && best) lastMassSite = best.id;
  }
}

/** "the mass", "this large lump", "both masses": a mass already named (up to two words between). */
function definiteBefore(tokens: Token[], start: number): boolean {
  for (let k = start - 1; k >= Math.max(0, start - 3); k--) {
    const word = tokens[k]!.norm;
    if (["the", "this", "that", "these", "those", "both", "same", "its", "said"].includes(word)) return true;
    if (tokens[k]!.kind !== "word") return false;
  }
  return false;
}

/** Words that make a loss of consciousness a passing episode, not coma. */
const TRANSIENT_WORDS = new Set([
  "episode",
  "episodes",
  "lasted",
  "lasting",
  "seconds",
  "secs",
  "sec",
  "minutes",
  "mins",
  "min",
  "brief",
  "briefly",
  "recovered",
  "recovers",
  "normal",
  "round",
  "fainted",
  "fainting",
]);
/** Signs of a seizure beside the lost consciousness: paddling, shaking, voiding, champing. */
const ICTAL_WORDS = new Set([
  "paddling",
  "paddled",
  "trembling",
  "shaking",
  "jerking",
  "twitching",
  "convulsing",
  "convulsions",
  "champing",
  "chomping",
  "urinated",
  "defecated",
  "incontinent",
  "bladder",
  "foaming",
  "rigid",
  "stiffened",
]);

/**
 * "Collapsed, unconscious, whole body trembling, lost bladder control; lasted a couple of
 * minutes": an unconsciousness the sentence calls a passing episode is no coma. With shaking,
 * paddling or voiding beside it, it is a seizure; without, a faint (syncope).
 */
function readTransientUnconsciousness(
  mentions: { symptomId: number; start: number; end: number }[],
  tokens: Token[],
  idByName: ReadonlyMap<string, number>,
) {
  const coma = idByName.get("coma");
  const seizures = idByName.get("seizures");
  const syncope = idByName.get("syncope");
  if (coma === undefined || seizures === undefined || syncope === undefined) return;
  for (const m of mentions) {
    if (m.symptomId !== coma) continue;
    let from = m.start;
    while (from > 0 && tokens[from - 1]!.kind !== "break") from--;
    let to = m.end;
    while (to < tokens.length && tokens[to]!.kind !== "break") to++;
    // A following sentence may tell how long it lasted ("Lasted 2 minutes.").
    let next = to + 1;
    while (next < tokens.length && tokens[next]!.kind !== "break") next++;
    const words = tokens.slice(from, next).map((t) => t.norm);
    if (!words.some((w) => TRANSIENT_WORDS.has(w))) continue;
    m.symptomId = words.some((w) => ICTAL_WORDS.has(w)) ? seizures : syncope;
  }
}

/** A qualifier beside a general sign picks the specific one: "bloody D+", "productive cough". */
const QUALIFIERS: { sign: string; words: RegExp; specific: string }[] = [
  {
    sign: "diarrhoea",
    words: /^(?:bloody|blood|blood-stained|bloodstained|haemorrhagic|hemorrhagic|red|jam)$/,
    specific: "haemorrhagic diarrhoea",
  },
  {
    sign: "vomiting",
    words: /^(?:bloody|blood|blood-stained|haemorrhagic|hemorrhagic|coffee-ground|coffee)$/,
    specific: "haematemesis",
  },
  { sign: "vomiting", words: /^projectile$/, specific: "projectile vomiting" },
  { sign: "coughing", words: /^(?:productive|moist|wet)$/, specific: "productive cough" },
  { sign: "coughing", words: /^(?:dry|harsh|hacking|unproductive)$/, specific: "dry cough" },
  { sign: "coughing", words: /^(?:honking|goose-honk)$/, specific: "honking cough" },
  {
    sign: "nasal discharge",
    words: /^(?:bloody|blood|blood-tinged|haemorrhagic|hemorrhagic)$/,
    specific: "epistaxis",
  },
  {
    sign: "nasal discharge",
    words: /^(?:purulent|mucopurulent|green|yellow|pus)$/,
    specific: "mucopurulent nasal discharge",
  },
  { sign: "nasal discharge", words: /^(?:unilateral|one-sided)$/, specific: "unilateral nasal discharge" },
  {
    sign: "ocular discharge",
    words: /^(?:purulent|mucopurulent|green|yellow|pus)$/,
    specific: "purulent ocular discharge",
  },
  { sign: "seizures", words: /^cluster$/, specific: "cluster seizures" },
  { sign: "seizures", words: /^(?:focal|partial)$/, specific: "focal seizures" },
];

function applyQualifiers(
  mentions: { symptomId: number; start: number; end: number }[],
  tokens: Token[],
  idByName: ReadonlyMap<string, number>,
) {
  for (const m of mentions) {
    for (const q of QUALIFIERS) {
      if (idByName.get(q.sign) !== m.symptomId) continue;
      // A qualifier across "and" or a comma is the next sign's: "V+ and bloody d+".
      const joins = (t: Token | undefined) => t !== undefined && /^(?:and|or|,|;|&|\/)$/.test(t.norm);
      const near = [
        tokens[m.start - 1],
        joins(tokens[m.start - 1]) ? undefined : tokens[m.start - 2],
        joins(tokens[m.end]) ? undefined : tokens[m.end],
        joins(tokens[m.end]) ? undefined : tokens[m.end + 1],
      ];
      // "D+ with blood" reads the word after "with".
      const withBlood =
        tokens[m.end]?.norm === "with" && /^(?:blood|fresh|frank)$/.test(tokens[m.end + 1]?.norm ?? "");
      const hit =
        near.some((t) => t && t.kind !== "break" && q.words.test(t.norm)) ||
        (withBlood && q.specific.startsWith("haem"));
      const id = idByName.get(q.specific);
      if (hit && id !== undefined) {
        m.symptomId = id;
        break;
      }
    }
  }
}

/**
 * Signs written as patterns rather than phrases: "eating + drinking less" (both), and a body
 * condition score at the thin end of its scale ("BCS 2/9", "BCS 1.5/5", "body condition score 3/9").
 */
function findPatternSigns(text: string): { sign: string; start: number; end: number }[] {
  const found: { sign: string; start: number; end: number }[] = [];
  // "eating + drinking less", "drinking and urinating more than usual", "drinking and peeing
  // massively": each verb takes the direction.
  const VERB = "eating|appetite|drinking|thirst|urinating|urination|peeing|weeing";
  const pair = new RegExp(
    `\\b(${VERB})\\s*(?:,|and|\\+|&|\\/)\\s*(${VERB})(?:\\s*(?:,|and|\\+|&|\\/)\\s*(${VERB}))?\\s+(?:much\\s+|a lot\\s+|far\\s+|a little\\s+|slightly\\s+)?(less|more|reduced|decreased|increased|massively|excessively|constantly|loads|lots|a lot|a great deal|heaps|like mad)\\b`,
    "gi",
  );
  const SIGNS: Record<string, [string, string]> = {
    eating: ["polyphagia", "inappetence"],
    appetite: ["polyphagia", "inappetence"],
    drinking: ["polydipsia", "reduced water intake"],
    thirst: ["polydipsia", "reduced water intake"],
    urinating: ["polyuria", "oliguria"],
    urination: ["polyuria", "oliguria"],
    peeing: ["polyuria", "oliguria"],
    weeing: ["polyuria", "oliguria"],
  };
  for (const m of text.matchAll(pair)) {
    const more = !/less|reduced|decreased/i.test(m[4]!);
    const span = { start: m.index, end: m.index + m[0].length };
    for (const verb of [m[1], m[2], m[3]]) {
      const signs = verb ? SIGNS[verb.toLowerCase()] : undefined;
      if (signs) found.push({ sign: more ? signs[0] : signs[1], ...span });
    }
  }
  // "lost several pounds", "losing lots of weight", "has lost 2 kg", "lost a little condition", "lost
  // 15% of bodyweight".
  const lost =
    /\b(?:lost|losing|loses|dropped|dropping|shed|shedding)\s+(?:(?:a|some|several|lots|lot|of|little|bit|much|quite|considerable|significant|noticeable|great|good|deal|about|around|approx\.?|~|the|his|her|its|\d+(?:\.\d+)?\s*%?)\s*){1,4}(?:weight|body\s?weight|wt|pounds|lbs?|kgs?|kilos?|kilograms?|grams|condition|body condition)\b/gi;
  for (const m of text.matchAll(lost))
    found.push({ sign: "weight loss", start: m.index, end: m.index + m[0].length });
  // "down 80 g on her pre-hibernation weight", "lost 300 g", "wt down 1.2 kg": a weighed loss.
  const weighedLoss =
    /\b(?:(?:wt|weight|bw)\s+)?(?:down|lost|dropped)\s+(?:by\s+)?(?:about\s+|around\s+|approx\.?\s*|~\s*)?\d+(?:[.,]\d+)?\s*(?:kg|kgs|g|gm|gms|grams|lb|lbs)(?![\w/%])/gi;
  for (const m of text.matchAll(weighedLoss))
    found.push({ sign: "weight loss", start: m.index, end: m.index + m[0].length });
  // "won't eat or drink", "no interest in food or water": both appetite and thirst.
  const foodAndWater =
    /\b(?:won't|will not|doesn't|does not|didn't|did not|not|no interest in|not interested in|off(?: (?:his|her|its))?|refusing|refuses|stopped)\s+(?:(?:want to|wanting to)\s+)?(?:food|eat|eating)\s+(?:or|and|\+|&|\/|nor)\s+(?:water|drink|drinking)\b/gi;
  for (const m of text.matchAll(foodAndWater)) {
    found.push({ sign: "inappetence", start: m.index, end: m.index + m[0].length });
    found.push({ sign: "reduced water intake", start: m.index, end: m.index + m[0].length });
  }
  // A list of colours for the mucous membranes: "pale, yellow-tinged mucous membranes", "gums
  // pale/bluish". Each colour is its own sign (one colour alone is a catalogue phrase).
  const COLOURS: [RegExp, string][] = [
    [/^(?:pale|white|whitish|blanched|porcelain)$/i, "pale mucous membranes"],
    [/^(?:yellow|yellowish|yellow-tinged|icteric|jaundiced)$/i, "jaundice"],
    [/^(?:blue|bluish|blue-tinged|cyanotic|purple|purplish|dusky)$/i, "cyanosis"],
    [/^(?:injected|hyperaemic|hyperemic|congested|brick-red)$/i, "hyperaemic mucous membranes"],
  ];
  const COLOUR =
    "pale|white|whitish|blanched|porcelain|yellow|yellowish|yellow-tinged|icteric|jaundiced|blue|bluish|blue-tinged|cyanotic|purple|purplish|dusky|injected|hyperaemic|hyperemic|congested|brick-red";
  const LIST = `(?:${COLOUR})(?:\\s*(?:,|\\/|and|\\+|&)\\s*(?:${COLOUR})){1,2}`;
  const MEMBRANES = "mucous membranes|mms?|gums|gingivae?|oral mucosae?";
  const colourLists = new RegExp(
    `\\b(?:(${LIST})\\s+(?:${MEMBRANES})|(?:${MEMBRANES})\\s+(?:(?:are|were|look|looked|slightly|very|mildly|markedly)\\s+)*(${LIST}))\\b`,
    "gi",
  );
  for (const m of text.matchAll(colourLists)) {
    for (const word of (m[1] ?? m[2] ?? "").split(/\s*(?:,|\/|and|\+|&)\s*/i)) {
      const sign = COLOURS.find(([re]) => re.test(word))?.[1];
      if (sign) found.push({ sign, start: m.index, end: m.index + m[0].length });
    }
  }
  const bcs =
    /\b(?:BCS|(?:body\s+)?condition\s+score)\s*(?:of\s*|[:=]\s*|is\s*|was\s*)?(?:~|approx\.?\s*|c\.\s*)?(\d(?:\.\d)?)\s*\/\s*(9|5)\b/gi;
  for (const m of text.matchAll(bcs)) {
    const score = Number(m[1]);
    const thin = m[2] === "9" ? score <= 3 : score <= 2;
    if (thin) found.push({ sign: "poor body condition", start: m.index, end: m.index + m[0].length });
  }
  // "regenerative anaemia", "strongly regenerative anemia": the marrow's response (reticulocytes)
  // besides the anaemia itself; not "non-regenerative", "poorly regenerative" or "pre-regenerative".
  const regenerative =
    /(?<!\b(?:non|pre|poorly|weakly|inadequately|not|minimally)[\s-]?)\bregenerative\s+(?:an(?:a)?emia|anaemic|anemic)\b/gi;
  for (const m of text.matchAll(regenerative))
    found.push({ sign: "reticulocytosis", start: m.index, end: m.index + m[0].length });
  return found;
}

export const localExtractor: Extractor = {
  name: LOCAL_EXTRACTOR_NAME,
  async extract(notes, lexicon, options) {
    if (options?.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    return extractLocally(notes, lexicon);
  },
};
