"""Import results written by the original MultifacetEval scripts (``--format multifaceteval-raw``).

Layout (REFERENCE_METHODS §1.3): ``{MCQ,RQ,MAQ,TFQ}/<model>_<TYPE>_results.json`` (answer-only)
or ``…_results_cot.json`` (CoT+SC), JSON lines, each line the test item followed by the model's
raw reply for each of the item's questions in order (MCQ 1, RQ 2, MAQ 2, TFQ 4); in CoT files
each reply is a list of sampled chains. The replies are scored by medprobe's own parsers, so the
numbers are comparable with a medprobe run on the same data.

Every file should answer each test item once (``medprobe.sources.result_ids``). A repeated id keeps
its first line; an id missing from a file counts as unanswered — its questions are built from the
release given with ``--data`` and carry an error response, so they stay in the denominator and in
the run's error count. The items a file should answer are the release's, or without ``--data`` the
ids of the model's other result files; a missing item cannot be built without the release, so then
the import stops and says which ids are missing. Both are named in the run's notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medprobe.contract import BuildOptions, ProbeSet
from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines, read_json
from medprobe.methods.multifacet.questions import TASKS, question_probe
from medprobe.methods.multifacet.release import ITEM_FIELDS, entry_questions
from medprobe.records import GenerationParams, Probe, Response
from medprobe.sources.result_ids import IdCheck, not_answerable, union


def _suffix(cot: bool) -> str:
    return "_results_cot.json" if cot else "_results.json"


def models_in(folder: Path, cot: bool) -> list[str]:
    names = set()
    for task in TASKS:
        for path in (folder / task).glob(f"*_{task}{_suffix(cot)}"):
            names.add(path.name[: -len(f"_{task}{_suffix(cot)}")])
    return sorted(names)


#: task -> id -> (position, test item) of the release the results answer
ReleaseItems = dict[str, dict[Any, tuple[int, list[Any]]]]


def _release_items(data: str) -> ReleaseItems:
    """The test items of the release folder given with ``--data``."""
    items: ReleaseItems = {}
    for task in TASKS:
        path = Path(data) / task / "test.json"
        rows = read_json(path) if path.is_file() else None
        if not isinstance(rows, list):
            raise MedprobeError(
                "expected the MultifacetEval release's test file (a JSON list)", file=path, field="--data",
                hint="--data is the release folder the results answer, with MCQ/, RQ/, MAQ/, TFQ/ each holding test.json",
            )
        items[task] = {row[0]: (index, row) for index, row in enumerate(rows) if isinstance(row, list) and row}
    return items


def _unanswered(task: str, check: IdCheck, absent: list[Any], release: ReleaseItems | None, data: str | None, samples: int) -> tuple[list[Probe], list[Response]]:
    """Probes for the items a file lacks, each with an error response per sample (unanswered)."""
    if release is None or data is None:
        raise not_answerable(check, absent, "the MultifacetEval release folder, e.g. …/multifaceteval/medqa")
    probes: list[Probe] = []
    responses: list[Response] = []
    for item in absent:
        index, row = release[task][item]
        for question in entry_questions(task, row, Path(data) / task / "test.json", index):
            probes.append(question_probe(question, question.text, "en"))
            error = f"item {item} is not in {check.path}"
            responses += [Response(probe_id=question.probe_id, sample=k, error=error) for k in range(samples)]
    return probes, responses


def _pick_name(folder: Path, names: list[str], name: str | None, cot: bool) -> str:
    if not names:
        raise MedprobeError(
            f"no *_<TYPE>{_suffix(cot)} files under {{MCQ,RQ,MAQ,TFQ}}/", file=folder,
            hint="for chain-of-thought results add --setting cot-sc" if not cot else None,
        )
    if name is None:
        if len(names) > 1:
            raise MedprobeError(f"the folder holds results of {len(names)} models", file=folder, hint="pick one with --name: " + ", ".join(names))
        return names[0]
    if name not in names:
        raise MedprobeError(f"no results for model '{name}'", file=folder, hint="available: " + ", ".join(names))
    return name


def _chains(reply: Any, cot: bool, path: Path, line: int) -> list[str]:
    chains = reply if cot else [reply]
    if not isinstance(chains, list) or not all(isinstance(c, str) for c in chains):
        raise MedprobeError("a reply must be a string (a list of strings in CoT files)", file=path, line=line)
    return chains


def import_raw(folder: Path, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
    cot = options.setting == "cot-sc"
    if not folder.is_dir():
        raise MedprobeError("expected a folder with MCQ/, RQ/, MAQ/, TFQ/ result files", file=folder, field="--responses")
    name = _pick_name(folder, models_in(folder, cot), options.name, cot)
    release = _release_items(options.data) if options.data else None

    probes: list[Probe] = []
    responses: list[Response] = []
    samples = 1
    missing = []
    checks: dict[str, IdCheck] = {}
    for task in TASKS:
        path = folder / task / f"{name}_{task}{_suffix(cot)}"
        if not path.exists():
            missing.append(task)
            continue
        check = checks[task] = IdCheck(path)
        for line, entry in iter_json_lines(path):
            questions = entry_questions(task, entry, path, line)
            replies = entry[ITEM_FIELDS[task] :] if isinstance(entry, list) else []
            if len(replies) != len(questions):
                raise MedprobeError(
                    f"expected {len(questions)} replies after the {task} item, found {len(replies)}", file=path, line=line
                )
            if release is not None and entry[0] not in release[task]:
                raise MedprobeError(f"id {entry[0]} is not in the release at {options.data}", file=path, line=line, field="[0]")
            if not check.first(entry[0], line):
                continue
            for question, reply in zip(questions, replies, strict=True):
                chains = _chains(reply, cot, path, line)
                samples = max(samples, len(chains))
                probes.append(question_probe(question, question.text, "en"))
                responses += [Response(probe_id=question.probe_id, sample=k, text=c) for k, c in enumerate(chains)]
    expected = {task: list(release[task]) if release is not None else union(checks.values()) for task in checks}
    for task, check in checks.items():
        absent = check.missing(expected[task])
        if absent:
            more_probes, more_responses = _unanswered(task, check, absent, release, options.data, samples)
            probes += more_probes
            responses += more_responses
    notes = [note for task, check in checks.items() if (note := check.note(expected[task]))]
    info = {
        "source": str(folder), "model": name, "format": "multifaceteval-raw", "missing_tasks": missing,
        "release": options.data, "id_checks": [check.record(expected[task]) for task, check in checks.items()], "notes": notes,
    }
    return ProbeSet(probes, GenerationParams(), samples, "cot-sc" if cot else "ao", info), responses

