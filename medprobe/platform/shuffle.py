"""Option order shuffled per probe at publishing, so that letters do not link the probes of one question.

The methods ask one question several ways with the same options in the same order: a MultifacetEval
MCQ and its two revision probes, whose "given" answers are the gold and one distractor. With the
same letters everywhere, the two given letters alone narrow each MCQ's gold to two. Each probe of a
published benchmark gets its own order instead: its prompt's last option list (the question asked,
after the demonstrations), its option texts, the given letter and the gold move together, and the
server scores against the moved gold. The option texts still link the probes (see ``INFERABLE``).

A probe whose prompt does not show its options as the format says (``A: text`` in order, once at
the end) keeps its order rather than being rewritten on a guess; ``publish`` counts those.
"""

from __future__ import annotations

import random
import re
from typing import Any

from medprobe.records import Probe

LETTER_KINDS = ("option_letter", "letter_set", "verdict_letter")
#: what a participant can still work out from a pack, shown on every benchmark page
INFERABLE = (
    "Probe ids are keyed hashes and the pack is sorted by them, and each probe has its own option order, so neither "
    "ids, order nor letters link the probes of one question. Their texts do: the same question asked several ways "
    "(an MCQ and its revision probes, a statement and its negation) can be matched by its wording and option texts, "
    "and a revision probe's given answer is the gold or a distractor, so matched probes narrow the gold to two options. "
    "Scores over few probes, and your own uploads compared with one another, tell you about your answers, as on any "
    "benchmark whose gold is hidden."
)


def _standalone(letter: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z]){re.escape(letter)}(?![A-Za-z])")


def _moved_gold(kind: str, gold: Any, new_of: dict[str, str]) -> Any:
    """The gold under the new letters, or None when it is not the shape the kind promises."""
    if kind == "option_letter" and isinstance(gold, str) and gold in new_of:
        return new_of[gold]
    if kind == "letter_set" and isinstance(gold, list) and gold and all(g in new_of for g in gold):
        return sorted(new_of[g] for g in gold)
    if kind == "verdict_letter" and isinstance(gold, list) and len(gold) == 2 and isinstance(gold[0], bool) and gold[1] in new_of:
        return [gold[0], new_of[gold[1]]]
    return None


def _listing(letters: list[str], texts: dict[str, str]) -> re.Pattern[str]:
    """``A: text`` per letter in order, any whitespace between; a text the format leaves out (a
    MultiCogEval revision probe names only some) is read from the prompt, up to the line's next tab or end."""
    parts = [f"{re.escape(letter)}: " + (re.escape(texts[letter]) if letter in texts else rf"(?P<t{i}>[^\t\n]+?)")
             for i, letter in enumerate(letters)]
    return re.compile("".join(part + (rf"(?P<s{i}>\s+)" if i < len(parts) - 1 else r"(?=\s|$)") for i, part in enumerate(parts)))


def shuffled(probe: Probe, rng: random.Random) -> Probe | None:
    """The probe with its options in a new order, or None when its prompt cannot be rewritten safely."""
    fmt = probe.answer_format
    letters, texts = fmt.options, fmt.option_texts
    if fmt.kind not in LETTER_KINDS or len(letters) < 2 or not set(texts) <= set(letters):
        return None
    found = list(_listing(letters, texts).finditer(probe.prompt))
    if not found:
        return None
    last = found[-1]
    head, tail = probe.prompt[:last.start()], probe.prompt[last.end():]
    if head and head[-1].isascii() and head[-1].isalpha():
        return None
    shown = {letter: texts.get(letter) or last.group(f"t{i}") for i, letter in enumerate(letters)}
    order = list(letters)
    rng.shuffle(order)
    new_of = {old: new for new, old in zip(letters, order, strict=True)}
    gold = _moved_gold(fmt.kind, probe.gold, new_of)
    if gold is None:
        return None
    given = fmt.given
    if fmt.kind == "verdict_letter":
        if given not in new_of or len(_standalone(given).findall(tail)) != 1:
            return None
        tail = _standalone(given).sub(new_of[given], tail)
        given = new_of[given]
    elif any(_standalone(letter).search(tail) for letter in letters):
        return None
    separators = [last.group(f"s{i}") for i in range(len(letters) - 1)] + [""]
    rewritten = "".join(f"{new}: {shown[old]}{sep}" for new, old, sep in zip(letters, order, separators, strict=True))
    return probe.model_copy(update={
        "prompt": head + rewritten + tail,
        "gold": gold,
        "answer_format": fmt.model_copy(update={"option_texts": {new: texts[old] for new, old in zip(letters, order, strict=True) if old in texts},
                                                "given": given}),
    })


def shuffle_options(probes: list[Probe], key: str) -> tuple[list[Probe], int]:
    """Every letter-answered probe with its own option order (seeded by the benchmark's secret key and
    the probe id, so a pack's orders cannot be recomputed from outside); and how many such probes
    kept theirs because their prompt could not be rewritten safely."""
    out, kept = [], 0
    for probe in probes:
        if probe.answer_format.kind not in LETTER_KINDS:
            out.append(probe)
            continue
        moved = shuffled(probe, random.Random(f"{key}:{probe.id}"))
        kept += moved is None
        out.append(moved or probe)
    return out, kept
