"""End-point scoring of a MultiCogEval full-path episode: is the final diagnosis the case's disease?

``grade_diagnosis`` says whether a final answer names the gold disease and why, as one *kind*:

* ``match`` — the gold's own name, in any word order or inflection, maybe with qualifiers
  ("acute", "left-sided");
* ``synonym`` — another name of the disease: the case's accepted names, the reference's alias
  table, MeSH entry terms of the gold's heading, PyCMeKG's English names, our table of lay names
  and eponyms ("kidney infection" for pyelonephritis, "Lou Gehrig disease" for ALS);
* ``abbreviation`` — its initials or a listed abbreviation, in capitals ("BPPV", "CHF");
* ``specific form`` — a form of the gold: MeSH files the answer under the gold ("IgA vasculitis"
  for vasculitis), or the answer adds a specifying part to the gold's name ("squamous cell
  carcinoma of the lip");
* ``hedged`` — the gold only among alternatives, as a possibility or in a differential;
* ``broader`` — a wider category ("alopecia" for androgenetic alopecia, "hepatitis" for hepatitis B);
* ``other`` — none of the above (another disease, or one no rule relates: the judge may decide);
* ``none`` — no diagnosis given.

The first four are correct. In **strict** mode (the default) a hedge is wrong, as a hedged answer
to an MCQ is. **Reference-compatible** mode keeps MultiCogEval's rule, ``get_diagnosis_results`` of
the public reference (THUMLP/MultiCogEval, ``scripts/tools/high_level_tools.py``, REFERENCE_METHODS
§5.4): the gold name or an alias anywhere in the text is right, hedged or not ("hedged" answers
are then counted as correct, and the substring rule credits "pulmonary hypertension" for
hypertension). ``match_diagnosis`` is that rule, with medprobe's wording, abbreviation and synonym
additions for diseases outside the reference's 42 MIMIC labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Literal

from medprobe.methods.multicog.dialogue import mesh
from medprobe.methods.multicog.dialogue.claims import Claim, claims
from medprobe.methods.multicog.dialogue.disease_names import abbreviated, synonyms, worded_alike, words
from medprobe.parsing.reply_text import visible

_DIAGNOSIS = re.compile(r"diagnosis:(.*?)(?:treatment:|treatment plan:|\Z)", re.IGNORECASE | re.DOTALL)

Alias = str | tuple[str, ...]

ALTERNATIVE_DIAGNOSIS: Mapping[str, tuple[Alias, ...]] = {
    "hepatitis B": ("hep B", "hep-B", "HBV", "Hep B", "Hep-B", "hepatitis B", "Hepatitis B"),
    "prostatitis": ("prostatitis", "Prostatitis"),
    "type 1 diabetes mellitus": ("T1DM", "insulin-dependent diabetes", "IDDM", "Type 1 diabetes"),
    "Herpes zoster": ("presumed  zoster", "zoster", "Zoster", "shingles", "Varicella-Zoster Virus", "VZV"),
    "Pancreatitis": (),
    "infectious mononucleosis": ("mononucleosis",),
    "lupus erythematosus": ("SLE", "lupus", "Lupus"),
    "atrial fibrillation": (
        "A-fib",
        "Atrial fibrillation",
        "afib",
        "a-fib",
        "A. fib",
        "A. Fib",
        "atrial  fibrillation",
        "AF",
    ),
    "Hepatitis C": ("hep C", "hep-C", "HCV", "Hep C", "Hep-C", "hepatitis C", "Hepatitis C", "hepatitic C"),
    "Subarachnoid hemorrhage": ("SAH", "Subarachnoid", "sub-arachnoid hemorrhage"),
    "Hepatitis A": ("hep A", "hep-A", "HAV", "Hep A", "Hep-A", "hepatitis A", "Hepatitis A", "hepatitic A"),
    "Pelvic inflammatory disease": ("PID", "pelvic inflammatory"),
    "Hypothyroidism": (),
    "heart failure": ("heart  failure", "HFrEF", "HFpEF", "CHF", "HF", "dCHF"),
    "eosinophilia": (),
    "Adhesive capsulitis": ("adhesive  capsulitis",),
    "Normal pressure hydrocephalus": ("NPH",),
    "Esophageal varices": (
        "esophageal  variceal",
        "esophageal/gastric varices",
        "esophageal varix",
        "Esophageal variceal",
        "esophageal variceal",
    ),
    "hypertension": ("HTN", "cHTN", "elevated blood pressure", "high blood pressure"),
    "Pericarditis": ("pericardial inflammation",),
    "hematuria": ("blood in urine",),
    "Ventricular tachycardia": ("VT",),
    "colitis": (("inflammation", "colon"),),
    "deficiency anemia": (("deficiency", "anemia"),),
    "bronchitis": (),
    "type 2 diabetes mellitus": (
        "T2DM",
        "non-insulin-dependent diabetes",
        "NIDDM",
        "Type 2 diabetes",
        "NIDDM2",
    ),
    "Sick sinus": (),
    "sleep apnea": ("OSA",),
    "sinusitis": ("sphenoiditis", "Sinus infection"),
    "Sepsis": (),
    "cholecystitis": (("gallbladder", "inflammation"),),
    "Myasthenia": (),
    "Irritable bowel syndrome": ("IBS", "ibs"),
    "obstructive pulmonary disease": ("COPD", "copd"),
    "unstable angina": ("UA",),
    "Orthostatic Hypotension": (),
    "tubular necrosis": (),
    "claudication": (),
    "carpal tunnel": (),
    "bacteremia": (("blood", "infection"),),
    "asthma": (),
    "Hemolytic anemia": (("hemolysis", "anemia"),),
    "multiple sclerosis": ("secondary progressive MS", "RRMS", "MS"),
    "osteoarthritis": ("OA",),
    "Necrotizing fasciitis": (),
    "Lyme disease": ("Lyme",),
    "rheumatoid arthritis": ("RA",),
    "Hypocalcemia": ("hypocalcemic",),
    "Cardiac tamponade": (("pericardial", "tamponade"), ("cardiac", "tamponade")),
    "Polymyalgia rheumatica": ("polymyalgia  rheumatica",),
    "Dilated cardiomyopathy": (),
    "appendicitis": (),
}
"""The reference's ``alternative_diagnosis`` (52 keys, spelled as the disease labels of
``hadm_ids_dict.json``; double spaces included). A string must occur as a whole word, ignoring
case; a tuple needs every one of its words."""


def extract_diagnosis(final_text: str) -> str:
    """The diagnosis in an episode's last message, or '' when it has no "diagnosis:" (§5.4).

    The text from the first "diagnosis:" (any case) up to "treatment:", "treatment plan:" or the
    end, stripped. A failed or early-stopped episode has no such text and so scores 0.
    """
    found = _DIAGNOSIS.search(final_text)
    return found.group(1).strip() if found else ""


@lru_cache(maxsize=1024)
def _word(term: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(term)}\b", re.IGNORECASE)


def _alias_hits(alias: Alias, diagnosis: str) -> bool:
    words = (alias,) if isinstance(alias, str) else alias
    return all(_word(word).search(diagnosis) for word in words)


def _alias_name(alias: Alias) -> str:
    return alias if isinstance(alias, str) else "+".join(alias)


def match_diagnosis(label: str, diagnosis: str, case_synonyms: Iterable[str] = ()) -> str | None:
    """Which rule accepts ``diagnosis`` for the disease ``label``, or None when it is wrong (§5.4).

    In order: ``"name"`` when the label (lowercase) is a substring of the diagnosis (lowercase);
    ``"alias:<entry>"`` for the first entry of ``ALTERNATIVE_DIAGNOSIS[label]`` that matches (a
    tuple entry is written with "+" between its words); ``"synonym:<s>"`` for the first
    case-supplied synonym found as a whole word, ignoring case (our addition for diseases outside
    the table; the reference has none). Then our rules, for the label and each case-supplied name:
    ``"wording"`` (all its words in one of the diagnoses named, whatever the order, possessives and
    parentheses), ``"abbreviation:<A>"`` (an upper-case word spelling its initials or its own
    parenthesised abbreviation) and ``"ontology:<name>"`` (another name of the disease, worded
    alike); see :mod:`~medprobe.methods.multicog.dialogue.disease_names`.

    The reference's leniency is kept on purpose, so scores stay comparable: the substring test
    accepts "pulmonary hypertension" for hypertension and whole-word aliases accept "HF" inside
    "HF with preserved EF" but also "AF" in any text that uses it for something else.
    """
    if label.lower() in diagnosis.lower():
        return "name"
    for alias in ALTERNATIVE_DIAGNOSIS.get(label, ()):
        if _alias_hits(alias, diagnosis):
            return f"alias:{_alias_name(alias)}"
    names = [label, *(name for name in case_synonyms if name.strip())]
    for synonym in names[1:]:
        if _word(synonym).search(diagnosis):
            return f"synonym:{synonym}"
    if any(worded_alike(name, diagnosis) for name in names):
        return "wording"
    for name in names:
        if token := abbreviated(name, diagnosis):
            return f"abbreviation:{token}"
    for name in names:
        for other in synonyms(name):
            if worded_alike(other, diagnosis):
                return f"ontology:{other}"
    return None


#: "judge" is given by the episode scorer to an "other" answer that the judge model accepted
Kind = Literal["match", "synonym", "specific form", "abbreviation", "hedged", "broader", "other", "none", "judge"]
KINDS: tuple[Kind, ...] = ("match", "synonym", "specific form", "abbreviation", "hedged", "broader", "other", "none")
CORRECT_KINDS: tuple[Kind, ...] = ("match", "synonym", "abbreviation", "specific form")  # best first
MODES = ("strict", "reference-compatible")

#: words that name no disease of their own: "Kawasaki" is Kawasaki disease, but "Cushing syndrome"
#: is not Cushing disease, so an answer may drop these words, not swap them
_GENERIC = frozenset({"disease", "syndrome", "disorder"})
#: words that qualify a disease without making it another one ("acute pyelonephritis" is a match),
#: connectors of joined claims included ("anemia due to iron deficiency")
_QUALIFIERS = frozenset({
    "acute", "chronic", "subacute", "severe", "mild", "moderate", "bilateral", "unilateral", "left", "right", "sided",
    "early", "late", "recurrent", "uncomplicated", "complicated", "active", "onset", "new", "episode", "flare",
    "exacerbation", "due", "to", "secondary", "caused", "by", "induced", "related", "with", "from", "a", "an",
    # the sentence around a diagnosis: "based on the findings the patient has acute pyelonephritis"
    "based", "on", "findings", "patient", "has", "have", "is", "this", "diagnosis", "final", "clinical", "presentation",
    "picture", "consistent", "suffering", "likely",
})
#: words that make the gold's name mean something else than having the disease ("stroke mimic",
#: "history of tuberculosis", "asthma-COPD overlap")
_NOT_THE_DISEASE = frozenset({
    "mimic", "mimics", "mimicking", "like", "pseudo", "history", "risk", "screening", "prophylaxis",
    "carrier", "vaccination", "vaccine", "overlap", "fear", "phobia", "family",
})
_ROMAN = frozenset({"i", "ii", "iii", "iv", "v", "vi"})
_NO_DIAGNOSIS = re.compile(
    r"(?:unknown|unclear|undetermined|uncertain|none|n/?a|not (?:sure|certain|determined|known)|"
    r"none of (?:the )?(?:above|these|them|options|listed)|"
    r"(?:cannot|can't|unable to) (?:be )?(?:determined?|diagnosed?|say)|insufficient (?:information|data|evidence)|"
    r"further (?:work-?up|evaluation|testing|tests) (?:is |are )?(?:needed|required))\W*",
    re.IGNORECASE,
)
_RULE_KIND: dict[str, Kind] = {"name": "match", "wording": "match", "alias": "synonym", "synonym": "synonym",
                               "ontology": "synonym", "abbreviation": "abbreviation"}


@dataclass(frozen=True)
class DiagnosisGrade:
    """The verdict on one final answer: right or wrong, its kind, and the name or rule behind it."""

    correct: bool
    kind: Kind
    detail: str = ""


Relation = tuple[Kind, str]


def grade_diagnosis(
    gold: str | Sequence[str], final_text: str, mode: str = "strict", *, also: Iterable[str] = ()
) -> DiagnosisGrade:
    """Grade an episode's final text against the gold disease.

    ``gold``: the case's label (the key of the reference alias table), or the label and further
    spellings of it; ``also``: the case's accepted other names. The diagnosis is the text after
    "Diagnosis:" (§5.4), read as the dialogue read the turn (invisible characters removed, full-width
    forms folded: "Diagnosis：" is a label); a text without one, or one that declines to name a disease
    ("unknown", "none of the above"), is ``none``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    golds = [gold] if isinstance(gold, str) else [name for name in gold if name.strip()]
    others = [name for name in also if name.strip()]
    diagnosis = extract_diagnosis(visible(final_text))
    if not diagnosis or _NO_DIAGNOSIS.fullmatch(diagnosis.strip(" .")):
        return DiagnosisGrade(False, "none")
    found = claims(diagnosis, keep=[*golds, *others])
    relations = [(claim, _relate(golds, others, claim.text)) for claim in found]
    credited = [(c, r) for c, r in relations if r is not None and r[0] in CORRECT_KINDS and not c.negated]
    firm = [r for c, r in credited if not c.hedged and not _has_rival(c, relations)]
    reference = mode == "reference-compatible"
    if firm:
        return DiagnosisGrade(True, *_best(firm))
    if credited:
        return DiagnosisGrade(reference, "hedged", _best([r for _, r in credited])[1])
    rule = match_diagnosis(golds[0], diagnosis, [*golds[1:], *others])
    if rule is not None and (reference or any(c.hedged for c in found) or _has_alternatives(found)):
        return DiagnosisGrade(reference, _RULE_KIND[rule.split(":")[0]] if reference else "hedged", rule)
    broader = [r for c, r in relations if r is not None and r[0] == "broader" and not c.negated]
    return DiagnosisGrade(False, "broader", broader[0][1]) if broader else DiagnosisGrade(False, "other")


