"""MultifacetEval parsers, votes and fills: the golden vectors of REFERENCE_METHODS.md §6, zh, edge cases."""

from __future__ import annotations

import random

import pytest

from medprobe.methods.multifacet.reference_letter_set import parse_letter_set, parse_letter_set_cot
from medprobe.parsing.base import Parsed, Revision, Unparsed
from medprobe.parsing.fill import (
    complete_revision_strict,
    fill_option,
    fill_true_false,
    pad_revision,
)
from medprobe.parsing.reference_option_letter import (
    maq_options,
    mcq_options,
    parse_option_letter,
    parse_option_letter_cot,
    replace_option_texts,
    rq_options,
)
from medprobe.parsing.reference_true_false import parse_true_false, parse_true_false_cot
from medprobe.parsing.reference_verdict_letter import parse_revision, parse_revision_cot
from medprobe.parsing.votes import (
    vote_letter_set,
    vote_letter_set_by_option,
    vote_option,
    vote_revision,
    vote_true_false,
)
from medprobe.seeding import item_rng

OPTS = {"A": "alpha", "B": "beta", "C": "gamma", "D": "delta", "E": "epsilon"}
LETTERS = list("ABCDE")
T, F = True, False


def fs(letters: str) -> frozenset[str]:
    return frozenset(letters)


# --- option blocks -------------------------------------------------------------------------------


def test_mcq_options_tab_separated():
    q = "Which one?\tA: alpha\tB: beta\tC: gamma\tD: delta\tE: epsilon"
    assert mcq_options(q) == OPTS


def test_rq_options_stop_at_full_stop():
    q = "Which one?\tA: alpha\tB: beta b.\tC: gamma\tD: delta\tE: epsilon. Alice's answer: C."
    assert rq_options(q) == {**OPTS, "B": "beta b"}


def test_cot_option_blocks_also_stop_at_newline():
    q = "Which one?\tA: alpha\nB: beta"
    assert mcq_options(q) == {"B": "beta"}  # "alpha\nB..." never reaches a TAB or the end
    assert mcq_options(q, cot=True) == {"A": "alpha", "B": "beta"}
    assert rq_options("A: alpha\nB: beta", cot=True) == {"A": "alpha", "B": "beta"}


def test_maq_options_newline_separated():
    assert maq_options("Which apply?\nA: alpha\nB: beta\nC: gamma") == {
        "A": "alpha",
        "B": "beta",
        "C": "gamma",
    }


def test_replace_option_texts_variants():
    assert replace_option_texts("Gamma and gamma", {"C": "Gamma"}) == "C and gamma"
    assert replace_option_texts("Gamma and gamma", {"C": "Gamma"}, case_variants=True) == "C and C"
    assert replace_option_texts("C: gamma", {"C": "gamma"}, labelled=True) == "C"
    assert replace_option_texts("abc", {"A": ""}) == "abc"


# --- MCQ -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "letter"),
    [(" E\n\nQuestion: x", "E"), ("The correct answer is C", "C"), ("Option B", "B"), ("gamma", "C")],
)
def test_mcq_ao_golden(reply, letter):
    assert parse_option_letter(reply, OPTS) == Parsed(letter)


@pytest.mark.parametrize("reply", ["(C)", "I think D"])
def test_mcq_ao_golden_unparsed(reply):
    assert isinstance(parse_option_letter(reply, OPTS), Unparsed)


@pytest.mark.parametrize("reply", ["", "   \n"])
def test_mcq_ao_empty(reply):
    assert parse_option_letter(reply, OPTS) == Unparsed("empty reply")


def test_mcq_ao_first_pattern_wins_and_first_hit_used():
    # "Answers?:" comes before "The correct answer is" in the list, even though it appears later.
    assert parse_option_letter("The correct answer is B. Answer: D", OPTS) == Parsed("D")
    assert parse_option_letter("Answer: A ... Answer: B", OPTS) == Parsed("A")


