// Body sites named by sign and finding names, for reasoning by site: a condition known for one
// finding at a site (an intestinal mass) partly explains another finding at the same site
// (thickened intestines), and a site's region (the abdomen) contains its organs. Word stems map to
// sites; a site may sit inside a region, and a sign at a site is at its region too.

/** Word (lower case, whole word or stem prefix ending in "*") → site. */
const SITE_WORDS: [RegExp, string][] = [
  [/^(abdomen|abdominal|peritoneal|peritoneum|ascites)$/, "abdomen"],
  [/^(thorax|thoracic|chest|pleural|mediastinal|mediastinum)$/, "thorax"],
  [
    /^(intestine|intestines|intestinal|bowel|bowels|enteric|jejunal|jejunum|ileal|ileum|duodenal|duodenum)$/,
    "intestine",
  ],
  [/^(colon|colonic|caecal|cecal|caecum|cecum)$/, "colon"],
  [/^(rectal|rectum|anal|anus|perianal|perineal|perineum)$/, "anorectal"],
  [/^(gastric|stomach|pyloric|abomasal|abomasum|rumen|ruminal|forestomach)$/, "stomach"],
  [/^(oesophageal|esophageal|oesophagus|esophagus|megaoesophagus|megaesophagus|crop)$/, "oesophagus"],
  [/^(liver|hepatic|hepatomegaly|hepatocellular)$/, "liver"],
  [/^(gallbladder|biliary|bile|cholestasis)$/, "biliary"],
  [/^(spleen|splenic|splenomegaly)$/, "spleen"],
  [/^(pancreas|pancreatic)$/, "pancreas"],
  [/^(kidney|kidneys|renal|renomegaly|perirenal)$/, "kidney"],
  [/^(bladder|cystic|urinary|urolith|uroliths|urolithiasis|cystoliths)$/, "bladder"],
  [/^(urethra|urethral)$/, "urethra"],
  [/^(prostate|prostatic|prostatomegaly)$/, "prostate"],
  [/^(testicle|testicles|testicular|testis|testes|scrotal|scrotum)$/, "testis"],
  [/^(penis|penile|prepuce|preputial|sheath)$/, "penis"],
  [/^(uterus|uterine|vulva|vulval|vulvar|vagina|vaginal|ovary|ovarian|oviduct|cervix)$/, "female tract"],
  [/^(mammary|udder|teat|teats|milk)$/, "mammary"],
  [/^(lung|lungs|pulmonary|bronchial|bronchi|alveolar|interstitial)$/, "lung"],
  [/^(heart|cardiac|cardiomegaly|pericardial|pericardium|murmur|valvular|atrial|ventricular)$/, "heart"],
  [/^(nasal|nose|nostril|nostrils|sinus|sinuses|epistaxis|rhinarium|sneezing|nasopharyngeal)$/, "nose"],
  [/^(larynx|laryngeal|pharynx|pharyngeal|throat|tracheal|trachea|stridor)$/, "airway"],
  [
    /^(oral|mouth|gingival|gums|gum|tooth|teeth|dental|tongue|lingual|cheek|palate|jaw|mandibular|maxillary|incisor|incisors|molar|molars)$/,
    "mouth",
  ],
  [/^(ear|ears|aural|otic|tympanic|pinna|pinnae|pinnal)$/, "ear"],
  [
    /^(eye|eyes|ocular|corneal|cornea|conjunctival|conjunctiva|eyelid|eyelids|periocular|retinal|retina|pupil|pupils|iris|lens|scleral|orbital|retrobulbar|exophthalmos|blepharospasm|uveitis|epiphora)$/,
    "eye",
  ],
  [/^(skin|cutaneous|dermal|subcutaneous|coat|fur|hair|alopecia|pruritus)$/, "skin"],
  [/^(joint|joints|articular|periarticular|stifle|hock|carpus|carpal|elbow|hip|shoulder)$/, "joint"],
  [/^(bone|bones|osseous|periosteal|osteolysis|osteolytic|fracture|cortical|medullary)$/, "bone"],
  [/^(spinal|spine|vertebral|vertebra|vertebrae|disc|back|paraspinal)$/, "spine"],
  [
    /^(limb|limbs|leg|legs|foot|feet|paw|paws|hoof|hooves|digit|digits|toe|toes|claw|claws|nail|nails|pad|pads|forelimb|hindlimb|lameness)$/,
    "limb",
  ],
  [/^(head|facial|face|skull|cranial)$/, "head"],
  [/^(neck|cervical)$/, "neck"],
  [/^(tail)$/, "tail"],
  [/^(lymph|lymphadenopathy|lymphadenomegaly)$/, "lymph node"],
  [/^(thyroid|goitre|goiter)$/, "thyroid"],
  [/^(adrenal|adrenals)$/, "adrenal"],
  [/^(cloaca|cloacal|vent)$/, "cloaca"],
  [/^(feather|feathers|plumage)$/, "feathers"],
  [/^(shell|carapace|plastron|scute|scutes)$/, "shell"],
];

