"""Reference-compatible random filling of unparsed answers (REFERENCE_METHODS.md §3.2, §4.3).

The published MultifacetEval scripts replace an unparsed MCQ letter, TFQ verdict or RQ part by a random
draw from one ``random.seed(48)`` stream, so each fill depends on every earlier one (and, for the RQ
letter, on set iteration order). Here every item gets its own RNG derived from the run seed and the
item's keys, so a fill does not change when other items, models or the processing order change. The
numbers are reference-*compatible* (same distributions), not bit-identical.

Strict scoring fills nothing and counts unparsed answers wrong; that choice belongs to the caller.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from medprobe.parsing.base import Revision


def fill_option(rng: random.Random, letters: Sequence[str]) -> str:
    """A random option letter for an unparsed MCQ reply (or a CoT question with no parsed chain)."""
    return rng.choice(list(letters))


def fill_true_false(rng: random.Random) -> bool:
    """A random verdict for an unparsed TFQ reply."""
    return rng.choice([True, False])


def pad_revision(rev: Revision | None, given: str, letters: Sequence[str], rng: random.Random) -> Revision:
    """The reference's ``missing_value_padding`` (§3.2): a missing judge is drawn T/F at random; a
    missing option becomes Alice's letter ``given`` when the judge is T, otherwise a random letter other
    than ``given``. A complete revision is returned unchanged without touching the RNG."""
    judge = rev.judge if rev is not None else None
    option = rev.option if rev is not None else None
    if judge is None:
        judge = rng.choice([True, False])
    if option is None:
        option = given if judge else rng.choice(sorted(set(letters) - {given}))
    return Revision(judge, option)


def complete_revision_strict(rev: Revision | None, given: str) -> Revision | None:
    """Strict-mode completion: "correct" with no letter means Alice's letter, which is not a guess
    (the padding gives the same). Anything else with a missing part stays unanswered (``None``)."""
    if rev is None or rev.judge is None:
        return None
    if rev.option is not None:
        return rev
    return Revision(True, given) if rev.judge else None
