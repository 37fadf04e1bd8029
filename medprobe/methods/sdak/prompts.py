"""The fact-checking prompt (paper 004 §4.2.1, Appendix D), written for medprobe in en and zh.

Zero-shot: the instruction, a blank line, the claim. Few-shot: the instruction, three solved
examples as "Input: <claim>\\nOutput: <reply>", then "Input: <claim>\\nOutput:". The paper's
demo replies were GPT-4 answers checked by a doctor; ours are written by template from the
item itself: the verdict, then a one-sentence reason that states the fact.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from medprobe.methods.sdak.claims import ATOMIC_TYPES, ClaimPair


@dataclass(frozen=True)
class Wording:
    instruction: str
    input: str
    output: str
    #: a demo reply supporting a factual claim, and one refuting a counterfactual claim
    supported: str
    refuted: str


EN = Wording(
    instruction=(
        'Is the following statement correct? If it is, reply "correct" first and then give your reason. '
        'If it is not, reply "incorrect" first and then give your reason.'
    ),
    input="Input: ",
    output="Output: ",
    supported="Correct. Medical references support it: {fact}.",
    refuted="Incorrect. The accurate statement is: {fact}.",
)
ZH = Wording(
    instruction="请判断下面的说法是否正确。如果正确，请先回复“正确”，再说明理由；如果错误，请先回复“错误”，再说明理由。",
    input="输入：",
    output="输出：",
    supported="正确。医学资料支持这一说法：{fact}。",
    refuted="错误。事实上，{fact}。",
)
WORDING = {"en": EN, "zh": ZH}
#: keeps a completion-style model from writing the next example itself
STOP = ["\n\nInput:", "\n\n输入："]


def _bare(claim: str) -> str:
    return claim.rstrip("。.！!；; ")


def demo_reply(pair: ClaimPair, factual: bool) -> str:
    """The solved answer to one claim of a validation item: supported for the factual claim,
    refuted for the counterfactual, each followed by the fact as its reason."""
    w = WORDING[pair.language]
    return (w.supported if factual else w.refuted).format(fact=_bare(pair.factual))


def prompt(claim: str, demos: list[tuple[ClaimPair, bool]], language: str) -> str:
    """The full prompt for one claim; ``demos`` empty means zero-shot."""
    w = WORDING[language]
    if not demos:
        return f"{w.instruction}\n\n{claim}"
    shots = "".join(
        f"{w.input}{pair.factual if factual else pair.counterfactual}\n{w.output}{demo_reply(pair, factual)}\n\n" for pair, factual in demos
    )
    return f"{w.instruction}\n\n{shots}{w.input}{claim}\n{w.output.rstrip()}"


def template_hash() -> str:
    """Changes whenever the prompt wording or a claim template changes; recorded in config.json."""
    material = repr((sorted(WORDING.items()), [(t.key, sorted(t.templates.items())) for t in ATOMIC_TYPES]))
    return hashlib.sha256(material.encode()).hexdigest()[:12]
