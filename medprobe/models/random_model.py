"""``random``: a uniform guesser that answers in each probe's expected format.

It gives the papers' "Random" rows from the same pipeline a real model goes through (prompt,
reply text, parser, metric), so a parser or metric bug shows up as a random row that is off its
analytic baseline. Each answer is a pure function of (run seed, request id): reruns and
resumed runs give identical results.

In a diagnostic dialogue it is the baseline doctor: each turn it picks one of the actions left
at random, orders a random non-empty subset of the case's exams of the type it chose, and names a
diagnosis drawn at random from the choices the turn offers (MultiCogEval: the diagnoses of the
case set being run), always in the reply format the dialogue asks for.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.parsing.strict_exact import ANSWER_WORDS
from medprobe.records import AnswerFormat, Probe, Request, Response


def random_reply(fmt: AnswerFormat, rng: random.Random) -> str:
    """One uniformly random answer written the way the probe's demos write answers."""
    if fmt.kind in ("dialogue_turn", "dialogue_list"):
        return _dialogue_reply(fmt, rng)
    words = ANSWER_WORDS[fmt.language]
    letters = fmt.options
    if fmt.kind == "true_false":
        return words["true"] if rng.random() < 0.5 else words["false"]
    if fmt.kind == "yes_no":
        return words["yes"] if rng.random() < 0.5 else words["no"]
    if fmt.kind == "verdict":  # a claim supported or refuted with probability 1/2 each
        return words["correct"] if rng.random() < 0.5 else words["refute"]
    if not letters:
        raise MedprobeError(f"the random model needs the option letters of a {fmt.kind} probe")
    if fmt.kind == "option_letter":
        return rng.choice(letters)
    if fmt.kind == "letter_set":
        return ",".join(_subset(letters, rng))
    pick = rng.choice(letters)  # verdict_letter: pick an answer, then judge the given one by it
    return words["correct"] if pick == fmt.given else words["incorrect"].format(pick)


def _subset(items: list[str], rng: random.Random) -> list[str]:
    """A subset drawn uniformly from the non-empty ones, in the items' order."""
    mask = rng.randrange(1, 2 ** len(items))
    return [item for i, item in enumerate(items) if mask >> i & 1]


def _dialogue_reply(fmt: AnswerFormat, rng: random.Random) -> str:
    """A dialogue turn in the reply format the dialogue asks for ("Rationale: …" then the label)."""
    if fmt.kind == "dialogue_list":  # no orderable exam: an empty list, which the dialogue rejects as invalid
        chosen = ", ".join(_subset(fmt.options, rng)) if fmt.options else ""
    elif fmt.options:
        chosen = rng.choice(fmt.options)
    else:
        raise MedprobeError(f"the random model has nothing to choose from after '{fmt.given}'")
    treatment = "\nTreatment: none (a random baseline)" if fmt.given == "Diagnosis:" else ""
    return f"Rationale: chosen at random\n{fmt.given} {chosen}{treatment}"


def refuse_free_text(method: str, probes: Sequence[Probe]) -> None:
    """Stop before a run starts when its probes ask free text, which no uniform guess answers
    (MedDisKEval's recall): else every request fails and the run stops only after many failures."""
    if any(p.answer_format is None or p.answer_format.kind == "free_text" for p in probes):
        raise MedprobeError(
            f"the random model cannot answer {method}: it asks free-text answers",
            field="--model", hint="the random model answers fixed-format questions: multifacet, multicog and sdak",
        )


class RandomBackend:
    model_id = "random"
    max_concurrency = 64
    cacheable = False

    def __init__(self, spec: str, options: dict[str, str]) -> None:
        if spec:
            raise MedprobeError(f"the random model takes no argument (got 'random:{spec}')", field="--model")
        self.seed = int(options.get("seed", 0))

    def identity(self) -> dict[str, Any]:
        return {"backend": "random"}

    async def check(self) -> None:
        return None

    async def complete(self, request: Request) -> Response:
        if request.answer_format is None or request.answer_format.kind == "free_text":
            return Response(probe_id=request.probe_id, sample=request.sample, error="the random model answers only fixed-format questions, not free text")
        digest = hashlib.sha256(f"{self.seed}|{request.seed}|{request.id}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        return Response(
            probe_id=request.probe_id,
            sample=request.sample,
            text=random_reply(request.answer_format, rng),
            finish_reason="stop",
        )

    async def aclose(self) -> None:
        return None
