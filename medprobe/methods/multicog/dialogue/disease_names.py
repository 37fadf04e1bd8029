"""Ways of writing one disease: wording, abbreviations and synonyms, for matching a model's diagnosis
with a case's label beyond the reference's substring and alias rules.

* **Wording**: possessives ("Huntington's disease"), parentheses ("Acute myeloid leukemia (AML)"),
  "of"/"the" and word order ("Papillary thyroid carcinoma" for "Papillary carcinoma of the
  thyroid") do not change the disease. A label matches when all its words appear in *one* of the
  diagnoses the model names (the text is cut at commas, semicolons, "and", "or", "with", "vs", "due
  to", …), so two diagnoses side by side never combine into a third.
* **Abbreviations**: an upper-case word of the diagnosis that spells the label's initials ("BPPV"
  for benign paroxysmal positional vertigo, "AML" for acute myelogenous leukemia) or the label's own
  parenthesised abbreviation. Initials of a label of at least two words only, and upper case only,
  so "all" is never acute lymphoblastic leukemia and "AFL" is not atrial fibrillation.
* **Synonyms**: the English names the Chinese medical knowledge graph (PyCMeKG, shipped with
  medprobe) gives each disease ("Huntington chorea" = "Huntington disease"), and our table of lay
  names, eponyms and renamed entities ("kidney infection", "Lou Gehrig disease", "somatization
  disorder") that no shipped ontology links both ways (hpo3's HPO terms, OMIM and Orphanet diseases
  carry one name each and no synonyms; MeSH, in :mod:`~medprobe.methods.multicog.dialogue.mesh`,
  vouches only for the entry terms of a heading). Abbreviations among the graph's names are left out:
  short capitals are ambiguous ("IVF", "ALL"); the initials rule reads abbreviations.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

#: names of one disease that no shipped ontology links both ways (ours): lay names, eponyms, renamed
#: entities and MeSH entry terms that MeSH files under a broader heading (so that MeSH cannot vouch
#: for them as synonyms). Each group is one disease; a name broader or narrower than the others stays out.
COMMON_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("coccidioidomycosis", "valley fever", "san joaquin valley fever", "desert rheumatism"),
    ("infectious mononucleosis", "glandular fever", "mono", "kissing disease"),
    ("pertussis", "whooping cough"),
    ("varicella", "chickenpox", "chicken pox"),
    ("erythema infectiosum", "fifth disease", "slapped cheek syndrome", "slapped cheek disease"),
    ("leprosy", "hansen disease"),
    ("kawasaki disease", "mucocutaneous lymph node syndrome"),
    ("measles", "rubeola"),
    ("rubella", "german measles"),
    ("roseola infantum", "roseola", "exanthema subitum", "sixth disease"),
    ("pyelonephritis", "kidney infection", "renal infection"),
    ("androgenetic alopecia", "androgenic alopecia", "female pattern hair loss", "male pattern hair loss",
     "male pattern baldness", "female pattern baldness"),
    ("adhesive capsulitis", "frozen shoulder"),
    ("lateral epicondylitis", "tennis elbow"),
    ("medial epicondylitis", "golfer elbow"),
    ("prepatellar bursitis", "housemaid knee"),
    ("pes anserine bursitis", "anserine bursitis", "pes anserinus bursitis"),
    ("tetanus", "lockjaw"),
    ("streptococcal pharyngitis", "strep throat"),
    ("tinea pedis", "athlete foot"),
    ("tinea cruris", "jock itch"),
    ("tinea corporis", "ringworm"),
    ("herpes labialis", "cold sore", "cold sores", "fever blister"),
    ("oral candidiasis", "oral thrush"),
    ("otitis externa", "swimmer ear"),
    ("otitis media with effusion", "glue ear", "serous otitis media"),
    ("amblyopia", "lazy eye"),
    ("hordeolum", "stye"),
    ("urticaria", "hives"),
    ("nephrolithiasis", "kidney stones", "kidney stone", "renal calculi", "renal stones"),
    ("cholelithiasis", "gallstones", "gallstone disease"),
    ("pneumothorax", "collapsed lung"),
    ("transient ischemic attack", "mini-stroke", "ministroke"),
    ("stroke", "cerebrovascular accident", "brain attack"),
    ("myocardial infarction", "heart attack"),
    ("gastroesophageal reflux disease", "acid reflux disease"),
    ("benign prostatic hyperplasia", "benign prostatic hypertrophy", "enlarged prostate"),
    ("hypothyroidism", "underactive thyroid"),
    ("hyperthyroidism", "overactive thyroid"),
    ("viral gastroenteritis", "stomach flu"),
    ("pressure ulcer", "bedsore", "decubitus ulcer", "pressure sore"),
    ("osteogenesis imperfecta", "brittle bone disease"),
    ("idiopathic intracranial hypertension", "pseudotumor cerebri", "benign intracranial hypertension"),
    ("radial head subluxation", "nursemaid elbow", "pulled elbow"),
    ("popliteal cyst", "baker cyst"),
    ("intervertebral disc herniation", "disc herniation", "herniated disc", "slipped disc", "herniated nucleus pulposus"),
    ("enterobiasis", "pinworm infection", "pinworm infestation"),
    ("pediculosis pubis", "pubic lice", "crab lice"),
    ("amyotrophic lateral sclerosis", "lou gehrig disease", "motor neurone disease"),
    ("granulomatosis with polyangiitis", "wegener granulomatosis"),
    ("eosinophilic granulomatosis with polyangiitis", "churg-strauss syndrome"),
    ("iga vasculitis", "henoch-schonlein purpura", "anaphylactoid purpura"),
    ("giant cell arteritis", "temporal arteritis", "horton disease"),
    ("thromboangiitis obliterans", "buerger disease"),
    ("reactive arthritis", "reiter syndrome"),
    ("hereditary hemorrhagic telangiectasia", "osler-weber-rendu syndrome", "osler-weber-rendu disease"),
    ("polycystic ovary syndrome", "polycystic ovarian syndrome", "stein-leventhal syndrome"),
    ("hemophilia b", "christmas disease"),
    ("toxic epidermal necrolysis", "lyell syndrome"),
    ("parkinson disease", "paralysis agitans"),
    ("trisomy 21", "down syndrome"),
    ("trisomy 18", "edwards syndrome"),
    ("trisomy 13", "patau syndrome"),
    ("chronic lymphocytic thyroiditis", "hashimoto thyroiditis", "hashimoto disease"),
    ("primary adrenal insufficiency", "addison disease"),
    ("primary hyperaldosteronism", "primary aldosteronism", "conn syndrome"),
    ("postpartum pituitary necrosis", "sheehan syndrome"),
    ("congenital aganglionic megacolon", "hirschsprung disease"),
    ("legg-calve-perthes disease", "perthes disease", "legg-perthes disease"),
    ("de quervain tenosynovitis", "de quervain syndrome"),
    ("subacute granulomatous thyroiditis", "de quervain thyroiditis", "subacute thyroiditis"),
    ("painless thyroiditis", "silent thyroiditis"),
    ("giant cell tumor of bone", "osteoclastoma"),
    ("stevens-johnson syndrome", "steven-johnson syndrome"),
    ("neonatal respiratory distress syndrome", "infant respiratory distress syndrome", "hyaline membrane disease",
     "surfactant deficiency disorder"),
    ("takotsubo cardiomyopathy", "broken heart syndrome", "stress cardiomyopathy", "apical ballooning syndrome"),
    ("pancoast tumor", "superior sulcus tumor", "apical lung tumor"),
    ("ductal carcinoma in situ", "intraductal carcinoma"),
    ("squamous cell carcinoma in situ", "bowen disease"),
    ("lambert-eaton myasthenic syndrome", "lambert-eaton syndrome"),
    ("plummer-vinson syndrome", "paterson-kelly syndrome", "sideropenic dysphagia"),
    ("mallory-weiss syndrome", "mallory-weiss tear"),
    ("boerhaave syndrome", "spontaneous esophageal rupture"),
    ("acute kidney injury", "acute renal failure"),
    ("pseudocyesis", "false pregnancy", "phantom pregnancy"),
    ("somatic symptom disorder", "somatization disorder"),
    ("temporomandibular joint disorder", "temporomandibular joint dysfunction", "tmj disorder"),
    ("physiologic jaundice of the newborn", "physiological neonatal jaundice", "neonatal physiologic jaundice"),
    ("erythema toxicum neonatorum", "erythema toxicum"),
    ("cimicosis", "bed bug bites", "bed bug bite", "bedbug bites"),
    ("minimal change disease", "lipoid nephrosis", "nil disease"),
    ("coal workers pneumoconiosis", "black lung disease"),
    ("cutaneous larva migrans", "creeping eruption"),
    ("clostridioides difficile colitis", "clostridium difficile colitis", "c. difficile colitis", "c. diff colitis",
     "pseudomembranous colitis"),
    ("ankylosing spondylitis", "bechterew disease"),
    ("neurofibromatosis type 1", "von recklinghausen disease"),
    ("multiple endocrine neoplasia type 1", "men1", "men 1", "wermer syndrome"),
    ("congenital rubella syndrome", "congenital rubella infection"),
    ("acute myeloid leukemia", "acute myelogenous leukemia", "acute myelocytic leukemia"),
    ("atopic dermatitis", "atopic eczema"),
    ("eczematous dermatitis", "eczema"),
    ("posttraumatic stress disorder", "post-traumatic stress disorder"),
    ("gastric peptic ulcer", "gastric ulcer", "stomach ulcer"),
    ("vasovagal syncope", "neurocardiogenic syncope"),
    ("cardiac contusion", "myocardial contusion", "blunt cardiac injury"),
    ("complex partial seizure", "focal impaired awareness seizure", "focal seizure with impaired awareness"),
    ("progressive multifocal leukoencephalopathy", "progressive multifocal encephalopathy"),
    ("osteoarthritis", "degenerative joint disease"),
    ("epidermoid cyst", "epidermal inclusion cyst", "epidermal cyst"),
    ("phyllodes tumor", "cystosarcoma phyllodes"),
    ("hemorrhoids", "piles"),
    ("cytomegalovirus retinitis", "cmv retinitis"),
    ("interstitial cystitis", "bladder pain syndrome", "painful bladder syndrome"),
    ("fulminant hepatic failure", "fulminant liver failure", "acute liver failure"),
    ("essential thrombocythemia", "essential thrombocytosis", "primary thrombocythemia"),
    ("actinic keratosis", "solar keratosis"),
    ("seborrheic keratosis", "seborrheic wart", "basal cell papilloma"),
    ("thrombotic thrombocytopenic purpura", "moschcowitz syndrome"),
    ("dermatofibroma", "benign fibrous histiocytoma"),
    ("listeriosis", "listeria infection"),
    ("irritable bowel syndrome", "spastic colon"),
    ("mitral valve prolapse", "barlow syndrome"),
    ("melanoma", "malignant melanoma"),
    # abbreviations that are not a name's initials
    ("diabetic ketoacidosis", "dka"),
    ("tuberculosis", "tb"),
    ("st elevation myocardial infarction", "stemi"),
    ("non st elevation myocardial infarction", "nstemi"),
)

_STOPWORDS = frozenset({"of", "the"})  # not "a": hemophilia A is no hemophilia B
_BETWEEN_DIAGNOSES = re.compile(
    r"[,;\n/]|\b(?:and|or|with|vs|versus|due to|secondary to|caused by|complicated by|likely|probable|possible|"
    r"rule out|r/o)\b",
    re.IGNORECASE,
)
_PARENTHESES = re.compile(r"\(([^)]*)\)")
_POSSESSIVE = re.compile(r"['’`]s\b")


def words(text: str) -> list[str]:
    """Lower-case words without accents, possessives, parentheses, punctuation, "of" and "the"."""
    text = _POSSESSIVE.sub("", _PARENTHESES.sub(" ", fold(text).lower()))
    return [word for word in re.split(r"[^a-z0-9]+", text) if word and word not in _STOPWORDS]


def fold(text: str) -> str:
    """The text without accents ("Schönlein" -> "Schonlein", "Calvé" -> "Calve")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def diagnoses(text: str) -> list[str]:
    """The separate diagnoses a reply names ("A, B with C" -> A, B, C); parentheses stay attached."""
    return [part.strip() for part in _BETWEEN_DIAGNOSES.split(_PARENTHESES.sub(lambda m: f"({m[1].replace(',', ' ')})", text))
            if part.strip()]


