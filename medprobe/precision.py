"""Measured precision of the questions built from the built-in knowledge bases.

A question built from a knowledge base can be wrong (a true distractor, a keyed fact a physician
would reject) or ambiguous. We measure how often by blind reading (``shared/docs/BLIND_READING.md``):
readers who never saw the builder judge samples of built questions, each round on a fresh seed. Their
verdicts ship with the package (``medprobe/readings/*.jsonl``, one line per question read) and this
module turns them into a table of cells, one per (language, aspect, question type), each with its
count of questions read and bad, and the 95% Wilson interval of its precision.

Why cells, and why Wilson: a wrong question costs every number built on it, so the default build
only uses cells whose precision is known to be high, not merely observed high on a few readings;
the Wilson lower bound of a cell with 20 of 20 right is 84%, with 40 of 40 right 91%, so a cell
earns its place by being read enough (``SHIP_LOWER_BOUND``).

A reading counts only for the questions it was made on: each line records the KB builder's version
(``kb_version``) and the question builder's (``builder``), and a rebuilt KB or a changed question
builder starts with no measured cells until it is read again; older readings ship as the record of
earlier rounds. A report states, for the items a run used, the estimated share that is
bad and its interval (``item_error``).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: the four question forms a reader judges (BLIND_READING.md "Sample")
ITEM_TYPES = ("MCQ", "MCQ-neg", "MAQ", "TFQ")
#: verdicts a reader may give; every one but "ok" makes the question bad
VERDICTS = ("ok", "wrong key", "ambiguous", "malformed")
CONFIDENCES = ("high", "medium", "low")
#: a cell is used by default when the 95% Wilson lower bound of its precision is at least this
SHIP_LOWER_BOUND = 0.90
Z95 = 1.959963984540054
READINGS_DIR = Path(__file__).parent / "readings"
#: per language, the version of the questions the built-in KB's builder (``multifacet.from_kb``) makes: bump it
#: whenever they change, so that blind readings of older questions no longer count as the precision of these
BUILDER_VERSIONS = {"en": 3, "zh": 8}
#: language -> the cell suffix of a built-in KB's diseases outside the English catalogue of common diseases
#: (``common_disease``): in English HPO's rare diseases, in Chinese the graph's diseases the catalogue does not
#: confirm (``cmekg_confirm``)
OUTSIDE_CATALOGUE = {"en": " (rare diseases)", "zh": " (unconfirmed)"}


@dataclass(frozen=True)
class Reading:
    """One question as one blind reader judged it."""

    id: str
    language: str
    aspect: str
    type: str
    verdict: str
    confidence: str
    reason: str
    seed: int
    kb_version: int
    round: str
    #: the question builder's version for the language (``BUILDER_VERSIONS``) it was built with
    builder: int = 1

    @property
    def bad(self) -> bool:
        """Bad unless ok, and a low-confidence verdict counts as bad (BLIND_READING.md "Verdicts")."""
        return self.verdict != "ok" or self.confidence == "low"


@dataclass(frozen=True)
class Cell:
    """The readings of one (language, aspect, question type)."""

    language: str
    aspect: str
    type: str
    read: int
    bad: int

    @property
    def precision(self) -> float:
        return 1 - self.bad / self.read if self.read else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the precision."""
        return wilson(self.read - self.bad, self.read)

    @property
    def shipped(self) -> bool:
        return self.read > 0 and self.interval[0] >= SHIP_LOWER_BOUND


@dataclass(frozen=True)
class ErrorEstimate:
    """The estimated share of bad items among the items a run used.

    ``rate`` weights each cell's observed error by how many of the run's items came from it; the
    interval weights the cells' Wilson bounds the same way (a mixture of cells each inside its
    bounds lies inside the weighted bounds). ``unmeasured`` is the share of items from cells never
    read: the estimate says nothing about them."""

    rate: float
    low: float
    high: float
    items: int
    unmeasured: float

    def text(self) -> str:
        if self.items and self.unmeasured >= 1:
            return "not measured (no blind reading covers these items)"
        out = f"{100 * self.rate:.1f}% (95% CI {100 * self.low:.1f}–{100 * self.high:.1f}%)"
        if self.unmeasured:
            out += f"; {100 * self.unmeasured:.0f}% of the items come from unmeasured cells"
        return out

    def as_dict(self) -> dict[str, float | int]:
        return {"rate": self.rate, "low": self.low, "high": self.high, "items": self.items, "unmeasured": self.unmeasured}


