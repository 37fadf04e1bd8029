"""Low- and mid-level items from a knowledge base (``builtin:en``, ``builtin:zh`` or a KB file).

Each (disease, enumerated aspect) with at least three entities is an item, chosen and given distractors
as MultifacetEval builds MultiDiseK questions (``multifacet.from_kb``: entities of the same aspect from
other diseases, no near-synonyms, no closely related diseases; the same seeded draws). Because a KB is
structured, every mid-level question comes from a template rather than a generator model:

  MCQ  one of the disease's entities and three distractors as options A-D;
  SV   "<entity> belongs to the <aspect> of <disease>." with the right entity (true) and with one of the
       MCQ's distractors (false), as the paper builds its false statement from a distractor;
  AE   the MCQ, and the MCQ with the right option replaced by a fourth distractor;
  MR   the MCQ with Alice proposing the right letter, and with her proposing a random wrong one.

The wording is ours, in English and Chinese (MCQ and SV reuse MultifacetEval's KB sentences).

On a built-in KB only the aspects whose questions blind reading measured precise enough are asked by
default (medprobe.gating): MCQ, AE and MR are multiple-choice questions (type MCQ), SV a true/false
statement (type TFQ), so an aspect needs its MCQ cell shipped, and its TFQ cell too when the mid level is
asked; ``include_unmeasured`` asks the others as well.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Any

from medprobe.gating import enumerated_aspects, gate_kb
from medprobe.methods.multicog.lowmid.tables import Dataset
from medprobe.methods.multifacet.from_kb import LETTERS, MIN_VALUES, QuestionPoints, distractors, index_kb
from medprobe.methods.multifacet.templates import aspect_name, wording
from medprobe.precision import point_cell
from medprobe.records import KnowledgePoint
from medprobe.seeding import item_rng
from medprobe.sources.builtin import resolve_kb

#: distractors asked for per item: three options and the AE replacement are needed, two spare
WANTED_DISTRACTORS = 6
NEEDED_DISTRACTORS = 4
AE_QUESTION = {
    "en": "{mcq}\nThe right answer may be missing from the options (there is a 50% chance that it is). "
    "Is the right answer among the options? Reply yes or no.",
    "zh": "{mcq}\n正确答案有50%的可能不在选项中。请判断正确答案是否在选项中，回答是或否。",
}
MR_QUESTION = {
    "en": "{mcq}\nAlice's answer: {given}. Judge whether her answer is right, and if it is wrong, give the right option.",
    "zh": "{mcq}\n爱丽丝的答案：{given}。请判断她的答案是否正确；如果错误，请给出正确选项。",
}


def _mcq(kp: KnowledgePoint, options: list[str], language: str) -> str:
    w = wording(language)
    stem = w.mcq.format(aspect=aspect_name(kp.aspect or "", language), disease=kp.disease)
    return f"{w.question}{stem}\n{w.options}" + "\t".join(f"{letter}: {o}" for letter, o in zip(LETTERS, options, strict=True))


def _statement(kp: KnowledgePoint, value: str, language: str) -> str:
    w = wording(language)
    return w.tfq.format(statement=w.statement.format(value=value, aspect=aspect_name(kp.aspect or "", language), disease=kp.disease))


def kb_rows(kp: KnowledgePoint, wrong: list[str], rng: random.Random, language: str) -> dict[str, list[Any]]:
    """The four rows of one knowledge point, in the release layouts."""
    right = rng.choice(kp.values)
    *mcq_wrong, substitute = rng.sample(wrong, NEEDED_DISTRACTORS)
    options = [right, *mcq_wrong]
    rng.shuffle(options)
    gold = LETTERS[options.index(right)]
    replaced = [substitute if o == right else o for o in options]
    mcq, mcq_replaced = _mcq(kp, options, language), _mcq(kp, replaced, language)
    alice = rng.choice([letter for letter in LETTERS if letter != gold])
    return {
        "MCQ": [kp.id, mcq, gold],
        "SV": [kp.id, _statement(kp, right, language), _statement(kp, rng.choice(mcq_wrong), language), "T", "F"],
        "AE": [kp.id, AE_QUESTION[language].format(mcq=mcq), AE_QUESTION[language].format(mcq=mcq_replaced), 1, 0],
        "MR": [kp.id, MR_QUESTION[language].format(mcq=mcq, given=gold), MR_QUESTION[language].format(mcq=mcq, given=alice), ["T", gold], ["F", gold]],
    }


#: the question type blind readers judge (medprobe.precision) of each task
READ_AS = {"MCQ": "MCQ", "AE": "MCQ", "MR": "MCQ", "SV": "TFQ"}


def kb_dataset(
    spec: str, *, limit: int | None, seed: int, extra: int, points: Collection[str] | None = None,
    tasks: Collection[str] = tuple(READ_AS), include_unmeasured: bool = False,
) -> Dataset:
    """Items of a KB: all usable knowledge points of the aspects its gate lets through for ``tasks``, or a
    seeded sample of ``limit`` (or exactly ``points``, a profile's shared sample) to ask plus ``extra``
    more that serve only as demos."""
    kb = resolve_kb(spec)
    every = QuestionPoints(kb).every()
    index = index_kb(kb, {kp.aspect or "" for kp in every})
    types = sorted({READ_AS[task] for task in tasks})
    gate = gate_kb(kb, enumerated_aspects(kb), types, include_unmeasured=include_unmeasured, method="MultiCogEval")
    asked = [kp for kp in every if gate.allows(point_cell(kb.language, kp.id))]
    candidates = [kp for kp in asked if len(kp.values) >= MIN_VALUES]
    random.Random(seed).shuffle(candidates)
    if points is not None:  # the points first, in the seeded order, then the demos' candidates
        wanted = set(points)
        candidates = [kp for kp in candidates if kp.id in wanted] + [kp for kp in candidates if kp.id not in wanted]
        limit = len(wanted)
    wanted = None if limit is None else limit + extra
    built: list[tuple[KnowledgePoint, list[str]]] = []
    skipped: Counter[str] = Counter({"fewer than 3 entities": len(asked) - len(candidates), "aspect not asked": len(every) - len(asked)})
    for kp in candidates:
        if wanted is not None and len(built) == wanted:
            break
        wrong = distractors(index[kp.aspect or ""], kp, item_rng(seed, "distractors", kp.id), WANTED_DISTRACTORS)
        if len(wrong) < NEEDED_DISTRACTORS:
            skipped[f"fewer than {NEEDED_DISTRACTORS} usable distractors"] += 1
            continue
        built.append((kp, wrong))
    # a shared point without enough distractors is missing (the profile says so), never replaced
    tested = None if limit is None else {kp.id for kp, _ in built[:limit] if points is None or kp.id in points}
    built.sort(key=lambda pair: pair[0].id)
    dataset = Dataset(kb.name.replace(":", "-"), "knowledge-base", kb.path or kb.name, kb.language, tested=tested, gate=gate)
    for kp, wrong in built:
        for task, row in kb_rows(kp, wrong, item_rng(seed, "kb-item", kp.id), kb.language).items():
            dataset.tables.setdefault(task, []).append(row)
    dataset.info = {"candidate_knowledge_points": len(candidates), "skipped": {k: v for k, v in skipped.items() if v}}
    return dataset