def worded_alike(name: str, diagnosis_text: str) -> bool:
    """All words of ``name`` occur in one of the diagnoses of ``diagnosis_text``."""
    wanted = set(words(name))
    return bool(wanted) and any(wanted <= set(words(part)) for part in diagnoses(diagnosis_text))


def initials(name: str) -> str:
    """"Benign paroxysmal positional vertigo" -> "BPPV"; "Non-Hodgkin lymphoma" -> "NHL"."""
    return "".join(word[0] for word in words(name)).upper()


def abbreviated(label: str, diagnosis_text: str) -> str | None:
    """The upper-case word of the diagnosis that abbreviates the label, or None."""
    own = {group.strip() for group in _PARENTHESES.findall(label) if group.strip().isupper()}
    spelled = initials(label) if len(words(label)) >= 2 else ""
    for token in re.findall(r"\b[A-Z][A-Z0-9]{1,7}\b", diagnosis_text):
        if token in own or token == spelled:
            return token
    return None


def synonyms(label: str) -> list[str]:
    """Other names of the label's disease, from the knowledge graph and our table (may be empty)."""
    key = " ".join(words(label))
    return [name for name in _synonym_index().get(key, ()) if " ".join(words(name)) != key]


@cache
def _synonym_index() -> dict[str, tuple[str, ...]]:
    """Normalized name -> every name of the groups holding it."""
    index: dict[str, list[str]] = {}
    for group in (*COMMON_SYNONYMS, *_graph_groups()):
        for name in group:
            entry = index.setdefault(" ".join(words(name)), [])
            entry += [other for other in group if other not in entry]
    return {key: tuple(names) for key, names in index.items()}


def _graph_groups() -> Iterable[tuple[str, ...]]:
    """The English names of each disease of PyCMeKG (about a second to load, once per process)."""
    from medprobe.sources.kb_cmekg import disease_subjects, load_cmekg_graph

    graph = load_cmekg_graph()
    for subject in disease_subjects(graph):
        po = graph[subject]
        names = [
            part.strip()
            for predicate in ("英文名称", "英文别名", "英文别称", "外文名")
            for value in po.get(predicate, ())
            for part in re.split(r"[,;，；]", value.replace("\xa0", " "))
        ]
        names = [name for name in names if len(name) > 5 and not name.isupper() and re.fullmatch(r"[A-Za-z0-9 '’()\-]+", name)]
        if len(names) > 1:
            yield tuple(names)