def common_disease(language: str, disease_id: str) -> bool:
    """Whether a built-in KB's disease is one of the English catalogue of common diseases: in English the
    catalogue's own ``ICD10:…`` diseases and the hpo3 diseases it is merged into (essential hypertension,
    rheumatoid arthritis, ``kb_common.MERGED_IDS``: their primary symptoms and medications are the catalogue's);
    every other one is a rare disease of HPO. In Chinese a disease whose primary symptoms the catalogue confirms
    (``cmekg_confirm.catalogue_knows``)."""
    if language == "en":
        from medprobe.sources.kb_common import MERGED_IDS

        return disease_id.startswith("ICD10:") or disease_id in MERGED_IDS
    from medprobe.sources.cmekg_confirm import catalogue_knows

    return language == "zh" and catalogue_knows(disease_id)


def cell_aspect(language: str, disease_id: str, aspect: str) -> str:
    """The table's name for the aspect of a knowledge point (``disease_id``/``aspect``): a disease outside the
    catalogue of common diseases has cells of its own ("primary_symptoms (rare diseases)" in English,
    "primary_symptoms (unconfirmed)" in Chinese), since blind readers can vouch for what is known of common
    diseases and seldom for a rare syndrome's findings, and a second source confirms only common ones' keys."""
    suffix = OUTSIDE_CATALOGUE.get(language)
    return aspect if suffix is None or common_disease(language, disease_id) else aspect + suffix


def point_cell(language: str, point_id: str) -> str:
    """``cell_aspect`` of a knowledge point id ("ICD10:J45.909/medications")."""
    disease_id, aspect = point_id.rsplit("/", 1)
    return cell_aspect(language, disease_id, aspect)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (no interval, (0, 1), for n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def load_readings(paths: Iterable[Path]) -> list[Reading]:
    """Readings from JSONL files, each line checked: an unknown verdict, type or confidence stops it."""
    out: list[Reading] = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            reading = Reading(**json.loads(line))
            if reading.verdict not in VERDICTS or reading.type not in ITEM_TYPES or reading.confidence not in CONFIDENCES:
                raise ValueError(f"{path}:{n}: unknown verdict, type or confidence in {line[:120]}")
            out.append(reading)
    return out


@cache
def shipped_readings() -> tuple[Reading, ...]:
    """Every reading that ships with the package."""
    return tuple(load_readings(sorted(READINGS_DIR.glob("*.jsonl"))))


def cells(readings: Iterable[Reading], language: str, kb_version: int, builder: int = 1) -> dict[tuple[str, str], Cell]:
    """(aspect, type) -> Cell, over the readings of this language made on this KB version and question builder."""
    read: Counter[tuple[str, str]] = Counter()
    bad: Counter[tuple[str, str]] = Counter()
    for r in readings:
        if r.language == language and r.kb_version == kb_version and r.builder == builder:
            read[r.aspect, r.type] += 1
            bad[r.aspect, r.type] += r.bad
    return {key: Cell(language, key[0], key[1], n, bad[key]) for key, n in sorted(read.items())}


def builtin_cells(language: str) -> dict[tuple[str, str], Cell]:
    """The shipped cells of a built-in KB at its current KB and question builder versions."""
    from medprobe.sources.builtin import VERSIONS

    return cells(shipped_readings(), language, VERSIONS[language], BUILDER_VERSIONS[language])


def item_error(table: Mapping[tuple[str, str], Cell], counts: Mapping[tuple[str, str], int]) -> ErrorEstimate:
    """The estimated error rate of a run's items: ``counts`` maps (aspect, type) to how many items of
    the run came from that cell."""
    total = sum(counts.values())
    measured = {key: n for key, n in counts.items() if key in table and table[key].read}
    weight = sum(measured.values())
    if not weight:
        return ErrorEstimate(math.nan, math.nan, math.nan, total, 1.0 if total else 0.0)
    rate = low = high = 0.0
    for key, n in measured.items():
        cell = table[key]
        lo_precision, hi_precision = cell.interval
        rate += n / weight * (cell.bad / cell.read)
        low += n / weight * (1 - hi_precision)
        high += n / weight * (1 - lo_precision)
    return ErrorEstimate(rate, low, high, total, 1 - weight / total)


def table_rows(language: str) -> list[dict[str, object]]:
    """The shipped table of a built-in KB as rows (``medprobe kb precision``): per cell its reads, bad ones,
    precision, 95% Wilson interval and whether it ships."""
    rows = []
    for (aspect, kind), cell in sorted(builtin_cells(language).items()):
        low, high = cell.interval
        rows.append({"language": language, "aspect": aspect, "type": kind, "read": cell.read, "bad": cell.bad,
                     "precision": cell.precision, "low": low, "high": high, "ships": cell.shipped})
    return rows