_RANK: tuple[Kind, ...] = (*CORRECT_KINDS, "broader")


def _best(relations: list[Relation]) -> Relation:
    return min(relations, key=lambda r: _RANK.index(r[0]))


def _has_rival(claim: Claim, relations: list[tuple[Claim, Relation | None]]) -> bool:
    """Another alternative of the claim names something else ("Hemophilia A or B")."""
    return any(
        other.group == claim.group and other.text not in claim.text and claim.text not in other.text
        and (relation is None or relation[0] not in CORRECT_KINDS)
        for other, relation in relations
    )


def _has_alternatives(found: list[Claim]) -> bool:
    """Two claims are alternatives ("or", "vs", "/"); a joined claim is no alternative to its parts."""
    return any(a.group == b.group and a.text not in b.text and b.text not in a.text for a, b in combinations(found, 2))


def _relate(golds: list[str], others: list[str], text: str) -> Relation | None:
    """The best relation of one claim to the gold: by name, synonym, abbreviation, then MeSH."""
    if set(words(text)) & _NOT_THE_DISEASE:
        return None
    found: list[Relation] = []
    for name in golds:
        if kind := _by_words(name, text):
            found.append((kind, f"name:{name}"))
        if token := abbreviated(name, text):
            found.append(("abbreviation", f"abbreviation:{token}"))
    for alias in ALTERNATIVE_DIAGNOSIS.get(golds[0], ()):
        if _alias_hits(alias, text):
            short = isinstance(alias, str) and " " not in alias and sum(ch.isupper() for ch in alias) >= 2
            found.append(("abbreviation" if short else "synonym", f"alias:{_alias_name(alias)}"))
    for source, names in (("case", others), *(("names", synonyms(name)) for name in golds)):
        for other in names:
            kind = _by_words(other, text)
            if kind in ("match", "specific form"):
                found.append(("synonym" if kind == "match" else kind, f"{source}:{other}"))
            elif token := abbreviated(other, text):
                found.append(("abbreviation", f"abbreviation:{token}"))
    for name in golds:  # the claim, and its other names, placed in MeSH: "STEMI" is a form of myocardial infarction
        for written in (text, *synonyms(text)):
            found += [(kind if written == text else _as_synonym(kind), detail) for kind, detail in _by_mesh(name, written)]
    if not found:
        return None
    kind, detail = _best(found)
    return ("abbreviation", detail) if kind == "synonym" and re.fullmatch(r"[A-Z][A-Z0-9-]{1,7}", text.strip()) else (kind, detail)


