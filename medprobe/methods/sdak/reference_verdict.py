"""The SDAK authors' verdict rules, applied as their scorer applies them (reference-compatible mode).

Their evaluation script (``code/evaluate.py`` of the SDAK repository; REFERENCE_METHODS, SDAK
appendix) reads each reply by fixed substrings in fixed-length prefixes of the raw text — no
whitespace stripping, no reasoning-block removal, no English. A factual claim's item counts for
FactAcc when its reply matches a *support* rule and the counterfactual's reply matches a *refute*
rule; an item counts for IFR when both replies match any rule. The rules overlap, and the script
only asks what each side needs, so a reply matching both kinds counts as support on the factual
side and as refutation on the counterfactual side. Consequences kept on purpose, because numbers
must compare with the paper's: "不完全正确" supports a factual claim (it holds "正确" and not
"不正确" in its first five characters); "我不是医生…" refutes; " 正确" with a leading space still
supports, but "  错误" does not refute ("错误" must be within the first three characters).

Python slices count code points, as theirs did, so prefixes here are the same characters.
"""

from __future__ import annotations

from dataclasses import dataclass

from medprobe.parsing.reading import NO_REPLY, REFERENCE, UNPARSED, Reading

NO_RULE = "no rule of the authors' script matches"


@dataclass(frozen=True)
class PrefixRule:
    """``text`` within the first ``within`` characters (and ``unless`` not within them)."""

    text: str
    within: int
    unless: str = ""

    @property
    def name(self) -> str:
        """How reports name the rule: '"正确" in first 5, no "不正确"'."""
        return f'"{self.text}" in first {self.within}' + (f', no "{self.unless}"' if self.unless else "")

    def matches(self, reply: str) -> bool:
        head = reply[: self.within]
        return self.text in head and not (self.unless and self.unless in head)


#: the support rules, in the script's order
SUPPORT_RULES = (PrefixRule("正确", 5, unless="不正确"), PrefixRule("是的", 3), PrefixRule("是正确的", 10))
#: the refute rules, in the script's order ("这个说法是不正确的" within 10 implies "不正确" within 10: kept, it is theirs)
REFUTE_RULES = (
    PrefixRule("错误", 3),
    PrefixRule("不正确", 10),
    PrefixRule("这个说法是错误的", 10),
    PrefixRule("这个说法是不正确的", 10),
    PrefixRule("不完全正确", 10),
    PrefixRule("不是", 5),
)


def _first(rules: tuple[PrefixRule, ...], reply: str) -> PrefixRule | None:
    return next((rule for rule in rules if rule.matches(reply)), None)


@dataclass(frozen=True)
class AuthorsReading:
    """A reply as the authors' script reads it for one side of an item: ``value`` True (counts as
    support), False (counts as refutation) or None (no rule matches), and the rule that decided."""

    value: bool | None
    rule: str

    def as_reading(self) -> Reading:
        """The reply in the reading tally: family "reference", or unparsed with the reason."""
        if self.value is not None:
            return Reading(self.value, REFERENCE)
        return Reading(None, self.rule, self.rule) if self.rule == NO_REPLY else Reading(None, UNPARSED, NO_RULE)


def authors_reading(reply: str | None, factual: bool) -> AuthorsReading:
    """The raw reply read by the authors' rules for a factual (``factual=True``) or counterfactual
    claim. The side the script needs is tried first: support for a factual claim, refutation for a
    counterfactual one; the other kind only decides whether the reply followed the instruction."""
    if reply is None:
        return AuthorsReading(None, NO_REPLY)
    needed, other = (SUPPORT_RULES, REFUTE_RULES) if factual else (REFUTE_RULES, SUPPORT_RULES)
    for rules in (needed, other):
        rule = _first(rules, reply)
        if rule is not None:
            return AuthorsReading(rules is SUPPORT_RULES, rule.name)
    return AuthorsReading(None, NO_RULE)
