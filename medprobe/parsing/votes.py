"""Self-consistency votes over the chains of one CoT+SC question (REFERENCE_METHODS.md §3.3).

Each vote takes the chains' parsed values (``None`` for an unparsed chain) and an explicit
``random.Random`` for ties, so a run is reproducible from its seed (§4.3). Tie candidates are offered
to the RNG in the reference's order (T before F, letters A..E, letter sets by first appearance).
Whether a question with no usable chain is then filled at random is the caller's decision.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from medprobe.parsing.base import Revision


def _majority(yes: int, no: int, rng: random.Random) -> bool:
    return yes > no if yes != no else rng.choice([True, False])


def vote_option(preds: Sequence[str | None], letters: Sequence[str], rng: random.Random) -> str | None:
    """Most frequent letter among the chains, ties at random; ``None`` when no chain gave a letter in
    ``letters`` (the reference then draws a random letter, see ``medprobe.parsing.fill``)."""
    counts = Counter(pred for pred in preds if pred in letters)
    if not counts:
        return None
    top = max(counts.values())
    return rng.choice([letter for letter in letters if counts[letter] == top])


def vote_true_false(preds: Sequence[bool | None], rng: random.Random) -> bool:
    """T against *everything else*, ties at random.

    Reproduces the reference quirk (§3.3, §4.4 item 9): an unparsed chain counts as an F vote, so
    ``[T, ∅, ∅, T, ∅]`` is F.
    """
    yes = sum(1 for pred in preds if pred is True)
    return _majority(yes, len(preds) - yes, rng)


def vote_revision(preds: Sequence[Revision | None], given: str, rng: random.Random) -> Revision:
    """Majority verdict over the chains that have one (ties at random). T takes Alice's letter
    ``given``; F takes the majority letter over *all* chains' options — including the Alice letters of
    T chains — with ties at random. Parts that stay ``None`` are padded later (``fill.pad_revision``)."""
    judges = [pred.judge for pred in preds if pred is not None and pred.judge is not None]
    yes = judges.count(True)
    judge = _majority(yes, len(judges) - yes, rng) if judges else None
    if judge:
        return Revision(True, given)
    options = [pred.option for pred in preds if pred is not None and pred.option is not None]
    return Revision(judge, vote_option(options, sorted(set(options)), rng))


def vote_letter_set(preds: Sequence[frozenset[str] | None], rng: random.Random) -> frozenset[str] | None:
    """Most frequent exact set, ignoring unparsed and empty chains, ties at random ("answer vote",
    mode 1 — the one the reference runs). ``None`` when no chain gave a set (scored wrong)."""
    counts = Counter(pred for pred in preds if pred)
    if not counts:
        return None
    top = max(counts.values())
    return rng.choice([letters for letters, count in counts.items() if count == top])


def vote_letter_set_by_option(preds: Sequence[frozenset[str] | None]) -> frozenset[str] | None:
    """Each letter chosen by at least half of the non-empty chains ("option vote", mode 0, defined
    but unused by the reference). No ties can arise, so no RNG is needed."""
    valid = [pred for pred in preds if pred]
    if not valid:
        return None
    counts = Counter(letter for pred in valid for letter in pred)
    return frozenset(letter for letter, count in counts.items() if count >= len(valid) / 2)