@pytest.mark.parametrize(
    ("reply", "letter"),
    [("… Therefore, the answer is: D", "D"), ("the best option is epsilon.", "E")],
)
def test_mcq_cot_golden(reply, letter):
    assert parse_option_letter_cot(reply, OPTS) == Parsed(letter)


def test_mcq_cot_lowercase_option_text_and_fallbacks():
    assert parse_option_letter_cot("Therefore, the answer is delta", {"D": "Delta"}) == Parsed("D")
    assert isinstance(parse_option_letter("Therefore, the answer is delta", {"D": "Delta"}), Unparsed)
    assert parse_option_letter_cot("B seems right", OPTS) == Parsed("B")
    assert parse_option_letter_cot("no letter here", OPTS) == Unparsed("no option letter found")
    assert parse_option_letter_cot("", OPTS) == Unparsed("empty reply")


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        ("答案是C", "C"),
        ("答案：B", "B"),
        ("答案为 D", "D"),
        ("选项E", "E"),
        ("A", "A"),
        ("gamma", "C"),
        ("爱丽丝的答案A不正确，正确答案是C", "C"),
    ],
)
def test_mcq_zh(reply, letter):
    assert parse_option_letter(reply, OPTS, language="zh") == Parsed(letter)
    assert parse_option_letter_cot(reply, OPTS, language="zh") == Parsed(letter)


def test_mcq_zh_unparsed_and_unknown_language():
    assert isinstance(parse_option_letter("我不知道", OPTS, language="zh"), Unparsed)
    with pytest.raises(ValueError, match="unsupported language"):
        parse_option_letter("A", OPTS, language="fr")


# --- TFQ -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["true", "True, because", "consistent"])
def test_tfq_ao_golden_true(reply):
    assert parse_true_false(reply) == Parsed(True)


@pytest.mark.parametrize("reply", ["This is not correct", "No", "Not sure", "Nothing", "incorrect"])
def test_tfq_ao_golden_false(reply):
    assert parse_true_false(reply) == Parsed(False)


@pytest.mark.parametrize("reply", ["TRUE", "maybe", ""])
def test_tfq_ao_golden_unparsed(reply):
    assert isinstance(parse_true_false(reply), Unparsed)


def test_tfq_no_stop_string_quirk():
    assert parse_true_false("true\n\nQuestion: Is this statement true or false?") == Parsed(False)


def test_tfq_cot_extracts_like_ao():
    for reply in ["true", "This is not correct", "TRUE", ""]:
        assert parse_true_false_cot(reply) == parse_true_false(reply)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("正确", T),
        ("对", T),
        ("是的", T),
        ("错误", F),
        ("不正确", F),
        ("不对", F),
        ("否", F),
        ("错", F),
        ("不是", F),
    ],
)
def test_tfq_zh(reply, verdict):
    assert parse_true_false(reply, language="zh") == Parsed(verdict)
    assert parse_true_false_cot(reply, language="zh") == Parsed(verdict)


def test_tfq_zh_unparsed():
    assert isinstance(parse_true_false("不确定", language="zh"), Unparsed)


# --- RQ ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "revision"),
    [
        ("correct", Revision(T, None)),
        ("Correct.", Revision(T, None)),
        ("incorrect, the correct answer is B", Revision(F, "B")),
        ("incorrect, the correct answer is gamma", Revision(F, "C")),
        ("wrong, B", Revision(F, None)),
        ("Answer: C", Revision(None, "C")),
    ],
)
def test_rq_ao_golden(reply, revision):
    assert parse_revision(reply, OPTS) == Parsed(revision)


def test_rq_ao_golden_no_is_unparsed():
    # The reference's "no" pattern is fused with the next one and never matches.
    assert parse_revision("no", OPTS) == Unparsed("no verdict or option found")


def test_rq_golden_padding_correct_takes_alice_letter():
    parsed = parse_revision("correct", OPTS)
    assert isinstance(parsed, Parsed)
    assert pad_revision(parsed.value, "C", LETTERS, random.Random(0)) == Revision(T, "C")


