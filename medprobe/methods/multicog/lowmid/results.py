"""Import results written by the reference's ``evaluate_low_mid_levels.py`` (``--format multicogeval-raw``).

Layout (REFERENCE_METHODS.md §1.3): ``results/{ds}_repeat/{TYP}/{model}_{TYP}_results.json``, JSON lines,
each the release row followed by its replies over d repeats — for SV/AE/MR the d replies to the first
question, then the d replies to the second; for MCQ the d replies. SV rows are read with the 5-field
layout for both datasets (the reference's MedQA branch expects an old 9-field layout and crashes on the
real data, §4.4 item 1). Either the ``results`` folder or one ``{ds}_repeat`` folder may be given.

Each question x repeat becomes a probe whose prompt is the question text (the demos are not in the file)
and whose reply is sample 0, so the replies are scored by medprobe's parsers like any run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines
from medprobe.methods.multicog.lowmid.tables import (
    ITEM_FIELDS,
    VARIANTS,
    Dataset,
    Where,
    check_row,
    question_probe,
    row_questions,
)
from medprobe.metrics.multicog import TASKS
from medprobe.records import Probe, Response

SUFFIX = "_results.json"


def _dataset_folders(folder: Path) -> list[tuple[str, Path]]:
    """(dataset name, folder) for a ``{ds}_repeat`` folder or a ``results`` folder holding several."""
    if not folder.is_dir():
        raise MedprobeError("expected a results folder", file=folder, field="--responses")
    if folder.name.endswith("_repeat") or any((folder / task).is_dir() for task in TASKS):
        return [(folder.name.removesuffix("_repeat"), folder)]
    found = [(child.name.removesuffix("_repeat"), child) for child in sorted(folder.iterdir()) if child.is_dir() and child.name.endswith("_repeat")]
    if not found:
        raise MedprobeError(
            "no {dataset}_repeat folders here", file=folder, field="--responses",
            hint="give the reference's results/ folder or one results/{dataset}_repeat/ folder",
        )
    return found


def _models(folders: list[tuple[str, Path]]) -> list[str]:
    names = set()
    for _, folder in folders:
        for task in TASKS:
            names |= {path.name[: -len(f"_{task}{SUFFIX}")] for path in (folder / task).glob(f"*_{task}{SUFFIX}")}
    return sorted(names)


def _pick_model(folder: Path, names: list[str], model: str | None) -> str:
    if not names:
        raise MedprobeError(f"no {{TYP}}/<model>_{{TYP}}{SUFFIX} files", file=folder, field="--responses")
    if model is None:
        if len(names) > 1:
            raise MedprobeError(f"the folder holds results of {len(names)} models", file=folder, field="--name", hint="pick one with --name: " + ", ".join(names))
        return names[0]
    if model not in names:
        raise MedprobeError(f"no results for model '{model}'", file=folder, field="--name", hint="available: " + ", ".join(names))
    return model


def _replies(task: str, entry: list[Any], repeats: int | None, path: Path, line: int) -> tuple[list[str], int]:
    """The replies after a row and the repeats they cover (inferred when ``repeats`` is None)."""
    replies = entry[ITEM_FIELDS[task] :]
    questions = len(VARIANTS[task])
    d = repeats if repeats is not None else len(replies) // questions
    if d < 1 or len(replies) != questions * d:
        expected = f"{questions} x {repeats}" if repeats is not None else f"a positive multiple of {questions}"
        raise MedprobeError(f"expected {expected} replies after the {task} row, found {len(replies)}", file=path, line=line)
    if not all(isinstance(reply, str) for reply in replies):
        raise MedprobeError("every reply must be a string", file=path, line=line)
    return replies, d


def import_raw(folder: Path, model: str | None, repeats: int | None) -> tuple[list[Probe], list[Response], dict[str, Any]]:
    """Probes, responses and provenance from a reference result folder (``repeats`` None: inferred from
    the first line of each file, and every line must agree)."""
    folders = _dataset_folders(folder)
    model = _pick_model(folder, _models(folders), model)
    probes: list[Probe] = []
    responses: list[Response] = []
    info: dict[str, Any] = {"format": "multicogeval-raw", "source": str(folder), "model": model, "datasets": {}, "missing": []}
    seen_repeats: set[int] = set()
    for name, ds_folder in folders:
        dataset = Dataset(name, "multicogeval-raw", str(ds_folder))
        answered: list[tuple[str, list[Any], list[str], int]] = []
        for task in TASKS:
            path = ds_folder / task / f"{model}_{task}{SUFFIX}"
            if not path.exists():
                info["missing"].append(f"{name}/{task}")
                continue
            d = repeats
            for line, entry in iter_json_lines(path):
                row = check_row(task, entry, Where(path, line=line))
                replies, d = _replies(task, entry, d, path, line)
                dataset.tables.setdefault(task, []).append(row)
                answered.append((task, row, replies, d))
                seen_repeats.add(d)
        n_options = dataset.n_options
        for task, row, replies, d in answered:
            for i, q in enumerate(row_questions(task, row, name, "en")):
                for repeat in range(d):
                    probe = question_probe(q, q.text, repeat, n_options, 0)
                    probes.append(probe)
                    responses.append(Response(probe_id=probe.id, text=replies[i * d + repeat]))
        info["datasets"][name] = {"n_options": n_options, "items": {task: len(rows) for task, rows in dataset.tables.items()}}
    if not probes:
        raise MedprobeError(f"no result files of model '{model}'", file=folder, field="--responses")
    info["repeats"] = sorted(seen_repeats)
    return probes, responses, info
