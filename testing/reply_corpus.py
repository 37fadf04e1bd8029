"""The reply corpus (tests/data/reply_corpus.jsonl): real chat replies and hand-written forms, each with
the answer a careful reader takes from it. Used by tests/test_reply_corpus.py (every reading asserted)
and benchmarks/reply_corpus.py (parse rates per method, strict against the reference extractors).

A record: ``id``, ``method`` (multifacet, multicog, sdak), ``task``, ``language``, ``style``, ``source``
(``llama_cpp.server smollm2`` or ``llama_cpp.server gemma3`` for replies gathered with scripts/gather_replies.py,
the Gemma 3 270M ones labelled by blind readers who never saw the reading rules; or ``hand-written``),
``format`` (the probe's answer format), ``prompt_tail`` (the end of the question asked, for gathered
replies), ``reply``, ``expected`` — a letter, a list of letters, true/false,
``[verdict, letter]`` for a revision, or null where no answer can be read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from medprobe.methods.multicog.lowmid.reference_yes_no import parse_answer_existence
from medprobe.methods.multifacet.reference_letter_set import parse_letter_set
from medprobe.methods.sdak.strict_verdict import read_verdict
from medprobe.parsing.answers import read_reference, read_strict
from medprobe.parsing.base import ParseResult, Revision
from medprobe.parsing.reading import Reading
from medprobe.parsing.reference_option_letter import parse_option_letter, parse_option_letter_mce
from medprobe.parsing.reference_true_false import parse_statement_mce, parse_true_false
from medprobe.parsing.reference_verdict_letter import parse_rectification_mce, parse_revision
from medprobe.records import AnswerFormat

PATH = Path(__file__).parents[1] / "tests" / "data" / "reply_corpus.jsonl"


def load(path: Path = PATH) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def has_reference(record: dict[str, Any]) -> bool:
    """Whether the record can be read by a published extractor: SDAK's authors' rules (methods/sdak/reference_verdict.py)
    read a reply knowing which claim half it answers, which a corpus record does not say."""
    return record["format"]["kind"] != "verdict"


def _reference_extractor(record: dict[str, Any], fmt: AnswerFormat) -> Callable[[str], ParseResult[Any]]:
    """The published scripts' extractor for the record's method and task (MultifacetEval, MultiCogEval:
    what strict mode used before it read chat replies)."""
    lang, texts = fmt.language, fmt.option_texts
    mce = record["method"] == "multicog"
    by_kind: dict[str, Callable[[str], ParseResult[Any]]] = {
        "option_letter": partial(parse_option_letter_mce if mce else parse_option_letter, option_texts=texts, language=lang),
        "letter_set": partial(parse_letter_set, option_texts=texts, language=lang),
        "true_false": partial(parse_statement_mce if mce else parse_true_false, language=lang),
        "yes_no": partial(parse_answer_existence, language=lang),
        "verdict_letter": partial(parse_rectification_mce, language=lang) if mce else partial(parse_revision, option_texts=texts, language=lang),
    }
    return by_kind[fmt.kind]


def read(record: dict[str, Any], mode: str = "strict") -> Reading:
    """The record's reply read in ``mode``: "strict" (what medprobe scores with) or "reference"."""
    fmt = AnswerFormat(**record["format"])
    if mode == "reference":
        reading = read_reference(record["reply"], _reference_extractor(record, fmt))
        value = reading.value
        if fmt.kind == "verdict_letter" and isinstance(value, Revision) and value.option is None:
            value = Revision(True, fmt.given) if value.judge else None  # the reference's own completion of "correct"
        return Reading(value, reading.rule, reading.reason)
    if fmt.kind == "verdict":
        return read_verdict(record["reply"], fmt.language)
    return read_strict(record["reply"], fmt, record.get("prompt_tail"))
