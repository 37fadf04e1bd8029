"""A "true" whose explanation says the statement's opposite: the reply restates our statement with one word turned into
its opposite ("True. … which gives it a higher affinity for oxygen" to "Fetal hemoglobin has a lower affinity for
oxygen …"). Such a reply gives both verdicts, so it is unread.

A word counts as turned when the reply writes its opposite (from a short list: higher/lower, left/right, true/false,
hyper-/hypo-, …) among the statement's own neighbours: the word right after it and two more of the two words before it
and the two after it (for the statement's last word, both words before it), not right after a negation ("does not have
a lower affinity"). The sentence must open with the statement's subject and share two of its longer words, and the reply
must nowhere write the word itself among its neighbours. Two turns in one sentence cancel ("less common on the right
side" says "more common on the left side"); a pair turned with only two of its neighbours (a looser restatement) counts
toward that, never alone. A comparison may be restated the other way round: a pair the statement compares counts as one
turn when the sentence writes one of its words where the statement has the other ("Gout is less common in women"
restates "Gout is more common in men than in women": "more" turned, and men/women exchanged). Asides in brackets and
sentences that set another thing against the claim ("whereas", "while", "but", "however", "unlike", "conversely", "by
contrast", an opening "compared with") are left out.
"""

from __future__ import annotations

import re

from medprobe.parsing.question_rules import FIRST_VERB, statement_of
from medprobe.parsing.reading import BOTH_VERDICTS, UNPARSED, Reading

_PAIRS = (
    ("higher", "lower"), ("high", "low"), ("increased", "decreased"), ("increase", "decrease"), ("increases", "decreases"),
    ("increasing", "decreasing"), ("more", "less"), ("greater", "lesser"), ("larger", "smaller"), ("longer", "shorter"),
    ("faster", "slower"), ("left", "right"), ("true", "false"), ("benign", "malignant"), ("acute", "chronic"),
    ("maximum", "minimum"), ("positive", "negative"), ("proximal", "distal"), ("anterior", "posterior"), ("superior", "inferior"),
    ("medial", "lateral"), ("dominant", "recessive"), ("first", "last"), ("early", "late"), ("earliest", "latest"),
    ("rises", "falls"), ("rise", "fall"), ("common", "rare"), ("inhibits", "stimulates"), ("inhibit", "stimulate"),
    ("agonist", "antagonist"), ("present", "absent"), ("always", "never"), ("before", "after"), ("above", "below"),
    ("elevated", "reduced"), ("elevated", "decreased"), ("raised", "lowered"), ("upper", "lower"),
    ("direct", "indirect"), ("conjugated", "unconjugated"), ("sensitive", "resistant"), ("vasodilation", "vasoconstriction"),
    ("ipsilateral", "contralateral"), ("constriction", "dilation"), ("gram-positive", "gram-negative"),
)
_MALE = ("male", "males", "man", "men", "boy", "boys")
_FEMALE = ("female", "females", "woman", "women", "girl", "girls")
_OPPOSITES: dict[str, set[str]] = {}
for _one, _other in (*_PAIRS, *((m, f) for m in _MALE for f in _FEMALE)):
    _OPPOSITES.setdefault(_one, set()).add(_other)
    _OPPOSITES.setdefault(_other, set()).add(_one)
#: prefixes that turn a word into its opposite: "hyperkalemia" / "hypokalemia", "tachycardia" / "bradycardia"
_PREFIXES = (("hyper", "hypo"), ("tachy", "brady"))

_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SENTENCE = re.compile(r"[!?\n]|\.(?!\d)")
#: an aside in brackets, left out: it sets another thing beside the claim ("PPV increases (and NPV decreases)")
_ASIDE = re.compile(r"\([^()\n]*\)")
#: a sentence that sets another thing against the claim ("whereas the left lung has two lobes", "by contrast")
_CONTRAST = re.compile(r"\b(?:whereas|while|but|however|unlike|conversely|(?:by|in)\s+contrast)\b|^\W*(?:compared|in\s+comparison)\b")
#: words that negate what follows them closely ("does not have a lower affinity")
_NEGATIONS = frozenset({"not", "no", "never", "cannot", "without", "nor"})
#: the neighbours a restatement must keep, and how many of them a turned word needs to count alone or with another
_STRONG, _LOOSE = 3, 2


def _stem(word: str) -> str:
    word = word[:-2] if word.endswith("ly") and len(word) > 5 else word
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _opposites(word: str) -> set[str]:
    found = set(_OPPOSITES.get(word, ()))
    for one, other in (*_PREFIXES, *((b, a) for a, b in _PREFIXES)):
        if word.startswith(one) and len(word) > len(one) + 3:
            found.add(other + word[len(one) :])
    return found