#: organ adjectives read as their organ, so that "aortic coarctation" is "coarctation of the aorta"
_ORGANS = {
    "aortic": "aorta", "pancreatic": "pancreas", "renal": "kidney", "hepatic": "liver", "pulmonary": "lung",
    "cardiac": "heart", "gastric": "stomach", "cerebral": "brain", "ovarian": "ovary", "uterine": "uterus",
    "testicular": "testis", "cutaneous": "skin", "colonic": "colon", "esophageal": "esophagus",
    "thyroidal": "thyroid", "vesical": "bladder", "splenic": "spleen", "prostatic": "prostate",
}


def _organ_words(text: str) -> list[str]:
    return [_ORGANS.get(word, word) for word in words(text)]


def _as_synonym(kind: Kind) -> Kind:
    """Through another name of the claim, MeSH's "synonym" no longer means the same letters."""
    return "synonym" if kind == "abbreviation" else kind


def _by_words(name: str, text: str) -> Kind | None:
    """Whether the claim writes the name (match), the name and more (specific form, unless MeSH
    calls the longer name another disease: "pulmonary hypertension" is no hypertension) or part of
    it (broader)."""
    wanted, written = _organ_words(name), _organ_words(text)
    if not wanted or not written:
        return None
    core = {w for w in wanted if w not in _GENERIC} or set(wanted)
    present = set(written)
    if core <= present and present & _GENERIC <= set(wanted) and _pairs_kept(wanted, written):
        extras = present - set(wanted)
        longer = _longest_mesh_span(words(text), written, core)
        if longer is not None and mesh.key(longer) != mesh.key(name):
            relation = mesh.relation(longer, name)
            if relation == "different":
                return None
            if relation == "specific form":
                return "specific form"
        return "match" if extras <= _QUALIFIERS else "specific form"
    content = present - _QUALIFIERS - _GENERIC
    extras = present - set(wanted)  # "acute stress disorder" is no part of posttraumatic stress disorder
    return "broader" if content and not extras and content < set(wanted) else None


