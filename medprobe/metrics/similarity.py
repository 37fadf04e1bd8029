"""BLEU-1 and ROUGE-1 F1 between a model's recall and the knowledge-base value (MedDisKEval).

Both are our own Counter-based code rather than sacrebleu / rouge-score: rouge-score's default
tokenizer deletes every non-ASCII character (so all Chinese), sacrebleu scores one sentence at a
time with heavy per-call overhead, and a MedDisKEval run scores hundreds of thousands of pairs
whose references (KB values) repeat. The numbers equal those libraries' given the same tokens
(tests/test_similarity.py checks this):

- ``bleu1`` = sacrebleu ``BLEU(max_ngram_order=1, tokenize="none", effective_order=True)`` on the
  space-joined tokens, divided by 100 (with one n-gram order, smoothing never applies: zero
  overlap scores 0);
- ``rouge1_f`` = rouge-score ``RougeScorer(["rouge1"], tokenizer=...)`` fmeasure, without
  stemming (the paper does not mention stemming, and it would not apply to Chinese).

Tokenization (``tokenize``), the same for candidate and reference:

- Both languages: NFKC normalization first (full-width Ａ１ -> A1, the form Chinese text often
  carries Latin letters and digits in), then lowercase.
- English: runs of letters and digits of any script (``[^\\W_]+``: an underscore separates). On
  ASCII text this is rouge-score's default tokenizer (``[a-z0-9]+`` after lowercasing) except for
  possessives (below), and it keeps accented names ("Sjögren") whole where rouge-score cuts them
  apart. Hyphens split ("X-linked" -> "x", "linked"), so a hyphenated and a spaced spelling of a
  term agree. A possessive "'s" is dropped ("Parkinson's disease" -> "parkinson", "disease"), so it
  matches "Parkinson disease", the form ontologies use; any other apostrophe splits like
  punctuation ("don't" -> "don", "t"). Accents are not folded.
- Chinese, mode "word" (default): jieba segments (``jieba.lcut``, default dictionary and HMM);
  each segment is then cut into runs of letters and digits as in English, which drops whitespace
  and punctuation segments and splits "37.5" into "37", "5" as English does.
- Chinese, mode "char": each Han character is one token; runs of other letters and digits
  (Latin words, numbers) stay whole words, since a character of "ACEI" carries no meaning.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

import jieba
import numpy as np

from medprobe.errors import MedprobeError

LANGUAGES = ("en", "zh")
MODES = ("word", "char")

_WORD = re.compile(r"\w+")  # on text whose underscores became spaces: twice as fast as [^\W_]+
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CHAR_OR_WORD = re.compile(rf"[{_HAN}]|[^\W{_HAN}]+")

# jieba announces its dictionary build on stderr at DEBUG level; scoring output should stay clean.
jieba.setLogLevel(logging.WARNING)


def tokenize(text: str, language: str, mode: str = "word") -> list[str]:
    """The unigram tokens BLEU-1 and ROUGE-1 count (see the module docstring for the rules)."""
    _check_options(language, mode)
    text = unicodedata.normalize("NFKC", text).lower().replace("_", " ")
    if language == "en":
        return _WORD.findall(_POSSESSIVE.sub("", text))
    if mode == "char":
        return _CHAR_OR_WORD.findall(text)
    return [word for chunk in text.split() for word in _segment(chunk)]


@functools.lru_cache(maxsize=1 << 16)
def _segment(chunk: str) -> tuple[str, ...]:
    """The words of a whitespace-free chunk of Chinese text.

    Cached because answers and KB values are mostly entities joined with spaces, and entities
    ("头痛", "发热") recur everywhere; jieba is most of the scoring time. Segmenting chunk by chunk
    gives the words jieba gives for the whole text, as jieba never joins across whitespace. The
    spaces keep jieba's segment boundaries through one findall.
    """
    return tuple(_WORD.findall(" ".join(jieba.lcut(chunk))))


def bleu1(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """Clipped unigram precision times the brevity penalty, for one tokenized pair."""
    cand, ref = Counter(candidate), Counter(reference)
    return _bleu1(_overlap(cand, ref), len(candidate), len(reference))


def rouge1_f(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """F1 of unigram overlap (precision over the candidate, recall over the reference)."""
    cand, ref = Counter(candidate), Counter(reference)
    return _rouge1_f(_overlap(cand, ref), len(candidate), len(reference))


def score_pairs(
    candidates: Sequence[str], references: Sequence[str], language: str, mode: str = "word"
) -> tuple[np.ndarray, np.ndarray]:
    """BLEU-1 and ROUGE-1 F1 of each (candidate, reference) text pair, as two float arrays.

    Each distinct text is tokenized and counted once: KB references repeat across models, repeats
    and prompt variants, and tokenizing (jieba above all) costs far more than the overlap.
    """
    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} references")
    _check_options(language, mode)
    counts: dict[str, tuple[Counter[str], int]] = {}

    def counted(text: str) -> tuple[Counter[str], int]:
        entry = counts.get(text)
        if entry is None:
            tokens = tokenize(text, language, mode)
            entry = counts[text] = (Counter(tokens), len(tokens))
        return entry

    bleu = np.empty(len(candidates), dtype=np.float64)
    rouge = np.empty(len(candidates), dtype=np.float64)
    for i, (candidate, reference) in enumerate(zip(candidates, references, strict=True)):
        (cand, c), (ref, r) = counted(candidate), counted(reference)
        overlap = _overlap(cand, ref)
        bleu[i] = _bleu1(overlap, c, r)
        rouge[i] = _rouge1_f(overlap, c, r)
    return bleu, rouge


def _overlap(cand: Counter[str], ref: Counter[str]) -> int:
    """Clipped match count: each token counts at most as often as it occurs on the other side."""
    if len(cand) > len(ref):
        cand, ref = ref, cand
    get = ref.get
    return sum(min(n, get(token, 0)) for token, n in cand.items())


def _bleu1(overlap: int, c: int, r: int) -> float:
    if overlap == 0:
        return 0.0
    penalty = 1.0 if c >= r else math.exp(1.0 - r / c)
    return penalty * overlap / c


def _rouge1_f(overlap: int, c: int, r: int) -> float:
    """2PR/(P+R) with P = o/c and R = o/r simplifies to 2o/(c+r)."""
    return 2.0 * overlap / (c + r) if overlap else 0.0


def _check_options(language: str, mode: str) -> None:
    if language not in LANGUAGES:
        raise MedprobeError(
            f"unknown language '{language}' for BLEU/ROUGE tokenization", hint="use 'en' or 'zh'"
        )
    if mode not in MODES:
        raise MedprobeError(f"unknown tokenization mode '{mode}'", hint="use 'word' or 'char' (Chinese only)")
    if mode == "char" and language != "zh":
        raise MedprobeError(
            "tokenization mode 'char' applies to Chinese only",
            hint="English is always tokenized into words; use mode 'word'",
        )
