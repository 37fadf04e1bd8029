"""Where low/mid-level items come from. Every source becomes the same per-dataset tables
(``lowmid_tables``), so one builder makes the probes whatever the source was.

A source spec is classified by what it is:
  release  the MultiCogEval release: a dataset folder holding {MCQ,SV,AE,MR}/test.json
           (``…/multicogeval/medqa``), or a folder of such dataset folders (``…/multicogeval``);
  raw      raw MCQs: a MedQA or MedMCQA JSONL file, or a Hugging Face hub dataset (``hf:NAME[@SPLIT]`` or
           ``owner/name``). MCQ and MR come from the release's templates; SV statements and AE
           distractors are written by the generator model (``generate``), and without one only the
           low level is built;
  kb       a knowledge base (``builtin:en``, ``builtin:zh`` or a KB JSONL file): every task from templates.

``limit`` asks a seeded sample of items per dataset. Demos come from the rest of the dataset: the whole
release file, or — for sources that must be built item by item — five further sampled items, so that even
``limit`` 1 has five demos to draw from.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines, read_json
from medprobe.methods.multicog.lowmid.generate import generate_mid
from medprobe.methods.multicog.lowmid.kb import kb_dataset
from medprobe.methods.multicog.lowmid.metrics import TASKS
from medprobe.methods.multicog.lowmid.raw_mcq import RawMCQ, hub_rows, raw_kind, read_raw
from medprobe.methods.multicog.lowmid.tables import Dataset, Where, check_row
from medprobe.records import unbuilt_record
from medprobe.seeding import item_rng
from medprobe.sources.checks import same_ids, unique_ids

N_DEMOS = 5
AE_TAIL = (
    ". There is a 50% chance that the correct answer is not included in the options. "
    "Please determine if the correct answer is among the given options and respond with yes or no."
)
MR_TAIL = ". Alice's answer: {given}. Please determine whether her answer is correct, and if it's incorrect, provide the correct answer."
_HUB_NAME = re.compile(r"^[\w.-]+/[\w.-]+(?:@[\w.-]+)?$")


def classify(spec: str) -> str:
    """"release", "release-root", "medqa", "medmcqa", "kb" or "hub"."""
    path = Path(spec)
    if path.is_dir():
        if _is_release(path):
            return "release"
        if any(_is_release(child) for child in path.iterdir() if child.is_dir()):
            return "release-root"
        raise MedprobeError(
            "the folder holds no MultiCogEval release", file=path, field="--data",
            hint="give a dataset folder with MCQ/, SV/, AE/, MR/ each holding test.json, or the folder above such folders",
        )
    if path.is_file():
        first = next(iter_json_lines(path), (1, None))
        kind = raw_kind(first[1])
        if kind is not None:
            return kind
        if isinstance(first[1], dict) and ("aspects" in first[1] or {"id", "name", "language"} <= set(first[1])):
            return "kb"
        raise MedprobeError(
            "cannot tell what this file holds", file=path, line=first[0], field="--data",
            hint="expected MedQA JSONL (question, options, answer_idx), MedMCQA JSONL (question, choices, answer) "
            "or a knowledge base (one disease per line with aspects)",
        )
    if spec.startswith("builtin:"):
        return "kb"
    if spec.startswith("hf:") or _HUB_NAME.match(spec):
        return "hub"
    raise MedprobeError(f"no such file or folder: {spec}", field="--data")


def _is_release(folder: Path) -> bool:
    return any((folder / task / "test.json").exists() for task in TASKS)


def choose_items(ids: list[Any], limit: int | None, seed: int, name: str, *, extra: int | None) -> tuple[list[Any], set[Any] | None]:
    """(ids to build, ids to ask): a seeded sample of ``limit`` ids to ask, plus ``extra`` more (all the
    rest when None) to draw demos from; everything, asked, without a limit."""
    if limit is None or limit >= len(ids):
        return list(ids), None
    rng = item_rng(seed, "limit", name)
    tested = set(rng.sample(ids, limit))
    rest = [i for i in ids if i not in tested]
    keep = tested | set(rest if extra is None else rng.sample(rest, min(extra, len(rest))))
    return [i for i in ids if i in keep], tested


def load_release(folder: Path, tasks: Sequence[str], *, limit: int | None, seed: int) -> Dataset:
    """One release dataset; each file is checked row by row and all files must list the same ids."""
    dataset = Dataset(folder.name, "release", str(folder))
    ids: list[Any] | None = None
    for task in tasks:
        path = folder / task / "test.json"
        if not path.exists():
            raise MedprobeError("missing file of the MultiCogEval release", file=path, field="--data", hint="each of MCQ/, SV/, AE/, MR/ holds a test.json")
        items = read_json(path)
        if not isinstance(items, list):
            raise MedprobeError("expected a JSON list of items", file=path)
        rows = [check_row(task, item, Where(path, index=i)) for i, item in enumerate(items)]
        task_ids = [row[0] for row in rows]
        _check_ids(task_ids, ids, path, tasks[0])
        ids = task_ids
        dataset.tables[task] = rows
    _, dataset.tested = choose_items(ids or [], limit, seed, dataset.name, extra=None)
    return dataset


def _check_ids(ids: list[Any], expected: list[Any] | None, path: Path, first_task: str) -> None:
    unique_ids(ids, path)
    if expected is not None:
        same_ids(ids, expected, path, f"{first_task}/test.json")


def raw_tables(mcqs: list[RawMCQ], name: str, seed: int, statements: dict[int, tuple[str, str]], distractors: dict[int, str]) -> dict[str, list[list[Any]]]:
    """Release-layout tables from raw MCQs: MCQ as is; MR from the release's template with the right
    letter and a seeded wrong one; SV and AE for the items the generator wrote material for."""
    tables: dict[str, list[list[Any]]] = {task: [] for task in TASKS}
    for mcq in mcqs:
        text, gold = mcq.text, mcq.gold
        wrong = item_rng(seed, "mr-wrong", name, str(mcq.id)).choice(mcq.others())
        tables["MCQ"].append([mcq.id, text, gold])
        tables["MR"].append([mcq.id, text + MR_TAIL.format(given=gold), text + MR_TAIL.format(given=wrong), ["T", gold], ["F", gold]])
        if mcq.id in statements:
            tables["SV"].append([mcq.id, *statements[mcq.id], "T", "F"])
        if mcq.id in distractors:
            replaced = RawMCQ(mcq.id, mcq.question, {**mcq.options, gold: distractors[mcq.id]}, gold)
            tables["AE"].append([mcq.id, text + AE_TAIL, replaced.text + AE_TAIL, 1, 0])
    return {task: rows for task, rows in tables.items() if rows}


def _raw_rows(spec: str, kind: str) -> tuple[str, str, list[tuple[int, Any]]]:
    """(source name, "medqa" or "medmcqa", (line, row) pairs) of a raw-MCQ spec; a hub dataset's format
    is read from its fields."""
    if kind != "hub":
        return spec, kind, list(iter_json_lines(spec))
    source, rows = hub_rows(spec)
    found = raw_kind(rows[0][1]) if rows else None
    if found is None:
        raise MedprobeError("the hub dataset has neither MedQA nor MedMCQA fields", file=source, line=1, field="--data")
    return source, found, rows


def load_raw(spec: str, kind: str, tasks: Sequence[str], *, limit: int | None, seed: int, generator: str | None) -> Dataset:
    """A dataset of raw MCQs (``kind`` "medqa", "medmcqa" or "hub")."""
    source, fmt, rows = _raw_rows(spec, kind)
    mcqs, dropped = read_raw(rows, fmt, source)
    keep, tested = choose_items([m.id for m in mcqs], limit, seed, fmt, extra=N_DEMOS)
    kept = set(keep)
    mcqs = [m for m in mcqs if m.id in kept]
    dataset = Dataset(fmt, "hub" if kind == "hub" else f"{fmt}-jsonl", source, tested=tested)
    dataset.info = {"several_answer_items_dropped": dropped} if dropped else {}
    needs_generator = any(task in tasks for task in ("SV", "AE"))
    statements: dict[int, tuple[str, str]] = {}
    distractors: dict[int, str] = {}
    if needs_generator and generator is not None:
        generated = generate_mid(mcqs, dataset=fmt, generator=generator, seed=seed)
        statements, distractors = generated.statements, generated.distractors
        dataset.info["generation"] = generated.info
        dataset.unbuilt = _unbuilt(fmt, tasks, generated.info, len(mcqs))
    dataset.tables = raw_tables(mcqs, fmt, seed, statements, distractors)
    if needs_generator and generator is None:
        dataset.tables = {"MCQ": dataset.tables["MCQ"]}
        dataset.notes.append(f"{source}: raw MCQs and no generator model, so only the low level (MCQ) is built; name one with -X generator=MODEL")
    return dataset


def _unbuilt(source: str, tasks: Sequence[str], info: dict[str, Any], total: int) -> list[dict[str, Any]]:
    """The generated tasks with items the generator wrote no usable material for: those items are not
    asked, which the run must report rather than average over the rest."""
    records = []
    for task in ("SV", "AE"):
        if task in tasks and info["failed"][task]:
            why = {key.partition(": ")[2]: n for key, n in info["failures"].items() if key.startswith(f"{task}: ")}
            records.append(unbuilt_record(source, task, info["failed"][task], total, why))
    return records


def load_datasets(
    specs: Sequence[str], tasks: Sequence[str], *, limit: int | None, seed: int, generator: str | None, points: Collection[str] | None = None,
    include_unmeasured: bool = False,
) -> tuple[list[Dataset], list[dict[str, Any]]]:
    """Every dataset of every spec (names made unique), with what each spec was classified as;
    ``points`` (a profile's shared knowledge points) and ``include_unmeasured`` (medprobe.gating) only
    for knowledge bases."""
    datasets: list[Dataset] = []
    sources: list[dict[str, Any]] = []
    for spec in specs:
        kind = classify(spec)
        if points is not None and kind != "kb":
            raise MedprobeError(f"a profile's shared knowledge points come from a knowledge base, not {spec}", field="--data")
        if kind == "release":
            found = [load_release(Path(spec), tasks, limit=limit, seed=seed)]
        elif kind == "release-root":
            found = [load_release(child, tasks, limit=limit, seed=seed) for child in sorted(Path(spec).iterdir()) if _is_release(child)]
        elif kind == "kb":
            found = [kb_dataset(spec, limit=limit, seed=seed, extra=N_DEMOS, points=points, tasks=tasks, include_unmeasured=include_unmeasured)]
        else:
            found = [load_raw(spec, kind, tasks, limit=limit, seed=seed, generator=generator)]
        for dataset in found:
            dataset.name = _unique(dataset.name, {d.name for d in datasets})
            dataset.tables = {task: rows for task, rows in dataset.tables.items() if task in tasks}
            if generator is not None and dataset.kind in ("release", "knowledge-base"):
                dataset.notes.append(f"{spec}: the generator model is not used (the {dataset.kind} has its mid-level items already)")
            if not any(dataset.tables.values()):
                raise MedprobeError(f"no items could be built from {spec}", field="--data")
        datasets += found
        sources.append({"spec": spec, "kind": kind, "datasets": [d.name for d in found]})
    return datasets, sources


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    return candidate
