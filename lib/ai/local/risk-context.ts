// What a note says of the animal's surroundings and history that changes which conditions are
// likely: vaccination, travel, and environment (outdoor access, contact with other animals,
// pasture, water, scavenging, raw food, husbandry). The condition catalogue uses the same words
// in its risk factors (db/seed/check-data.mjs lists them).
import { TOXIC_AGENTS } from "@/lib/catalogue/toxic-agents";

export interface RiskContext {
  /** true: vaccinated and up to date; false: unvaccinated or never vaccinated; null: not said. */
  vaccinated: boolean | null;
  /** Travel to or import from another region. */
  travelled: boolean | null;
  environment: string[];
  /** The note names an exposure: a toxin, drug, plant, venomous animal or foreign material. */
  exposure?: boolean;
  /** The agents the note names the animal was exposed to (TOXIC_AGENTS keys): "rodenticide", "lily". */
  agents?: string[];
}

/** A mention preceded in its clause by a denial ("no access to ibuprofen", "denies any toxins"). */
function denied(text: string, at: number): boolean {
  const clause =
    text
      .slice(Math.max(0, at - 60), at)
      .split(/[.;\n]|\bbut\b/)
      .at(-1) ?? "";
  return /\b(?:no|not|never|nil|denies|denied|without|ruled out|unlikely)\b/i.test(clause);
}

