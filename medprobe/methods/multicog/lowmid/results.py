"""Import results written by the reference's ``evaluate_low_mid_levels.py`` (``--format multicogeval-raw``).

Layout (REFERENCE_METHODS.md §1.3): ``results/{ds}_repeat/{TYP}/{model}_{TYP}_results.json``, JSON lines,
each the release row followed by its replies over d repeats — for SV/AE/MR the d replies to the first
question, then the d replies to the second; for MCQ the d replies. SV rows are read with the 5-field
layout for both datasets (the reference's MedQA branch expects an old 9-field layout and crashes on the
real data, §4.4 item 1). Either the ``results`` folder or one ``{ds}_repeat`` folder may be given.

Each question x repeat becomes a probe whose prompt is the question text (the demos are not in the file)
and whose reply is sample 0, so the replies are scored by medprobe's parsers like any run.

Every file should answer each item once (``medprobe.sources.result_ids``). A repeated id keeps its first
line; an id missing from a file counts as unanswered: its questions are built from the release given with
``--data`` (a dataset folder or the folder above them) and carry an error response in every repeat, so they
stay in the denominator and in the run's error count. The items a file should answer are the release's,
or without ``--data`` the ids of the model's other files of that dataset; a missing item cannot be built
without the release, so then the import stops and names the ids. Both are named in the run's notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines
from medprobe.methods.multicog.lowmid.metrics import TASKS
from medprobe.methods.multicog.lowmid.sources import classify, load_release
from medprobe.methods.multicog.lowmid.tables import (
    ITEM_FIELDS,
    VARIANTS,
    Dataset,
    Where,
    check_row,
    question_probe,
    row_questions,
)
from medprobe.records import Probe, Response
from medprobe.sources.result_ids import IdCheck, not_answerable, union

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


def _releases(spec: str | None) -> dict[str, dict[str, dict[Any, list[Any]]]]:
    """dataset -> task -> id -> row of the release given with ``--data`` (none without it)."""
    if spec is None:
        return {}
    kind = classify(spec)
    if kind not in ("release", "release-root"):
        raise MedprobeError("expected the MultiCogEval release the results answer", file=spec, field="--data",
                            hint="a dataset folder with MCQ/, SV/, AE/, MR/ each holding test.json, or the folder above such folders")
    root = Path(spec)
    folders = [root] if kind == "release" else [child for child in sorted(root.iterdir()) if (child / "MCQ" / "test.json").exists()]
    found = {}
    for folder in folders:
        dataset = load_release(folder, TASKS, limit=None, seed=0)
        found[dataset.name] = {task: {row[0]: row for row in rows} for task, rows in dataset.tables.items()}
    return found


#: one item of a result file: its row, its replies (None: not in the file, so unanswered) and its repeats
Answered = tuple[list[Any], list[str] | None, int]


def _read_file(task: str, path: Path, repeats: int | None, release: dict[Any, list[Any]] | None) -> tuple[IdCheck, list[Answered]]:
    """The id check of one result file and the first line of each id."""
    check = IdCheck(path)
    answered: list[Answered] = []
    d = repeats
    for line, entry in iter_json_lines(path):
        row = check_row(task, entry, Where(path, line=line))
        replies, d = _replies(task, entry, d, path, line)
        if release is not None and row[0] not in release:
            raise MedprobeError(f"id {row[0]!r} is not in the release given with --data", file=path, line=line, field="[0]")
        if check.first(row[0], line):
            answered.append((row, replies, d))
    return check, answered


def _with_missing(check: IdCheck, answered: list[Answered], expected: list[Any], release: dict[Any, list[Any]] | None, repeats: int | None) -> list[Answered]:
    """``answered`` and, unanswered, the release rows of the expected ids the file lacks."""
    absent = check.missing(expected)
    if not absent:
        return answered
    if release is None:
        raise not_answerable(check, absent, "the MultiCogEval release folder, e.g. …/multicogeval")
    d = max((d for _, _, d in answered), default=repeats or 1)
    return answered + [(release[item], None, d) for item in absent]


def import_raw(folder: Path, model: str | None, repeats: int | None, *, release: str | None = None) -> tuple[list[Probe], list[Response], dict[str, Any]]:
    """Probes, responses and provenance from a reference result folder (``repeats`` None: inferred from
    the first line of each file, and every line must agree; ``release``: the release the results answer,
    whose rows stand in for items a file lacks)."""
    folders = _dataset_folders(folder)
    model = _pick_model(folder, _models(folders), model)
    releases = _releases(release)
    probes: list[Probe] = []
    responses: list[Response] = []
    info: dict[str, Any] = {"format": "multicogeval-raw", "source": str(folder), "model": model, "release": release,
                            "datasets": {}, "missing": [], "id_checks": [], "notes": []}
    seen_repeats: set[int] = set()
    for name, ds_folder in folders:
        rows_of = releases.get(name)
        if releases and rows_of is None:
            raise MedprobeError(f"the release given with --data has no dataset '{name}'", file=release, field="--data",
                                hint="it has: " + ", ".join(releases))
        read: dict[str, tuple[IdCheck, list[Answered]]] = {}
        for task in TASKS:
            path = ds_folder / task / f"{model}_{task}{SUFFIX}"
            if path.exists():
                read[task] = _read_file(task, path, repeats, rows_of[task] if rows_of else None)
            else:
                info["missing"].append(f"{name}/{task}")
        everyone = union(check for check, _ in read.values())
        lines: dict[str, list[Answered]] = {}
        for task, (check, answered) in read.items():
            expected = list(rows_of[task]) if rows_of else everyone
            lines[task] = _with_missing(check, answered, expected, rows_of[task] if rows_of else None, repeats)
            info["id_checks"].append(check.record(expected))
            info["notes"] += [note] if (note := check.note(expected)) else []
        dataset = Dataset(name, "multicogeval-raw", str(ds_folder), tables={task: [row for row, _, _ in rows] for task, rows in lines.items()})
        n_options = dataset.n_options
        for task, rows in lines.items():
            for row, replies, d in rows:
                seen_repeats.add(d)
                for i, q in enumerate(row_questions(task, row, name, "en")):
                    for repeat in range(d):
                        probe = question_probe(q, q.text, repeat, n_options, 0)
                        probes.append(probe)
                        responses.append(_response(probe.id, replies, i * d + repeat, read[task][0].path, row[0]))
        info["datasets"][name] = {"n_options": n_options, "items": {task: len(rows) for task, rows in dataset.tables.items()}}
    if not probes:
        raise MedprobeError(f"no result files of model '{model}'", file=folder, field="--responses")
    info["repeats"] = sorted(seen_repeats)
    return probes, responses, info


def _response(probe_id: str, replies: list[str] | None, index: int, path: Path, item: Any) -> Response:
    """The reply of one question in one repeat, or an error response for an item the file lacks."""
    if replies is None:
        return Response(probe_id=probe_id, error=f"item {item} is not in {path}")
    return Response(probe_id=probe_id, text=replies[index])
