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
  medprobe) gives each disease ("Huntington chorea" = "Huntington disease"), and a few common
  English synonyms of ours that no shipped ontology holds (hpo3's OMIM and Orphanet catalogues carry
  one name per disease and no synonyms). Abbreviations among the graph's names are left out: short
  capitals are ambiguous ("IVF", "ALL"); the initials rule reads abbreviations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

#: common English synonyms no shipped ontology holds (ours); each group names one disease
COMMON_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("coccidioidomycosis", "valley fever", "san joaquin valley fever", "desert rheumatism"),
    ("infectious mononucleosis", "glandular fever"),
    ("pertussis", "whooping cough"),
    ("varicella", "chickenpox", "chicken pox"),
    ("erythema infectiosum", "fifth disease"),
    ("leprosy", "hansen disease"),
    ("kawasaki disease", "mucocutaneous lymph node syndrome"),
    ("measles", "rubeola"),
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
    """Lower-case words without possessives, parentheses, punctuation, "of" and "the"."""
    text = _POSSESSIVE.sub("", _PARENTHESES.sub(" ", text.lower()))
    return [word for word in re.split(r"[^a-z0-9]+", text) if word and word not in _STOPWORDS]


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