/** The first mention of a pattern that is not denied. */
function assertedMention(text: string, pattern: RegExp): boolean {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`,
  );
  for (const m of text.matchAll(global)) if (!denied(text, m.index)) return true;
  return false;
}

const UNVACCINATED =
  /\b(?:un-?vaccinated|unvacc(?:inated|'d)?|not (?:been )?vacc(?:inated|'d)?|never (?:been )?vacc(?:inated|'d)?|no (?:vaccinations?|vaccines?|vacc(?:ination)?s?)(?: or [a-z]+)?(?: history| hx)?|vaccination status unknown|vaccinations? (?:not|never) (?:done|given|up to date)|(?:vaccines?|vaccinations?|vaccs?) (?:are )?(?:overdue|lapsed|out of date)|incomplete(?:ly)? vaccinat\w*|partially vaccinated|only (?:had )?(?:one|1|first) vacc\w*)\b/i;
const VACCINATED =
  /\b(?:fully vaccinated|vaccinated|vaccs? (?:up to date|utd|current)|vaccinations? (?:are )?(?:up to date|current|utd)|utd (?:on )?vacc\w*|up to date (?:on|with) vacc\w*|vacc'd|vaccines? up to date)\b/i;
const TRAVEL =
  /\b(?:travell?ed|recent(?:ly)? (?:imported|travel\w*)|imported from|import(?:ed)? (?:dog|cat)|returned from|back from (?:holiday|abroad|a trip)|trip to|holiday (?:in|abroad)|rescued? (?:dog |cat )?from (?:spain|greece|romania|cyprus|portugal|italy|abroad|overseas|turkey|bulgaria|hungary|india|thailand|mexico)|from abroad|pet passport|overseas)\b/i;

const ENVIRONMENT: [string, RegExp][] = [
  [
    "indoor",
    /\b(?:indoor[- ]only|indoors only|kept indoors|strictly indoor|indoor (?:cat|dog|rabbit|pet)|house cat|lives indoors|never goes outside)\b/i,
  ],
  [
    "outdoor",
    /\b(?:outdoor (?:cat|dog|access)|outdoor[- ]access|goes outside|allowed out(?:side)?|free[- ]roaming|roams|roaming|hunts|hunter|access to (?:the )?outdoors|lives outside|kept outside|garden access|indoor\/outdoor|indoor-outdoor|stray)\b/i,
  ],
  [
    "multi_animal",
    /\b(?:shelter|rescue (?:centre|center)|cattery|catteries|kennels?|boarding|multi[- ](?:cat|dog|pet)|multi-animal|other (?:cats|dogs|animals) in (?:the )?house(?:hold)?|herd|flock|shows?|showing|sale|market|dog park|day ?care|breeder|pet shop|litter ?mates?|group[- ]housed)\b/i,
  ],
  ["pasture", /\b(?:pasture|grazing|grazed|at grass|turned out|paddock|field|lush grass|spring grass)\b/i],
  ["housed", /\b(?:housed|in-wintered|indoors for (?:the )?winter|barn|shed|yard(?:ed)?|stabled|stall)\b/i],
  [
    "rural",
    /\b(?:farm|rural|woodland|woods|forest|wildlife|livestock|hunting|deer|countryside|game birds?|ticks?|tick[- ]infested|rodents?|rats?|mice)\b/i,
  ],
  [
    "water",
    /\b(?:swim(?:s|ming)?|swam|ponds?|lakes?|rivers?|standing water|puddles?|canals?|streams?|flood(?:ed|water)?)\b/i,
  ],
  [
    "scavenging",
    /\b(?:scaveng\w*|raided (?:the )?(?:bin|rubbish|trash|garbage)|bin[- ]raid\w*|got into (?:the )?(?:bin|rubbish|trash|garbage|compost)|(?:ate|eaten|eating|access to) (?:a |the )?(?:carcass|dead (?:animal|bird|rabbit|deer|rat|mouse)|rubbish|garbage|compost|mouldy food|moldy food)|dietary indiscretion|carcass)\b/i,
  ],
  ["raw_diet", /\b(?:raw[- ](?:fed|diet|food|meat|chicken)|barf diet|unpasteuri[sz]ed)\b/i],
  [
    "poor_husbandry",
    /\b(?:no uvb|without uvb|no uv (?:light|lamp)|inadequate (?:heat\w*|lighting|uv\w*|diet)|poor husbandry|all[- ]seed diet|seed[- ]only diet|seed diet|no calcium (?:supplement\w*|dusting)|(?:cold|low) (?:vivarium|enclosure) temperatures?|no heat (?:lamp|mat|source)|(?:lettuce|iceberg)[- ]only diet|poor (?:diet|hygiene|ventilation))\b/i,
  ],
  [
    "warm_climate",
    /\b(?:tropical|endemic area|mediterranean|southern europe|sub-?saharan|caribbean|south[- ]east asia|north africa|southern (?:us|united states))\b/i,
  ],
];

const EXPOSURE =
  /\b(?:ingest(?:ed|ion)|swallowed|chewed|licked|got into|exposed to|exposure to|access to (?:a |the )?(?:poison|toxin|bait|medication|tablets|pills|antifreeze|rat|slug)|poison(?:ed|ing|ous)?|toxins?|toxic|bait|rodenticide|rat poison|slug pellets?|metaldehyde|antifreeze|ethylene glycol|chocolate|grapes?|raisins?|currants?|sultanas?|xylitol|lil(?:y|ies)|permethrin|paracetamol|acetaminophen|ibuprofen|naproxen|nsaids?|overdose|insulin|medications?|tablets?|pills?|spot-?on|flea product|mouldy|moldy|mushrooms?|cannabis|marijuana|thc|snake ?bite|adder|bitten by a snake|toad|bee sting|wasp sting|stung|ragwort|yew|acorns?|sycamore|bracken|oak|onions?|garlic|macadamia|lead|zinc|coins?|batteries|battery|bleach|fertili[sz]er|herbicide|pesticide|insecticide|organophosphate|carbamate|plant|plants)\b/i;

export function findRiskContext(text: string): RiskContext {
  const notes = typeof text === "string" ? text : "";
  const unvaccinated = UNVACCINATED.test(notes);
  const vaccinated = !unvaccinated && VACCINATED.test(notes);
  const agents = TOXIC_AGENTS.filter((a) => assertedMention(notes, a.note)).map((a) => a.key);
  return {
    vaccinated: unvaccinated ? false : vaccinated ? true : null,
    travelled: TRAVEL.test(notes) ? true : null,
    environment: ENVIRONMENT.filter(([, re]) => re.test(notes)).map(([key]) => key),
    ...(assertedMention(notes, EXPOSURE) ? { exposure: true } : {}),
    ...(agents.length > 0 ? { agents } : {}),
  };
}
