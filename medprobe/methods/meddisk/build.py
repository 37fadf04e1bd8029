"""Retrieval probes: for each (disease, aspect) of a knowledge base, ask the model to recall the
aspect (paper 000 §3.2.1, Appendix B).

Two settings, as in the paper: ``instruct`` (chat models) — the aspect's instruction, five solved
examples, then the question; ``base`` (pretrained-only models, completion style) — the five solved
examples as answer sentences, then the open answer sentence for the disease, to be continued.
The examples come from five other diseases of the same KB that have the aspect: the first five
in one seeded order of the KB's diseases, so that the same few diseases serve as examples for
many aspects. The same five serve every disease, so prompts of one aspect share their prefix and
cached prefixes are reused, and the example diseases are never tested themselves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Any

from medprobe.aspects import ASPECTS, AspectType
from medprobe.methods.meddisk.instructions import EXAMPLES, SEPARATOR, answer_prefix, instruction, question
from medprobe.methods.multifacet.from_kb import QuestionPoints
from medprobe.precision import cell_aspect
from medprobe.records import AnswerFormat, GenerationParams, Probe
from medprobe.sources.kb import AspectValue, Disease, KnowledgeBase

SETTINGS = ("instruct", "base")
N_DEMOS = 5
DEMO_ENTITIES = 8
DEMO_CHARS = 240
MAX_TOKENS = 160
# Where generation stops. Chat models put their lists after a blank line, so a blank line is no stop:
# the whole answer is kept and post-processing (which cuts at these same strings) drops what follows
# it. A base model continues the open answer sentence, and its next line is a new example.
STOPS: dict[str, list[str]] = {"instruct": ["\nQuestion:", "\n问题："], "base": ["\n"]}
INSTRUCT = GenerationParams(temperature=0.0, max_tokens=MAX_TOKENS, stop=STOPS["instruct"])
BASE = GenerationParams(temperature=0.0, max_tokens=MAX_TOKENS, stop=STOPS["base"])


def reference_text(value: AspectValue) -> str:
    """What the model's answer is compared with: entities joined by spaces (paper §3.2.2), or the text."""
    if isinstance(value, list):
        return " ".join(value)
    if isinstance(value, float | int):
        return f"{value:g}"
    return value


def demo_answer(value: AspectValue, language: str) -> str:
    """A solved example's answer, kept short so five of them fit any context."""
    if isinstance(value, list):
        return SEPARATOR[language].join(value[:DEMO_ENTITIES])
    if isinstance(value, float | int):
        return f"{value:g}"
    return value if len(value) <= DEMO_CHARS else value[:DEMO_CHARS].rsplit(" ", 1)[0] + " …"


def _demo_line(disease: Disease, aspect: str, language: str) -> str:
    end = "" if language == "zh" else "."
    return answer_prefix(aspect, disease.name, language) + demo_answer(disease.aspects[aspect], language) + end


def prompt_for(disease: Disease, aspect: str, demos: list[Disease], setting: str, language: str) -> str:
    lines = [_demo_line(d, aspect, language) for d in demos]
    if setting == "base":
        return "\n".join(lines) + "\n" + answer_prefix(aspect, disease.name, language).rstrip()
    return (
        instruction(aspect, disease.name, language) + "\n\n" + EXAMPLES[language] + "\n" + "\n".join(lines)
        + "\n\n" + question(aspect, disease.name, language)
    )


def demo_pools(kb: KnowledgeBase, rng: random.Random) -> dict[str, list[Disease]]:
    """Per aspect, the example diseases: the first N_DEMOS having it in one seeded order of the KB."""
    order = rng.sample(kb.diseases, len(kb.diseases))
    return {aspect.key: [d for d in order if aspect.key in d.aspects][:N_DEMOS] for aspect in ASPECTS}


def _reference(askable: QuestionPoints, disease: Disease, key: str) -> AspectValue:
    """What a recall is scored against: on a built-in KB, of a list aspect only the values a question may key
    (``from_kb.QuestionPoints``: in Chinese the symptoms a second source confirms), the values the blind readings
    measured; a user's KB and every other aspect as they are."""
    value = disease.aspects[key]
    return askable.point(disease, key).values if isinstance(value, list) else value


def build_probes(
    kb: KnowledgeBase, *, limit: int | None, seed: int, setting: str, points: Collection[str] | None = None,
    aspects: Collection[str] | None = None,
) -> tuple[list[Probe], dict[str, Any]]:
    """Probes for every aspect (of ``aspects``; all when None) of ``limit`` diseases (a seeded sample; all
    when None), or for exactly ``points`` (``disease id/aspect``: a profile's shared knowledge points)."""
    language = kb.language
    rng = random.Random(seed)
    pools = demo_pools(kb, rng)
    demo_ids = {d.id for pool in pools.values() for d in pool}
    candidates = [d for d in kb.diseases if d.id not in demo_ids]
    askable = QuestionPoints(kb)
    if aspects is not None:  # a gated build samples only diseases it will ask something of
        candidates = [d for d in candidates if any(cell_aspect(d.language, d.id, key) in aspects and _reference(askable, d, key) for key in d.aspects)]
    wanted = None if points is None else set(points)
    if wanted is not None:
        candidates = [d for d in candidates if any(f"{d.id}/{key}" in wanted for key in d.aspects)]
    chosen = candidates if limit is None or wanted is not None else sorted(rng.sample(candidates, min(limit, len(candidates))), key=lambda d: d.id)
    probes: list[Probe] = []
    skipped: Counter[str] = Counter()
    for disease in chosen:
        for aspect in ASPECTS:
            if aspect.key not in disease.aspects or (wanted is not None and f"{disease.id}/{aspect.key}" not in wanted):
                continue
            if aspects is not None and cell_aspect(disease.language, disease.id, aspect.key) not in aspects:
                skipped[f"{aspect.key}: aspect not asked"] += 1
                continue
            demos = pools[aspect.key]
            if len(demos) < N_DEMOS:
                skipped[f"{aspect.key}: fewer than {N_DEMOS + 1} diseases have it"] += 1
                continue
            value = _reference(askable, disease, aspect.key)
            if not value:
                skipped[f"{aspect.key}: no value a question may key"] += 1
                continue
            probes.append(
                Probe(
                    id=f"meddisk/{disease.id}/{aspect.key}",
                    method="meddisk",
                    knowledge_point=f"{disease.id}/{aspect.key}",
                    facet=aspect.key,
                    variant=setting,
                    language=language,  # type: ignore[arg-type]
                    prompt=prompt_for(disease, aspect.key, demos, setting, language),
                    gold={"reference": reference_text(value), "value": value},
                    answer_format=AnswerFormat(kind="free_text", language=language),  # type: ignore[arg-type]
                    meta={"disease_id": disease.id, "disease": disease.name, "type": str(aspect.type)},
                )
            )
    info = {
        "source": kb.name,
        "language": language,
        "setting": setting,
        "diseases": len(chosen),
        "demo_diseases": sorted(demo_ids),
        "per_aspect": dict(Counter(p.facet for p in probes)),
        "per_type": dict(Counter(p.meta["type"] for p in probes)),
        "skipped": dict(skipped),
        "numeric_aspects": sum(1 for p in probes if p.meta["type"] == AspectType.NUMERIC),
    }
    return probes, info