def test_rq_ao_edge_cases():
    assert parse_revision("", OPTS) == Unparsed("empty reply")
    assert parse_revision("The correct answer is D", OPTS) == Parsed(Revision(None, "D"))  # (?! answer)
    assert parse_revision("NOT CORRECT", OPTS) == Parsed(Revision(F, None))


def test_rq_cot():
    assert parse_revision_cot("Therefore, the answer is: correct.", OPTS, "C") == Parsed(Revision(T, "C"))
    assert parse_revision_cot("Therefore, the answer is no. The answer is B", OPTS, "C") == Parsed(
        Revision(F, "B")
    )
    assert parse_revision_cot("Alice's choice is not the best; the answer is gamma", OPTS, "A") == Parsed(
        Revision(F, "C")
    )
    # A chain never becomes T from a bare "correct"; the option list still runs.
    assert parse_revision_cot("correct", OPTS, "C") == Unparsed("no verdict or option found")
    assert parse_revision_cot("", OPTS, "C") == Unparsed("empty reply")


@pytest.mark.parametrize(
    ("reply", "revision"),
    [
        ("正确", Revision(T, None)),
        ("不正确，正确答案是B", Revision(F, "B")),
        ("错误，答案：gamma", Revision(F, "C")),
        ("正确答案是D", Revision(None, "D")),
    ],
)
def test_rq_zh(reply, revision):
    assert parse_revision(reply, OPTS, language="zh") == Parsed(revision)


def test_rq_zh_cot_forces_given_when_correct():
    assert parse_revision_cot("爱丽丝的答案正确", OPTS, "E", language="zh") == Parsed(Revision(T, "E"))
    assert parse_revision_cot("不对，正确答案为A", OPTS, "E", language="zh") == Parsed(Revision(F, "A"))


# --- MAQ -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "letters"),
    [
        ("A, D and E", "ADE"),
        ("AB", "AB"),
        ("A B", "AB"),
        ("A,B C", "A"),
        ("Options: B, C", "BC"),
        ("The correct answers are B and D", "BD"),
        ("alpha, beta", "AB"),
    ],
)
def test_maq_ao_golden(reply, letters):
    assert parse_letter_set(reply, OPTS) == Parsed(fs(letters))


def test_maq_ao_golden_none_is_unparsed():
    assert parse_letter_set("none", OPTS) == Unparsed("no option letters found")


def test_maq_ao_quirks():
    assert parse_letter_set("", OPTS) == Unparsed("empty reply")
    # The fused fifth reference regex never gets to match.
    assert isinstance(parse_letter_set("The answer is that options B, C", OPTS), Unparsed)
    # " and " is replaced before option texts, so a text containing " and " is missed.
    assert isinstance(parse_letter_set("iron and folate", {"A": "iron and folate"}), Unparsed)


def test_maq_cot():
    assert parse_letter_set_cot("Therefore, the answer is **A, C**", OPTS) == Parsed(fs("AC"))
    assert parse_letter_set_cot(
        "So Alpha fits and B: beta too. Therefore, the answer is alpha and beta", OPTS
    ) == Parsed(fs("AB"))
    assert parse_letter_set_cot("Therefore, all of the options are correct", OPTS) == Parsed(fs("ABCDE"))
    # Reference quirk: "^X" reads the capital A of "All" before the all-options fallback is tried.
    assert parse_letter_set_cot("All of the options are correct", OPTS) == Parsed(fs("A"))
    assert parse_letter_set_cot("nothing fits", OPTS) == Unparsed("no option letters found")


@pytest.mark.parametrize(
    ("reply", "letters"),
    [
        ("答案：A、C", "AC"),
        ("正确答案是B，D", "BD"),
        ("答案为A和E", "AE"),
        ("A C", "AC"),
        ("选项B、C正确", "BC"),
        ("答案：alpha、gamma", "AC"),
    ],
)
def test_maq_zh(reply, letters):
    assert parse_letter_set(reply, OPTS, language="zh") == Parsed(fs(letters))
    assert parse_letter_set_cot(reply, OPTS, language="zh") == Parsed(fs(letters))