def _pairs_kept(wanted: list[str], written: list[str]) -> bool:
    """A one-letter or number word of the name stays beside its neighbour: "hemophilia A" is not
    "a case of hemophilia", "type 1 diabetes" is not "diabetes, type 2, stage 1"."""
    pairs = set(zip(written, written[1:], strict=False))
    for i, word in enumerate(wanted):
        if len(word) == 1 or word.isdigit() or word in _ROMAN:
            around = {(wanted[i - 1], word)} if i else set()
            around |= {(word, wanted[i + 1])} if i + 1 < len(wanted) else set()
            if around and not around & pairs:
                return False
    return True


def _longest_mesh_span(original: list[str], written: list[str], core: set[str]) -> str | None:
    """The longest run of the claim's words that MeSH knows and that holds all of ``core``
    (``written`` is ``original`` with organ adjectives read as organs; MeSH is asked as written)."""
    for length in range(len(written), len(core) - 1, -1):
        for start in range(len(written) - length + 1):
            span = " ".join(original[start:start + length])
            if core <= set(written[start:start + length]) and mesh.lookup(span) is not None:
                return span
    return None


def _by_mesh(name: str, text: str) -> list[Relation]:
    """The claim's longest MeSH names related to the gold by MeSH; "broader" only when that name
    is all the claim says (besides qualifiers)."""
    written = words(text)
    content = set(written) - _QUALIFIERS - _GENERIC
    for length in range(len(written), 0, -1):
        spans = [written[i:i + length] for i in range(len(written) - length + 1)]
        known = [" ".join(span) for span in spans if set(span) - _QUALIFIERS - _GENERIC and mesh.lookup(" ".join(span))]
        if known:
            found: list[Relation] = []
            for span in known:
                relation = mesh.relation(span, name)
                if relation == "synonym" and not content <= set(span.split()):
                    relation = "specific form"  # the claim says more than the name: "squamous cell carcinoma of the lip"
                if relation in ("synonym", "specific form"):
                    written_short = " " not in span and re.search(rf"\b{re.escape(span.upper())}\b", text)
                    kind: Kind = "abbreviation" if relation == "synonym" and written_short else relation
                    found.append((kind, f"MeSH:{span}"))
                elif relation == "broader" and content <= set(span.split()):
                    found.append(("broader", f"MeSH:{span}"))
            return found
    return []
