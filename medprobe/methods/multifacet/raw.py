"""Import results written by the original MultifacetEval scripts (``--format multifaceteval-raw``).

Layout (REFERENCE_METHODS §1.3): ``{MCQ,RQ,MAQ,TFQ}/<model>_<TYPE>_results.json`` (answer-only)
or ``…_results_cot.json`` (CoT+SC), JSON lines, each line the test item followed by the model's
raw reply for each of the item's questions in order (MCQ 1, RQ 2, MAQ 2, TFQ 4); in CoT files
each reply is a list of sampled chains. The replies are scored by medprobe's own parsers, so the
numbers are comparable with a medprobe run on the same data.
"""

from __future__ import annotations

from pathlib import Path

from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines
from medprobe.methods import BuildOptions, ProbeSet
from medprobe.methods.multifacet.questions import TASKS, question_probe
from medprobe.methods.multifacet.release import ITEM_FIELDS, entry_questions
from medprobe.records import GenerationParams, Probe, Response


def _suffix(cot: bool) -> str:
    return "_results_cot.json" if cot else "_results.json"


def models_in(folder: Path, cot: bool) -> list[str]:
    names = set()
    for task in TASKS:
        for path in (folder / task).glob(f"*_{task}{_suffix(cot)}"):
            names.add(path.name[: -len(f"_{task}{_suffix(cot)}")])
    return sorted(names)


def import_raw(folder: Path, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
    cot = options.setting == "cot-sc"
    if not folder.is_dir():
        raise MedprobeError("expected a folder with MCQ/, RQ/, MAQ/, TFQ/ result files", file=folder, field="--responses")
    names = models_in(folder, cot)
    if not names:
        raise MedprobeError(
            f"no *_<TYPE>{_suffix(cot)} files under {{MCQ,RQ,MAQ,TFQ}}/", file=folder,
            hint="for chain-of-thought results add --setting cot-sc" if not cot else None,
        )
    name = options.name
    if name is None:
        if len(names) > 1:
            raise MedprobeError(f"the folder holds results of {len(names)} models", file=folder, hint="pick one with --name: " + ", ".join(names))
        name = names[0]
    elif name not in names:
        raise MedprobeError(f"no results for model '{name}'", file=folder, hint="available: " + ", ".join(names))

    probes: list[Probe] = []
    responses: list[Response] = []
    samples = 1
    missing = []
    for task in TASKS:
        path = folder / task / f"{name}_{task}{_suffix(cot)}"
        if not path.exists():
            missing.append(task)
            continue
        for line, entry in iter_json_lines(path):
            questions = entry_questions(task, entry, path, line)
            replies = entry[ITEM_FIELDS[task] :] if isinstance(entry, list) else []
            if len(replies) != len(questions):
                raise MedprobeError(
                    f"expected {len(questions)} replies after the {task} item, found {len(replies)}", file=path, line=line
                )
            for question, reply in zip(questions, replies, strict=True):
                chains = reply if cot else [reply]
                if not isinstance(chains, list) or not all(isinstance(c, str) for c in chains):
                    raise MedprobeError("a reply must be a string (a list of strings in CoT files)", file=path, line=line)
                samples = max(samples, len(chains))
                probes.append(question_probe(question, question.text, "en"))
                responses += [Response(probe_id=question.probe_id, sample=k, text=c) for k, c in enumerate(chains)]
    info = {"source": str(folder), "model": name, "format": "multifaceteval-raw", "missing_tasks": missing}
    return ProbeSet(probes, GenerationParams(), samples, "cot-sc" if cot else "ao", info), responses
