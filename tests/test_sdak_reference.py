"""SDAK's reference-compatible scoring: the authors' prefix rules (REFERENCE_METHODS, SDAK appendix)
rule by rule, their quirks, and a set of replies built from every rule, scored pair by pair.

Each reply below carries what the authors' rules find in it, worked out by hand from the rule
texts: whether a *support* rule matches (S) and whether a *refute* rule matches (R). Their script
counts an item for FactAcc when the factual reply has S and the counterfactual reply has R, and
for IFR when each reply has S or R; the expected numbers below come from those two definitions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from medprobe.contract import BuildOptions, ScoreOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.methods.sdak import METHOD
from medprobe.methods.sdak.reference_verdict import NO_RULE, authors_reading
from medprobe.methods.sdak.score import score as score_sdak
from medprobe.records import Probe, Response
from testing.fixtures import write_tiny_kb

# (reply, S, R, what it shows)
CASES: list[tuple[str, bool, bool, str]] = [
    # "正确" within the first 5 characters, "不正确" not within them
    ("正确。发热是常见症状。", True, False, "plain support"),
    ("正确", True, False, "the word alone"),
    ("答：正确。", True, False, "after a label, inside the prefix"),
    ("回答：正确", True, False, "ends on the fifth character"),
    ("回答是：正确", False, False, "one character too late"),
    (" 正确。", True, False, "a leading space is not stripped, but the word still fits"),
    ("\n\n正确", True, False, "leading newlines count as characters"),
    ("    正确", False, False, "four spaces push it out of the prefix"),
    ("**正确**", True, False, "markdown counts as characters"),
    ("不正确。", False, True, '"不正确" blocks the support rule and refutes'),
    ("不完全正确。", True, True, '"不完全正确" holds "正确" but not "不正确" in its first 5: it also supports'),
    ("完全正确。", True, False, "an intensifier"),
    ("正确答案是错误的", True, False, "a noun phrase starting with 正确 counts"),
    ("我认为正确", True, False, "a hedge counts"),
    ("可能正确。", True, False, "a hedge counts"),
    ("正确与否取决于患者", True, False, "both words named, read as support"),
    ("<think>正确吗？</think>错误", False, False, "reasoning blocks are not removed"),
    ("Correct.", False, False, "English is not read"),
    ("对。", False, False, "对 is not read"),
    ("不对。", False, False, "不对 is not read"),
    # "是的" within the first 3
    ("是的，", True, False, "是的"),
    (" 是的", True, False, "one leading space fits"),
    ("  是的", False, False, "two do not"),
    ("不是的。", True, True, '"不是的" holds "是的" in its first 3: it supports and refutes'),
    ("是的，这个说法不正确", True, True, "是的, then 不正确 on characters 7-9"),
    # "是正确的" within the first 10
    ("这个说法是正确的。", True, False, "subject and copula"),
    ("我觉得这个说法是正确的", False, False, "the 的 falls on the eleventh character"),
    ("该说法是正确的", True, False, "a short subject"),
    ("这一说法是正确的", True, False, "another subject"),
    ("是正确的。", True, False, "a bare copula"),
    # "错误" within the first 3
    ("错误。", False, True, "plain refutation"),
    (" 错误", False, True, "one leading space fits"),
    ("  错误", False, False, "two do not"),
    ("**错误**", False, False, "markdown pushes it out of the prefix"),
    ("答：错误", False, False, "a label pushes it out"),
    ("错误的观点，因为……", False, True, "a verdict noun phrase"),
    ("是错误的。", False, True, "a bare copula"),
    ("错", False, False, "错 alone is not read"),
    ("否", False, False, "否 is not read"),
    # "这个说法是错误的" within the first 10
    ("这个说法是错误的。", False, True, "the fixed phrase"),
    ("嗯，这个说法是错误的", False, True, "the phrase ends on the tenth character"),
    ("我认为这个说法是错误的", False, False, "one character too late"),
    # "不正确" within the first 10, "这个说法是不正确的" within the first 10
    ("这个说法是不正确的", False, True, "the fixed phrase (also 不正确)"),
    ("答案：不正确", False, True, "after a label"),
    ("我认为这个说法不正确", False, True, "a hedge counts"),
    ("我认为这个说法是不正确的", False, False, "不正确 ends on the eleventh character"),
    ("正确。但有人认为不正确", True, False, "不正确 starts on the tenth character"),
    ("正确，不正确的是……", True, True, "both kinds in the prefix"),
    # "不完全正确" within the first 10
    ("这个说法不完全正确", False, True, "不完全正确 after a subject"),
    ("答：不完全正确。", False, True, "after a label"),
    # "不是" within the first 5
    ("我不是医生，无法判断。", False, True, '"我不是医生…" refutes'),
    ("不是。", False, True, "不是"),
    ("这并不是", False, True, "不是 on characters 2-3"),
    ("这个说法并不是", False, False, "不是 starts on the sixth character"),
    ("是不是正确还要看", True, True, "正确 and 不是 both in the first 5"),
    # more forms the strict reader reads otherwise
    ("Incorrect.", False, False, "English is not read"),
    ("The claim is correct.", False, False, "English is not read"),
    ("", False, False, "an empty reply"),
    ("\u200b正确", True, False, "an invisible character counts as one"),
    ("对的，这个说法正确", False, False, "正确 beyond the fifth character"),
    ("这个说法正确", False, False, "正确 on characters 5-6"),
    ("该说法正确", True, False, "正确 on characters 4-5"),
    ("正确/错误", True, False, "both words, 错误 beyond the third character"),
    ("错误/正确", True, True, "both words in the prefixes"),
    ("正确。\n错误。", True, False, "a second line's verdict lies beyond the prefixes"),
]


@pytest.mark.parametrize(("reply", "supports", "refutes", "why"), CASES, ids=[c[3] + ": " + repr(c[0]) for c in CASES])
def test_each_rule_on_its_own(reply: str, supports: bool, refutes: bool, why: str) -> None:
    """A factual claim needs support, a counterfactual one refutation; the other kind only makes the
    reply count as following the instruction."""
    factual, counter = authors_reading(reply, factual=True), authors_reading(reply, factual=False)
    assert factual.value == (True if supports else False if refutes else None), why
    assert counter.value == (False if refutes else True if supports else None), why
    if not (supports or refutes):
        assert factual.rule == counter.rule == NO_RULE


def test_the_set_covers_every_rule() -> None:
    """Every one of the script's nine substrings decides at least one reply of the set."""
    rules = {authors_reading(reply, factual=True).rule for reply, *_ in CASES}
    rules |= {authors_reading(reply, factual=False).rule for reply, *_ in CASES}
    assert {'"正确" in first 5, no "不正确"', '"是的" in first 3', '"是正确的" in first 10', '"错误" in first 3',
            '"不正确" in first 10', '"这个说法是错误的" in first 10', '"不完全正确" in first 10', '"不是" in first 5'} <= rules
    # "这个说法是不正确的" within 10 always holds "不正确" within 10, which the script tries first: it never decides