def test_maq_zh_unparsed():
    assert isinstance(parse_letter_set("都不对", OPTS, language="zh"), Unparsed)


# --- votes ---------------------------------------------------------------------------------------


def test_vote_tfq_golden():
    assert vote_true_false([T, None, None, T, None], random.Random(0)) is False
    assert vote_true_false([T, T, F, None, T], random.Random(0)) is True


def test_vote_tfq_tie_uses_rng():
    outcomes = {vote_true_false([T, F], random.Random(seed)) for seed in range(20)}
    assert outcomes == {True, False}


def test_vote_rq_golden():
    rng = random.Random(0)
    assert vote_revision([Revision(F, "B")] * 3 + [Revision(T, "C")] * 2, "C", rng) == Revision(F, "B")
    assert vote_revision([Revision(T, "C")] * 3 + [Revision(F, "B")] * 2, "C", rng) == Revision(T, "C")


def test_vote_rq_counts_alice_letters_of_true_chains():
    # Verdict F (2 vs 1) but the letter vote includes the T chain's "C": C 2, B 1.
    preds = [Revision(F, "C"), Revision(F, "B"), Revision(T, "C"), None]
    assert vote_revision(preds, "C", random.Random(0)) == Revision(F, "C")
    assert vote_revision([None, Revision(None, None)], "C", random.Random(0)) == Revision(None, None)


def test_vote_maq_golden():
    chains = [fs("AB"), fs("BA"), fs("C"), fs(""), fs("ABC")]
    assert vote_letter_set(chains, random.Random(0)) == fs("AB")
    assert vote_letter_set_by_option(chains) == fs("ABC")


def test_vote_maq_nothing_parsed():
    assert vote_letter_set([None, fs("")], random.Random(0)) is None
    assert vote_letter_set_by_option([None, fs("")]) is None


def test_vote_mcq():
    assert vote_option(["B", "B", None, "A", "C"], LETTERS, random.Random(0)) == "B"
    assert vote_option([None, None], LETTERS, random.Random(0)) is None
    assert {vote_option(["A", "D"], LETTERS, random.Random(s)) for s in range(20)} == {"A", "D"}


# --- fills ---------------------------------------------------------------------------------------


def test_item_rng_is_deterministic_and_key_sensitive():
    draw = [item_rng(48, "gpt", "17").random() for _ in range(2)]
    assert draw[0] == draw[1]
    assert item_rng(48, "gpt", "17").random() != item_rng(48, "gpt", "18").random()
    assert item_rng(48, "ab", "c").random() != item_rng(48, "a", "bc").random()


def test_fill_option_and_true_false():
    assert fill_option(item_rng(1, "x"), LETTERS) in LETTERS
    assert fill_option(item_rng(1, "x"), LETTERS) == fill_option(item_rng(1, "x"), LETTERS)
    assert {fill_true_false(item_rng(1, str(i))) for i in range(20)} == {True, False}


def test_pad_revision():
    for seed in range(20):
        padded = pad_revision(Revision(F, None), "C", LETTERS, random.Random(seed))
        assert padded.judge is False and padded.option in {"A", "B", "D", "E"}
        drawn = pad_revision(None, "C", LETTERS, random.Random(seed))
        assert drawn.judge is not None and (drawn.option == "C") == drawn.judge
    assert pad_revision(Revision(F, "B"), "C", LETTERS, random.Random(0)) == Revision(F, "B")


def test_complete_revision_strict():
    assert complete_revision_strict(Revision(T, None), "C") == Revision(T, "C")
    assert complete_revision_strict(Revision(F, "B"), "C") == Revision(F, "B")
    assert complete_revision_strict(Revision(F, None), "C") is None
    assert complete_revision_strict(Revision(None, "B"), "C") is None
    assert complete_revision_strict(None, "C") is None
