// Correctly spelt clinical and everyday words that sit one or two edits from a sign word
// ("prognosis" / "proptosis", "vehicle" / "vesicle", "haemolysis" / "haemoptysis", "consulting" /
// "convulsing"): they are known words, never spelling-corrected into a sign. Gathered by running
// the spelling corrector over the catalogue's own condition descriptions (every word it "corrected"
// there is a real word; the few genuine typos were left out), plus a few words of notes.
export const CLINICAL_WORDS: readonly string[] = `
abiotrophy absorption accidental acromegaly adducted afebrile aggressively agility alcoholic
alkaloids amelanotic amnion anhidrotic ankylosis anophthalmia antebrachium aplastic apprehension
aroids arthritis articles aseptic asymmetrically atonic atraumatic attrition avascular axilla axonal
axonopathy backyard bacteremia barker barley batten better blocker bodied bought brachygnathia
branching bridling bronchialis bronchovascular broody bulbous calcanean calcaneus cancer canker
cannon capillaria capillarid capillaris carbamate cardia caries carrier cartilage cecotropes center
centralis cerebellum cerebralis cervid chapter charge chives chlorine chorda clipping cloacolith
cloacoliths coital collection collections collies colostrum combine combining commissural commonest
compressing conduction confirmed congenita congestive constrictive consult consultant consultation
consulting consults consumptive contaminating continued continuing contusion converting convulsant
corpus correctly cranioventrally crinkling crushed crushing crystallises cuniculus cuterebral
cuterebrid cyclic cystoscopy defending deflectus delivery depending deprived dermatitidis
dermatology dermatophytic dermatoses descented designated detection detergent deterioration
developmental diagnoses diagnosis diaphyses diathesis difficile digitalis dilution discospondylosis
discovered disproportionately distraction distributive divergens diverting docking dollar drought
dumped duodenalis dystrophin ectopia education ejection elastic embryonal enostosis enthesiophytes
epidermis epididymitis epiglottis epilation epileptoid epithelium equids erythematosus excised
excitation exclusive exclusively excretion exfoliative exogenous expertise exploratory explosion
externa externally exudation fasciitis faulty fibrinous fibroblasts fibroelastic fibroses fibrosing
finches finding flavus fleshy flukes fluoresce formulary friction functional fungus futures gapeworm
garden gastrin generally granulosa gravis haemolysis haemorrhagica haemostasis hedges height
hemorrhagica hemostasis hepatica hepaticus hepatoma hidden homing hormonally humoral humour hunter
hypergammaglobulinaemia hypoalgesia ileocolonic inapparent incisional inclusion incompletely
incubation indigestion inductive infarction infarctive infiltrative infrequently inherited injure
injurious insertions insufficiency intensive intermale intermuscular interna internally interval
intervals intracellularis intraductal intravascular iritis keratinocytes keratomycosis kinetosis
lactational latent leukaemia leukaemias leukaemoid leukemia ligamentum lightning likely limbus
localisation lupinosis macrocyclic malignancy malignantly manage manica marble marrow massive
maternally maturation mechanically mechanics median medical medically melanocytes membranous
metabolism metabolite metacarpi metastasis metastasise metastasises metatarsus microcystin
microscope migration milker misplaced misuse modules morbidity motile multicentre multiplex multiply
murine myoclonia nearly necrolysis necrolytic necropsies necroses neoplasia nephrogenic nephropathy
nephrosis nephrotic nestling nestlings neurological neuropathic nymphs occulta oesophagea oestrosis
omental operative orthopaedic orthopedic osteodystrophia osteogenic otodectic overeating overeats
overground overgrow overlay oviductal paired papillomatosis paradoxically paralytic parasitic
parasitism parosteal particular pasture paternal pathologically patient pauses penetration peptic
perirectal persistence persistently persisting pestis phalangeal phosphide phosphine photic
photokeratitis physes plague plants plastica pleura pleuritis possibly precorneal preserved prevent
prevented pricked primarily processes processing prognoses prognosis progression progressively
projecting proposed protection proximally pseudopregnant psoroptic publication pulicosis pulmonale
purpurea pyrethrin rachitis rarely reabsorption receiving recurrence refeeding regrow regrowing
regrows relaxed remission reopening resection resistant resolution resolving responsible restarted
restrained retinalis retinol retroperitoneum risking rodens sacral sanguineus scarred scarring
sclerosing sclerotia scrapie scruffing scurvy seedlings sensitised septicaemia septicemia serious
serosae shaker shakers shoeing shunting sicker sickle significance simplex simply singly skeletally
slipper sloping spiral splinter spoiled spontaneously spring stalking starve starved stimulating
stoves straddle strands stranger strays stroke stroma strongylid strongylus struck stubbles
subcutaneously subungual supporting supportive supraspinous surgically symmetrically synoviae taenia
talocrural temporary tendinosis thistle thorns thrombotic thrush thyroidal tibiotarsus timber toxica
traction travel trombiculid trophic twinning typical unclear undermined ungular unproductively
unsuitable urethrolithiasis urticating valgum varies vehicle vehicles vehicular venereally venosus
verrucosa verrucosum verrucous vertebrates vertically vestibule viscera wallows weaken weakening
weanling weanlings weaver wilted yeasts`
  .split(/\s+/)
  .filter(Boolean);