def claim_line(n: int, polarity: str) -> dict[str, Any]:
    negated = polarity == "neg"
    claim = f"病{n}的常见症状{'不' if negated else ''}包括发热"
    return {"label_id": f"{polarity}_{n}", "type": "DiseaseSymptom", "disease": f"病{n}", "symptom": "发热", "claim": claim,
            "label": "refute" if negated else "support", "instruction": "下列说法是否正确？\n\n" + claim, "input": "", "output": "", "id": 0}


def release(tmp_path: Path, items: int) -> Path:
    path = tmp_path / "sdak.jsonl"
    lines = [claim_line(n, polarity) for n in range(1, items + 1) for polarity in ("pos", "neg")]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def paired_set() -> list[tuple[int, int]]:
    """Every reply as a factual reply twice, with the next reply and with one half the set away as the
    counterfactual one (wrapping round): every reply is read on both sides, against supports and refutations."""
    size = len(CASES)
    return [(n, (n + step) % size) for step in (1, size // 2) for n in range(size)]


def answer(probes: list[Probe], pairs: list[tuple[int, int]]) -> list[Response]:
    """Each probe answered with its case's reply; item numbers start at 1."""
    responses = []
    for probe in probes:
        fact, counter = pairs[int(probe.knowledge_point.rsplit("/", 1)[1]) - 1]
        reply = CASES[fact if probe.variant == "factual" else counter][0]
        responses.append(Response(probe_id=probe.id, sample=0, text=reply))
    return responses


def test_reference_mode_reproduces_the_authors_scores_pair_by_pair(tmp_path: Path) -> None:
    pairs = paired_set()
    probes = METHOD.build(BuildOptions(data=str(release(tmp_path, len(pairs))), seed=0, repeats=1)).probes
    result = score_sdak(probes, answer(probes, pairs), ScoreOptions(reference_compatible=True))
    expected = {}
    for n, (fact, counter) in enumerate(pairs, start=1):
        s1, r1, s2, r2 = CASES[fact][1], CASES[fact][2], CASES[counter][1], CASES[counter][2]
        expected[f"disease_symptom/{n}"] = ((s1 or r1) and (s2 or r2), s1 and r2)
    got = {item.knowledge_point: (item.meta["followed"], item.score == 1.0) for item in result.items}
    assert got == expected
    m = result.metrics
    assert m["ifr"]["mean"] == pytest.approx(sum(f for f, _ in expected.values()) / len(pairs))
    assert m["fact_acc"]["mean"] == pytest.approx(sum(c for _, c in expected.values()) / len(pairs))
    # the strict reader scores the same replies otherwise, and the comparison says so
    strict = score_sdak(probes, answer(probes, pairs), ScoreOptions())
    readers = m["readers"]
    assert readers["reference"] == {"ifr": m["ifr"]["mean"], "fact_acc": m["fact_acc"]["mean"]}
    assert readers["strict"] == {"ifr": strict.metrics["ifr"]["mean"], "fact_acc": strict.metrics["fact_acc"]["mean"]}
    assert readers["strict"] != readers["reference"]
    assert strict.metrics["readers"]["strict"] == readers["strict"], "either mode reports both readings"
    read = sum(s or r for _, s, r, _ in CASES)  # each reply is a factual reply twice
    assert result.reading["factual claims"] == {"reference": 2 * read, "unparsed": 2 * (len(CASES) - read)}


def test_comparison_counts_verdict_pairs_and_rules(tmp_path: Path) -> None:
    pairs = [(CASES.index(next(c for c in CASES if c[0] == reply)), CASES.index(next(c for c in CASES if c[0] == other)))
             for reply, other in (("**错误**", "错误。"), ("不完全正确。", "我不是医生，无法判断。"))]
    probes = METHOD.build(BuildOptions(data=str(release(tmp_path, 2)), seed=0, repeats=1)).probes
    readers = score_sdak(probes, answer(probes, pairs), ScoreOptions()).metrics["readers"]
    # factual: "**错误**" strict incorrect / authors none; "不完全正确。" strict incorrect / authors correct
    assert readers["verdict_pairs"]["factual claims"] == {"incorrect / none": 1, "incorrect / correct": 1}
    # counterfactual: "错误。" both incorrect; "我不是医生…" strict none / authors incorrect
    assert readers["verdict_pairs"]["counterfactual claims"] == {"incorrect / incorrect": 1, "none / incorrect": 1}
    assert readers["authors_rules"]["counterfactual claims"] == {'"错误" in first 3': 1, '"不是" in first 5': 1}
    assert readers["disagreements"] == 3
    listed = score_sdak(probes, answer(probes, pairs), ScoreOptions()).extra_files["reader_disagreements.jsonl"]
    assert isinstance(listed, list)
    assert [(e["half"], e["reply"], e["strict"], e["reference"], e["reference_rule"]) for e in listed] == [
        ("factual claims", "**错误**", "incorrect", "none", NO_RULE),
        ("factual claims", "不完全正确。", "incorrect", "correct", '"正确" in first 5, no "不正确"'),
        ("counterfactual claims", "我不是医生，无法判断。", "none", "incorrect", '"不是" in first 5'),
    ]
    assert listed[2]["strict_reason"] == "the reply does not begin with a verdict" and listed[2]["claim"] == "病2的常见症状不包括发热"


def test_only_the_first_sample_and_real_replies_count(tmp_path: Path) -> None:
    probes = METHOD.build(BuildOptions(data=str(release(tmp_path, 1)), seed=0, repeats=1)).probes
    fact = next(p for p in probes if p.variant == "factual")
    counter = next(p for p in probes if p.variant == "counterfactual")
    responses = [Response(probe_id=fact.id, sample=0, text="正确。"), Response(probe_id=fact.id, sample=1, text="错误。"),
                 Response(probe_id=counter.id, sample=0, text="", error="HTTP 500"),
                 Response(probe_id=counter.id, sample=1, text="错误。")]
    result = score_sdak(probes, responses, ScoreOptions(reference_compatible=True))
    assert result.items[0].parsed == [True, None]
    assert result.reading["counterfactual claims"] == {"no reply": 1}


def test_a_reference_run_reports_both_readings(tmp_path: Path) -> None:
    pairs = paired_set()[:8]
    data = release(tmp_path, len(pairs))
    probes = METHOD.build(BuildOptions(data=str(data), seed=0, repeats=1)).probes
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"probe_id": r.probe_id, "sample": 0, "text": r.text}, ensure_ascii=False) + "\n"
                               for r in answer(probes, pairs)), encoding="utf-8")
    plan = RunPlan(method="sdak", build=BuildOptions(data=str(data), seed=0, repeats=1), model=f"replay:{answers}",
                   out=tmp_path / "runs", progress=False, use_cache=False, reference_compatible=True)
    outcome = run(plan)
    report = (outcome.path / "report.md").read_text(encoding="utf-8")
    assert "## How answers were read: strict reader and the authors' rules" in report
    assert "the authors' prefix rules (reference-compatible)" in report
    assert '"正确" in first 5, no "不正确"' in report
    assert any("authors' prefix rules" in note for note in outcome.summary["notes"])
    listed = (outcome.path / "reader_disagreements.jsonl").read_text(encoding="utf-8")
    assert "    正确" in listed and "    正确" not in report, "replies paired with their claim half stay out of the report"


def test_english_replies_get_no_verdict_from_the_authors_rules(tmp_path: Path) -> None:
    probes = METHOD.build(BuildOptions(data=str(write_tiny_kb(tmp_path / "kb.jsonl")), seed=0, limit=1, repeats=1)).probes
    responses = [Response(probe_id=p.id, sample=0, text="Correct." if p.variant == "factual" else "Incorrect.") for p in probes]
    reference = score_sdak(probes, responses, ScoreOptions(reference_compatible=True))
    assert reference.metrics["ifr"]["mean"] == 0.0 and reference.metrics["readers"]["strict"] == {"ifr": 1.0, "fact_acc": 1.0}
    assert any("Chinese verdicts only" in note for note in reference.notes)
    assert not any("Chinese verdicts only" in note for note in score_sdak(probes, responses, ScoreOptions()).notes)
