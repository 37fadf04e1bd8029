"""What a final diagnosis asserts: the diseases it names, and which of them it only offers.

A diagnosis text is cut into *claims*, one disease each ("Sepsis secondary to pyelonephritis" makes
two). A claim is **hedged** when the text does not commit to it: it is one of alternatives
("Hemophilia A or B", "X vs Y", "X/Y"), carries a possibility word ("possible", "likely",
"suspected", "suspicious for", "rule out", "?"), comes after a differential marker ("Differential:
…"), or the text is a numbered or bulleted list of two or more items, or a comma/semicolon list of three or
more (a differential). "Most likely X"
names one diagnosis and commits to it; a possibility word before a cause ("likely due to E. coli")
hedges the cause, not the disease. A claim is **negated** when the text denies it ("not X",
"X ruled out", "rather than X", "without X", "not consistent with X"): a negation word ends the
claim before it and negates the one after it.

What a parenthesis holds is a claim of its own, never an alternative to the claim it follows
("Roseola (exanthema subitum)", "Pyelonephritis (E. coli)"); a parenthesis that holds only a hedge
("Pyelonephritis (probable)") hedges its claim. A claim joined to the next by a causal or "with"
connector is also offered joined ("Anemia due to iron deficiency" -> "Anemia iron deficiency"),
since some disease names are written that way around.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import count

from medprobe.methods.multicog.dialogue.disease_names import fold

_POSSIBILITY = re.compile(
    r"\?|\b(?:possible|possibly|probable|probably|likely|suspected|suspect|suspicion|suspicious|suggestive|"
    r"concern(?:ing)? for|presumed|presumptive|presumably|query|questionable|cannot (?:be )?(?:ruled? out|excluded?)|"
    r"can ?not (?:rule out|exclude)|can't (?:rule out|exclude)|rule out|r/o|consider(?:ing|ed)?|may be|might be|"
    r"could be|perhaps|maybe|differential|ddx|impression of)\b",
    re.IGNORECASE,
)
_COMMITTED = re.compile(r"\bmost (?:likely|probabl[ey])\b|\b(?:likely|probably|possibly|presumably)\b(?=\s+(?:due to|secondary to|caused by|from|related to|triggered by|induced by)\b)", re.IGNORECASE)
_DIFFERENTIAL = re.compile(
    r"\b(?:differentials?(?: diagnos[ie]s)?|ddx|other (?:possibilities|considerations)|alternatives?(?: include)?|"
    r"rule outs?|to rule out|also consider)\b",
    re.IGNORECASE,
)
_FIRST_ITEM = re.compile(r"(?:^|\n)\s*\(?1[.)]\s+\S")
_SECOND_ITEM = re.compile(r"(?:^|\s)\(?2[.)]\s+\S")
_BULLET = re.compile(r"(?:^|\n)\s*[-•*]\s+\S")
#: a top-level list of this many diseases is a differential, not a diagnosis (two may be comorbid: "Pneumonia, sepsis")
SHOTGUN_ITEMS = 3
_SHORTHAND = {r"\br/o\b": "rule out", r"\bw/o\b": "without", r"\bw/(?=\s)": "with ", r"\bs/p\b": "status post"}
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_NEGATION = re.compile(
    r"^(?:not|no|unlikely|ruled out|excluded|negative for|less likely|rather than|instead of|but not|without)\b|"
    r"\b(?:ruled out|excluded|unlikely)\W*$",
    re.IGNORECASE,
)
_ALTERNATIVE = r"\band/or\b|\bor\b|\bvs\b\.?|\bversus\b|/"
_JOINING = r"\bdue to\b|\bsecondary to\b|\bcaused by\b|\binduced by\b|\brelated to\b|\bwith\b|\bfrom\b"
_PLAIN = r"[,;:\n]|\bbut\b|(?<=\w{3})\.(?:\s+|$)|\band\b|\bcomplicated by\b|\bin the setting of\b|\bassociated with\b"
_NEGATING = r"\bwithout\b|\brather than\b|\binstead of\b|\bbut not\b|\bnot\b|\bno\b|\bnegative for\b"
_SEPARATOR = re.compile(rf"(?P<neg>{_NEGATING})|(?P<alt>{_ALTERNATIVE})|(?P<join>{_JOINING})|(?P<plain>{_PLAIN})", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """One disease the text names, as written, without its parentheses (each of which is a claim
    of its own: another name, a cause or a comment)."""

    text: str
    hedged: bool
    negated: bool
    group: tuple[int, ...]  # claims joined by "or", "vs", "/" share a group: alternatives to each other


def claims(diagnosis: str, keep: Iterable[str] = ()) -> list[Claim]:
    """The claims of a diagnosis text, in order, each joined pair added after its second part.

    ``keep``: names not to cut inside where the text spells them out ("Hand, foot and mouth
    disease", "Otitis media with effusion").
    """
    text = _COMMITTED.sub(" ", _expand(fold(diagnosis)))
    marker = _DIFFERENTIAL.search(text)
    differential_from = marker.start() if marker else len(text)
    separators = _separators(text, keep)
    as_list = (bool(_FIRST_ITEM.search(text) and _SECOND_ITEM.search(text)) or len(_BULLET.findall(text)) >= 2
               or _listed(text, separators) >= SHOTGUN_ITEMS)
    groups = count()
    found: list[Claim] = []
    group, start, previous, previous_kind, joint = next(groups), 0, None, "plain", ""
    for sep_start, sep_end, kind in [*separators, (len(text), len(text), "end")]:
        part = text[start:sep_start].strip(" .\t-")
        if part:
            hedged = as_list or start >= differential_from or bool(_POSSIBILITY.search(_hedge_scope(part)))
            carried = previous_kind == "join" and previous is not None and previous.negated  # "not consistent with X"
            negated = previous_kind == "neg" or carried or bool(_NEGATION.search(part))
            claim = Claim(_PARENTHESIS.sub(" ", part).strip(), hedged, negated, (group,))
            found.append(claim)
            for inner in _PARENTHESIS.findall(part):  # alternatives inside stay alternatives: "(ALL or AML)"
                inside = next(groups)
                found += [Claim(c.text, c.hedged or hedged, c.negated or negated, (inside, *c.group)) for c in claims(inner, keep)]
            if previous_kind == "join" and previous is not None:
                found.append(Claim(f"{previous.text} {joint} {claim.text}", previous.hedged or hedged, previous.negated or negated, (group,)))
            previous = claim
        joint, previous_kind, start = text[sep_start:sep_end], kind, sep_end
        if kind != "alt":
            group = next(groups)
    return found


def _listed(text: str, separators: list[tuple[int, int, str]]) -> int:
    """How many items a comma/semicolon/line list at the top level has: "Pneumonia, sepsis, UTI,
    meningitis" names no one diagnosis however it is punctuated."""
    return 1 + sum(1 for start, end, kind in separators if kind == "plain" and text[start:end].strip() in {",", ";", ""})


def _expand(text: str) -> str:
    for shorthand, words in _SHORTHAND.items():
        text = re.sub(shorthand, words, text, flags=re.IGNORECASE)
    return text


def _hedge_scope(part: str) -> str:
    """The claim without parentheses that say more than a hedge: "Pyelonephritis (possible sepsis)"
    commits to pyelonephritis, "Pyelonephritis (probable)" does not."""
    return _PARENTHESIS.sub(lambda m: m[0] if not _POSSIBILITY.sub("", m[1]).strip(" ,.") else " ", part)


def _separators(text: str, keep: Iterable[str]) -> list[tuple[int, int, str]]:
    """Separators outside parentheses and outside the kept names, as (start, end, kind)."""
    depth_at = _depths(text)
    lowered = text.lower()
    kept = [(m.start(), m.end()) for name in keep if _spelled(name)
            for m in re.finditer(_spelled(name), lowered)]
    return [
        (m.start(), m.end(), m.lastgroup or "plain") for m in _SEPARATOR.finditer(text)
        if depth_at[m.start()] == 0 and not any(a <= m.start() < b for a, b in kept)
    ]


def _spelled(name: str) -> str:
    """A pattern for the name with any punctuation between its words ("hand, foot, and mouth")."""
    tokens = re.findall(r"[a-z0-9]+", fold(name).lower())
    return r"\b" + r"[\W_]+".join(tokens) + r"\b" if tokens else ""


def _depths(text: str) -> list[int]:
    depths, depth = [], 0
    for char in text:
        depth += char in "(["
        depths.append(depth)
        depth = max(0, depth - (char in ")]"))
    return depths