/** Sites inside a region: a finding at the organ is a finding in the region too. */
const REGION_OF: Record<string, string> = {
  intestine: "abdomen",
  colon: "abdomen",
  stomach: "abdomen",
  liver: "abdomen",
  biliary: "abdomen",
  spleen: "abdomen",
  pancreas: "abdomen",
  kidney: "abdomen",
  bladder: "abdomen",
  "female tract": "abdomen",
  adrenal: "abdomen",
  lung: "thorax",
  heart: "thorax",
};

/**
 * A structural finding at a site (a mass, a swelling, an enlarged or thickened organ, fluid, a
 * stone): what imaging and palpation find. Functional signs (pain, chattering, coughing) are
 * explained by their own links, not by a neighbour's.
 */
const STRUCTURAL =
  /\b(mass|masses|swelling|swollen|thicken\w*|enlarge\w*|\w*megaly|nodul\w*|nodes?|effusion|distension|distended|dilat\w*|calcul\w*|\w*liths?|cysts?|cystic|polyps?|plaque|ulcer\w*|foreign|obstruct\w*|fluid|free gas|opacit\w*|lysis|osteolysis|deformity|fracture)\b/;

export function isStructural(name: string): boolean {
  return STRUCTURAL.test(name.toLowerCase());
}

/** The sites a sign or finding names, and the regions containing them. */
export interface BodySites {
  sites: string[];
  regions: string[];
  /** A mass ("abdominal mass"): at a region, it may be any organ's. */
  mass: boolean;
}

export function bodySites(name: string): BodySites {
  const sites = new Set<string>();
  for (const word of name.toLowerCase().match(/[a-z]+/g) ?? []) {
    for (const [pattern, site] of SITE_WORDS) if (pattern.test(word)) sites.add(site);
  }
  const regions = new Set<string>();
  for (const site of sites) regions.add(REGION_OF[site] ?? site);
  return { sites: [...sites], regions: [...regions], mass: /\bmass(es)?\b/.test(name.toLowerCase()) };
}

const isRegion = (site: string) => Object.values(REGION_OF).includes(site);

/**
 * Two findings at one site ("intestinal mass", "thickened intestines"), or a mass at a region and
 * a finding at an organ inside it ("abdominal mass", "splenomegaly"); two organs of one region
 * (bladder, intestine) are not the same site, nor is a distended abdomen an organ's finding.
 */
export function shareSite(a: BodySites, b: BodySites): boolean {
  if (a.sites.some((site) => b.sites.includes(site))) return true;
  const regionOnly = (x: BodySites) => x.mass && x.sites.length > 0 && x.sites.every(isRegion);
  if (regionOnly(a) && a.sites.some((r) => b.regions.includes(r))) return true;
  if (regionOnly(b) && b.sites.some((r) => a.regions.includes(r))) return true;
  return false;
}