def _kept(ours: list[str], i: int, theirs: list[str], j: int) -> list[bool]:
    """Which of the two words before and the two after ``ours[i]`` stand at the same places around ``theirs[j]``."""
    return [0 <= i + step < len(ours) and 0 <= j + step < len(theirs) and _stem(ours[i + step]) == _stem(theirs[j + step]) for step in (-2, -1, 1, 2)]


def _neighbours_kept(ours: list[str], i: int, theirs: list[str], j: int) -> int:
    """How many neighbours of ``ours[i]`` stand around ``theirs[j]``; none unless the word right after does (what the word
    says something of: "lower affinity", "left side"), or, for the statement's last word, both before it do ("an early
    sign of hyperkalemia")."""
    kept = _kept(ours, i, theirs, j)
    if i + 1 == len(ours):
        return 3 if kept[0] and kept[1] else 0
    return sum(kept) if kept[2] else 0


def _negated(sentence: list[str], j: int) -> bool:
    return any(word in _NEGATIONS or word == "t" for word in sentence[max(0, j - 4) : j])  # "doesn't" is "doesn", "t"


def _exchanged(ours: list[str], word: str, sentence: list[str]) -> bool:
    """Whether the sentence writes one word of a pair the statement compares where the statement has the other: its
    neighbours fit the other's place better than its own ("less common in women" for "more common in men than in women")."""
    places = {i: w for i, w in enumerate(ours) if w == word or w in _opposites(word)}
    for j, theirs in enumerate(sentence):
        if theirs not in places.values():
            continue
        fit = {i: sum(_kept(ours, i, sentence, j)) for i in places}
        own = max((n for i, n in fit.items() if places[i] == theirs), default=0)
        other = max((n for i, n in fit.items() if places[i] != theirs), default=0)
        if other >= _LOOSE and other > own:
            return True
    return False


def _turned(ours: list[str], sentence: list[str], affirmed: set[int]) -> tuple[int, int]:
    """How many of the statement's words the sentence turns into their opposites among their neighbours (strongly, and
    not ``affirmed`` elsewhere), and how many turns it makes in all: loose ones too, and each pair the statement compares
    once, when it is exchanged."""
    strong = turns = 0
    compared: set[frozenset[str]] = set()
    for i, word in enumerate(ours):
        opposite = _opposites(word)
        kept = max((_neighbours_kept(ours, i, sentence, j) for j, theirs in enumerate(sentence) if theirs in opposite and not _negated(sentence, j)), default=0)
        if opposite & set(ours):
            pair = frozenset({word, *(opposite & set(ours))})
            if pair not in compared and _exchanged(ours, word, sentence):
                compared.add(pair)
                strong += kept >= _STRONG and i not in affirmed
            continue
        strong += kept >= _STRONG and i not in affirmed
        turns += kept >= _LOOSE
    return strong, turns + len(compared)


def _affirmed(ours: list[str], sentences: list[list[str]]) -> set[int]:
    """The statement's turnable words that the reply also writes as they are, among their neighbours: what the reply says
    of them is the claim's, not its opposite."""
    return {
        i for i, word in enumerate(ours) if _opposites(word)
        and any(_neighbours_kept(ours, i, sentence, j) >= _STRONG for sentence in sentences for j, theirs in enumerate(sentence) if theirs == word)
    }


def _subject(ours: list[str]) -> set[str]:
    """The longer words of the statement's subject, before its first verb (its first longer word where none is found)."""
    verb = next((i for i, word in enumerate(ours) if FIRST_VERB.fullmatch(word)), 0)
    longer = [_stem(word) for word in ours[:verb] if len(word) >= 4] or [_stem(word) for word in ours if len(word) >= 4][:1]
    return set(longer)


def says_the_opposite(reply: str, question: str) -> Reading | None:
    """A "true" reply (cleaned) that restates our statement with a word turned into its opposite: unread, as both
    verdicts; None when it does not."""
    ours = _WORD.findall(statement_of(question).lower())
    longer, subject = {w for w in ours if len(w) >= 5}, _subject(ours)
    sentences = [_WORD.findall(part.lower()) for part in _SENTENCE.split(_ASIDE.sub(" ", reply)) if not _CONTRAST.search(part.lower())]
    affirmed = _affirmed(ours, sentences)
    for sentence in sentences:
        if len(longer & set(sentence)) < 2 or not subject <= {_stem(word) for word in sentence[: len(subject) + 3]}:
            continue  # the sentence must open with our subject: "Adult hemoglobin does not bind … as tightly as fetal …" is about another
        strong, turns = _turned(ours, sentence, affirmed)
        if strong and turns % 2 == 1:
            return Reading(None, UNPARSED, f"{BOTH_VERDICTS}: true, yet the reply says the statement's opposite")
    return None
