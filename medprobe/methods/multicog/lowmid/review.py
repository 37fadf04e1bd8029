"""MultiCogEval low- and mid-level questions for clinicians to review (``medprobe items sample multicog``).

Per item, the questions that hold all its content: the MCQ, both statements of SV, and the AE question
whose right option was replaced (the other AE question and both MR questions are the MCQ with another
ending). Each is taken once, from the first repeat (repeats differ only in their solved examples).
The dialogue cases of the high level are not reviewed here.
"""

from __future__ import annotations

from medprobe.methods.multicog.lowmid.tables import YES_NO, answer_label
from medprobe.methods.multifacet.templates import wording
from medprobe.parsing.reference_option_letter import mcq_options
from medprobe.records import Probe
from medprobe.verification import ReviewItem, asked_question, lettered

REVIEWED = {("MCQ", "base"), ("SV", "true"), ("SV", "false"), ("AE", "replaced")}


def review_items(probes: list[Probe]) -> list[ReviewItem]:
    return [_item(p) for p in probes if (p.facet, p.variant) in REVIEWED and p.meta.get("repeat") == 0]


def _item(probe: Probe) -> ReviewItem:
    question = asked_question(probe.prompt, answer_label(probe.language))
    options = mcq_options(question) if probe.facet != "SV" else {}
    if probe.facet == "MCQ":
        key = lettered(options, [probe.gold])
    elif probe.facet == "SV":
        w = wording(probe.language)
        key = w.true if probe.gold else w.false
    else:
        key = YES_NO[probe.language][0 if probe.gold else 1]
    return ReviewItem(
        place=probe.id.removesuffix(f"/r{probe.meta['repeat']}"), knowledge_point=probe.knowledge_point,
        task=f"{probe.facet}/{probe.variant}", question=question, options=tuple(lettered(options).splitlines()), key=key,
    )
