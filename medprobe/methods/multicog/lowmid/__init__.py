"""MultiCogEval low level (MCQ) and mid level (SV statement validation, AE answer existence, MR
multi-step rectification): probes from any source, scores, and import of the reference's result files.

Prompts follow the reference (REFERENCE_METHODS.md §2.1): five solved examples "<question>\\nAnswer: <answer>\\n\\n"
followed by "<question>\\nAnswer:" (no trailing space, no instruction). For every question and every repeat
five demos are drawn afresh from the same dataset and task — never the tested item itself, which is
excluded by id (the reference excludes a list position, so for MedQA, whose ids start at 5, it could pick
the item itself, §4.4 item 3). Two-question tasks mix polarities as the reference does: a 3/2 or 2/3 split
of first (true / gold present / Alice right) and second questions in random order; MCQ has one question.
Repeats therefore differ only in their demos, which with greedy decoding is the paper's "five runs".

Each draw has its own RNG, ``item_rng(seed, "demos", dataset, task, item, question, repeat)``, so a build
is a pure function of its inputs and no question's demos depend on another's (the reference threads one
``random.seed(0)`` stream through every draw, so its demos change when anything before them changes).

Length guard (optional in the reference's sense): the reference rebuilds a prompt with one demo fewer
(re-drawn) while it has 2048 tokens or more (vLLM's ``max_model_len``). Without the model's tokenizer,
tokens are approximated as characters / 4; ``max_prompt_tokens=None`` turns the guard off.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, gate_records
from medprobe.methods.multicog.lowmid.metrics import LEVEL_OF, TASKS
from medprobe.methods.multicog.lowmid.results import import_raw
from medprobe.methods.multicog.lowmid.score import score_lowmid
from medprobe.methods.multicog.lowmid.sources import N_DEMOS, load_datasets
from medprobe.methods.multicog.lowmid.tables import (
    Dataset,
    Question,
    answer_label,
    answer_text,
    question_probe,
    row_questions,
)
from medprobe.records import UNBUILT_KEY, Probe
from medprobe.seeding import item_rng

__all__ = ["build_lowmid", "score_lowmid", "import_raw"]

MAX_PROMPT_TOKENS = 2048
CHARS_PER_TOKEN = 4
#: polarity vectors the reference draws from before shuffling (0 = a row's first question)
POLARITIES = ([0, 0, 0, 1, 1], [1, 1, 1, 0, 0])


def approx_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def _demo(q: Question) -> str:
    return f"{q.text}\n{answer_label(q.fmt.language)} {answer_text(q)}\n\n"


def draw_demos(rng: random.Random, own: int, demos: Sequence[Sequence[str]], k: int) -> list[str]:
    """``k`` demo texts from rows other than row ``own``; ``demos[row][i]`` is question i of a row.

    Sampling k of the n-1 other positions and stepping over ``own`` keeps this O(k) (the pool can hold
    thousands of rows and there is a draw for every question and repeat)."""
    picks = [j + (j >= own) for j in rng.sample(range(len(demos) - 1), k)]
    polarity = list(rng.choice(POLARITIES))
    rng.shuffle(polarity)
    return [demos[j][polarity[n] if len(demos[j]) > 1 else 0] for n, j in enumerate(picks)]


def prompt_for(rng: random.Random, own: int, demos: Sequence[Sequence[str]], query: str, max_tokens: int | None) -> tuple[str, int]:
    """The prompt of one question in one repeat and its number of demos (fewer when the guard trims)."""
    k = min(N_DEMOS, len(demos) - 1)
    while True:
        prompt = "".join(draw_demos(rng, own, demos, k)) + query
        if max_tokens is None or k == 0 or approx_tokens(prompt) < max_tokens:
            return prompt, k
        k -= 1


def task_probes(dataset: Dataset, task: str, *, seed: int, repeats: int, max_tokens: int | None) -> list[Probe]:
    """Probes for every asked row of one task: each question x repeat, with its own demos."""
    rows = dataset.tables.get(task, [])
    questions = [row_questions(task, row, dataset.name, dataset.language) for row in rows]
    demos = [[_demo(q) for q in qs] for qs in questions]
    label = answer_label(dataset.language)
    n_options = dataset.n_options
    probes = []
    for own, qs in enumerate(questions):
        if dataset.tested is not None and rows[own][0] not in dataset.tested:
            continue
        for q in qs:
            query = f"{q.text}\n{label}"
            for repeat in range(repeats):
                rng = item_rng(seed, "demos", dataset.name, task, str(q.item), q.variant, str(repeat))
                prompt, k = prompt_for(rng, own, demos, query, max_tokens)
                probes.append(question_probe(q, prompt, repeat, n_options, k))
    return probes


def build_lowmid(
    specs: list[str],
    *,
    limit: int | None,
    seed: int,
    repeats: int = 5,
    generator: str | None = None,
    levels: Collection[str] = frozenset({"low", "mid"}),
    max_prompt_tokens: int | None = MAX_PROMPT_TOKENS,
    points: Collection[str] | None = None,
    include_unmeasured: bool = False,
) -> tuple[list[Probe], dict[str, Any]]:
    """Probes for each dataset x task x asked item x question x repeat, and provenance for config.json
    (with the gates of its knowledge bases, medprobe.gating); ``points`` asks exactly those knowledge
    points of a knowledge base (a profile's shared sample)."""
    unknown = set(levels) - {"low", "mid"}
    if unknown or not levels:
        raise MedprobeError(f"build_lowmid builds the low and mid levels, not {sorted(unknown) or 'nothing'}", field="--level")
    if repeats < 1:
        raise MedprobeError(f"repeats must be at least 1, got {repeats}", field="--repeats")
    if not specs:
        raise MedprobeError("no low/mid-level source given", field="--data")
    tasks = [task for task in TASKS if LEVEL_OF[task] in levels]
    datasets, sources = load_datasets(specs, tasks, limit=limit, seed=seed, generator=generator, points=points,
                                      include_unmeasured=include_unmeasured)
    probes: list[Probe] = []
    per_dataset: dict[str, Any] = {}
    for dataset in datasets:
        built = {task: task_probes(dataset, task, seed=seed, repeats=repeats, max_tokens=max_prompt_tokens) for task in tasks}
        probes += [p for task_list in built.values() for p in task_list]
        per_dataset[dataset.name] = _dataset_info(dataset, built)
    info = {
        "sources": sources,
        "datasets": per_dataset,
        "levels": sorted(set(levels)),
        "repeats": repeats,
        "demos": N_DEMOS,
        "max_prompt_tokens": max_prompt_tokens,
        "generator": generator,
        "notes": [note for dataset in datasets for note in dataset.notes],
    }
    gates = gate_records(d.gate for d in datasets if d.gate is not None)
    if gates:
        info[GATES_KEY] = gates
    unbuilt = [record for dataset in datasets for record in dataset.unbuilt]
    if unbuilt:
        info[UNBUILT_KEY] = unbuilt
    return probes, info


def _dataset_info(dataset: Dataset, built: dict[str, list[Probe]]) -> dict[str, Any]:
    trimmed = Counter(p.meta["demos"] for probes in built.values() for p in probes if p.meta["demos"] < N_DEMOS)
    return {
        "kind": dataset.kind,
        "source": dataset.source,
        "language": dataset.language,
        "n_options": dataset.n_options,
        "items": {task: len(rows) for task, rows in dataset.tables.items()},
        "asked_items": {task: len({p.knowledge_point for p in probes}) for task, probes in built.items() if probes},
        "probes": {task: len(probes) for task, probes in built.items() if probes},
        "prompts_with_fewer_demos": {str(k): n for k, n in sorted(trimmed.items())},
        **({"kb": dataset.gate.origin.name} if dataset.gate is not None else {}),
        **dataset.info,
    }
