"""Strict reading against the reply corpus: every reply's reading is asserted (testing/reply_corpus.py says
what a record holds). The corpus mixes real replies from llama.cpp's OpenAI-compatible server
(scripts/gather_replies.py, several prompt styles) with hand-written forms for each method and language
(scripts/reply_forms.py: the kinds of reply that were read wrongly or missed, each put to several questions)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from medprobe.parsing.answers import jsonable as plain
from testing.reply_corpus import load, read

CORPUS = load()


def test_the_corpus_covers_real_replies_and_every_method_and_language() -> None:
    assert len(CORPUS) >= 1500 and sum(r["language"] == "zh" for r in CORPUS) >= 300
    assert len({r["id"] for r in CORPUS}) == len(CORPUS)
    sources = Counter("server" if r["source"].startswith("llama_cpp.server") else r["source"] for r in CORPUS)
    assert sources["server"] >= 150 and sources["hand-written"] >= 150, sources
    cells = {(r["method"], r["language"]) for r in CORPUS}
    assert cells >= {(m, lang) for m in ("multifacet", "multicog", "sdak") for lang in ("en", "zh")}
    assert {r["format"]["kind"] for r in CORPUS} >= {"option_letter", "letter_set", "true_false", "yes_no", "verdict_letter", "verdict"}


@pytest.mark.parametrize("record", CORPUS, ids=[r["id"] for r in CORPUS])
def test_strict_reading(record: dict) -> None:
    reading = read(record)
    assert plain(reading.value) == record["expected"], (record["reply"], reading)
    assert (reading.value is None) == (reading.rule in ("unparsed", "no reply")), reading


def test_reference_mode_keeps_the_published_extractors() -> None:
    """Chat replies the reference extractors misread and strict mode reads right."""
    by_reply = {(r["task"], r["reply"]): r for r in CORPUS if r["source"] == "hand-written" and r["language"] == "en"}
    sv_incorrect = by_reply[("SV", "Incorrect")]
    assert read(sv_incorrect, "reference").value is True and read(sv_incorrect).value is False
    mr_correct = next(r for r in CORPUS if r["task"] == "MR" and r["reply"] == "Correct.")
    assert read(mr_correct, "reference").value is None and plain(read(mr_correct).value) == [True, "A"]
    for reply in ("The answer is C.", "**C**", "(C)"):
        record = by_reply[("MCQ", reply)]
        assert read(record, "reference").value is None and read(record).value == "C"


def test_the_hand_written_forms_are_the_ones_the_script_writes() -> None:
    """The corpus's form-… records are what scripts/reply_forms.py writes, so a form changed in one place
    is changed in the other."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from reply_forms import records

    assert [r for r in CORPUS if r["id"].startswith("form-")] == list(records())
