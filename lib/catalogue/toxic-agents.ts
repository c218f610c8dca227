// Toxic agents: how a history names each, and how the catalogue names its poisoning. Read by the
// extractor (lib/ai/local/risk-context.ts) and the ranker (lib/diagnosis/rank-differentials.ts).

/**
 * Agents a note may name, each with the words that name it in a history and the words that name
 * its poisoning in the catalogue (condition names and synonyms): "ate rat bait" points to the
 * rodenticide toxicoses, a dog's spot-on on a cat to permethrin, radiodense metal to lead or zinc.
 */
export const TOXIC_AGENTS: { key: string; note: RegExp; condition: RegExp }[] = [
  {
    key: "rodenticide",
    note: /\b(?:rat (?:bait|poison)|mouse (?:bait|poison)|rodenticides?|warfarin|brodifacoum|bromadiolone|difenacoum|bromethalin|cholecalciferol rodenticide|poison(?:ed)? bait)\b/i,
    condition: /rodenticide|bromethalin|warfarin|phosphide|cholecalciferol/i,
  },
  {
    key: "pyrethroid",
    note: /\b(?:spot-?ons?|flea (?:treatments?|products?|drops|shampoo|spray|medication)|permethrins?|pyrethr\w*)\b/i,
    condition: /permethrin|pyrethr/i,
  },
  { key: "lily", note: /\blil(?:y|ies)\b/i, condition: /\blil(?:y|ies)\b/i },
  {
    key: "chocolate",
    note: /\b(?:chocolate|cocoa|theobromine)\b/i,
    condition: /chocolate|theobromine|methylxanthine/i,
  },
  { key: "grape", note: /\b(?:grapes?|raisins?|currants?|sultanas?)\b/i, condition: /grape|raisin|vitis/i },
  {
    key: "xylitol",
    // Chewing gum is the usual source: "ate a packet of gum", "got into the Mentos gum".
    note: /\b(?:xylitol|birch sugar|(?:chewing|sugar-?free|sugarless|nicotine) gum|sugar-?free (?:sweets|candy|mints)|(?:ate|eaten|eating|ingested|swallowed|chewed|got into)\b(?:\s+[\w'-]+){0,5}?\s+gum)\b/i,
    condition: /xylitol/i,
  },
  {
    key: "ethylene glycol",
    note: /\b(?:anti-?freeze|ethylene glycol)\b/i,
    condition: /ethylene glycol|antifreeze/i,
  },
  {
    key: "nsaid",
    note: /\b(?:ibuprofen|naproxen|nsaids?|meloxicam|carprofen|aspirin|diclofenac|robenacoxib|firocoxib|phenylbutazone|bute)\b/i,
    condition: /nsaid|non-steroidal|ibuprofen|aspirin|salicylate/i,
  },
  { key: "paracetamol", note: /\b(?:paracetamol|acetaminophen)\b/i, condition: /paracetamol|acetaminophen/i },
  {
    key: "metaldehyde",
    note: /\b(?:slug (?:pellets?|bait)|snail bait|metaldehyde)\b/i,
    condition: /metaldehyde/i,
  },
  {
    key: "heavy metal",
    note: /\b(?:lead (?:paint|shot|weights?|pellets?|objects?|toys?|fragments?)|fishing weights?|curtain weights?|metal(?:lic)? (?:fragments?|opacit\w*|densit\w*|particles?|flecks?|foreign bod\w*)|zinc|coins?|pennies|galvani[sz]ed)\b/i,
    condition: /\blead\b|zinc|heavy metal|plumbism/i,
  },
  {
    key: "cannabis",
    note: /\b(?:cannabis|marijuana|thc|weed edibles?|edibles)\b/i,
    condition: /cannabis|marijuana|\bthc\b/i,
  },
  {
    key: "cholinesterase inhibitor",
    note: /\b(?:organophosphates?|carbamates?|insecticides?|pesticides?|flea collars?)\b/i,
    condition: /organophosphate|carbamate/i,
  },
  {
    key: "snake",
    note: /\b(?:snake ?bite|bitten by a (?:snake|adder|viper)|adder|rattlesnake|viper|copperhead)\b/i,
    condition: /envenom|snake ?bite|adder/i,
  },
  { key: "toad", note: /\btoads?\b/i, condition: /toad|bufo/i },
  { key: "allium", note: /\b(?:onions?|garlic|chives|leeks?)\b/i, condition: /onion|garlic|allium|heinz/i },
  { key: "macadamia", note: /\bmacadamia\b/i, condition: /macadamia/i },
  { key: "mushroom", note: /\b(?:mushrooms?|toadstools?)\b/i, condition: /mushroom|amanita/i },
  {
    key: "macrocyclic lactone",
    note: /\b(?:ivermectin|moxidectin|milbemycin|selamectin|(?:horse |equine )?(?:de)?wormer)\b/i,
    condition: /ivermectin|macrocyclic|avermectin/i,
  },
  { key: "amitraz", note: /\b(?:amitraz|tick collar)\b/i, condition: /amitraz/i },
  {
    key: "cyanobacteria",
    note: /\b(?:blue-?green algae|algal bloom|cyanobacteria)\b/i,
    condition: /cyanobacteria|blue-green algae|microcystin/i,
  },
  { key: "ragwort", note: /\bragwort\b/i, condition: /ragwort|pyrrolizidine/i },
  { key: "yew", note: /\byew\b/i, condition: /\byew\b|taxus/i },
  { key: "acorn", note: /\b(?:acorns?|oak leaves)\b/i, condition: /acorn|\boak\b|quercus/i },
  { key: "sycamore", note: /\bsycamore\b/i, condition: /sycamore|atypical myopathy|hypoglycin/i },
];
