"""Answers of a model that knows exactly a chosen set of knowledge points, for ``replay:FILE``.

It answers every probe of a known point right and every other probe wrong, in the reply words the
random model uses (so the strict readers read them); ``only_mcq`` knows the points only in MCQ form
(MultifacetEval's and MultiCogEval's MCQs right, everything else wrong). A profile of its answers
must find exactly the chosen points known, and with ``only_mcq`` exactly those points as illusions
of the MCQ against every other way: that is how the profile itself is tested.
"""

from __future__ import annotations

from medprobe.contract import ProbeSet, SharedPoints
from medprobe.parsing.strict_exact import ANSWER_WORDS
from medprobe.profile.join import point_of
from medprobe.records import Probe, Response

#: a recall answer that shares nothing with any reference
NO_RECALL = {"en": "I cannot say.", "zh": "无法回答。"}
MCQ = "MCQ"


def _other(options: list[str], letter: str) -> str:
    return next(option for option in options if option != letter)


def oracle_reply(probe: Probe, right: bool) -> str:
    """The right reply to ``probe``, or a wrong one."""
    fmt, gold = probe.answer_format, probe.gold
    words = ANSWER_WORDS[fmt.language]
    if fmt.kind == "free_text":
        return gold["reference"] if right else NO_RECALL[fmt.language]
    if fmt.kind == "option_letter":
        return gold if right else _other(fmt.options, gold)
    if fmt.kind == "letter_set":
        wrong = [letter for letter in fmt.options if letter not in gold] or fmt.options[:1]
        return ",".join(gold if right else wrong)
    if fmt.kind == "verdict_letter":
        given_right, letter = gold
        if given_right == right:
            return words["correct"]
        return words["incorrect"].format(letter if right else _other([x for x in fmt.options if x != fmt.given], letter))
    value = bool(gold) == right
    names = {"true_false": ("true", "false"), "yes_no": ("yes", "no"), "verdict": ("correct", "refute")}[fmt.kind]
    return words[names[0] if value else names[1]]


def oracle_responses(probe_sets: list[ProbeSet], points: SharedPoints, known: set[str], *, only_mcq: bool = False) -> list[Response]:
    """One answer per probe (sample 0) of every probe set built on ``points``."""
    answers = []
    ids = set(points.ids)
    for probe_set in probe_sets:
        for probe in probe_set.probes:
            point = point_of(probe.knowledge_point, ids, probe_set.info)
            right = point in known and (not only_mcq or probe.facet == MCQ)
            answers.append(Response(probe_id=probe.id, text=oracle_reply(probe, right), finish_reason="stop"))
    return answers
