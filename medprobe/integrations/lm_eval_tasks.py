"""lm-evaluation-harness task folders: ``medprobe export lm-eval DIR --method multifacet`` writes
``medprobe_<task>.yaml``, its documents (``medprobe_<task>.jsonl``) and ``utils.py``, for
``lm_eval --include_path DIR --tasks medprobe_<task> --apply_chat_template …``.

The tasks are ``generate_until`` with our prompts (a probe's prompt is the user turn, as
``medprobe run --prompt-style chat`` sends it) and the method's decoding. ``process_results`` reads
each reply with the method's reader (the per-sample ``acc``) and passes (probe, reply) on to one
aggregation per headline number, which scores all samples together as ``medprobe run`` does: p(M) and
normalized accuracy need every probe of a knowledge point, which no per-sample mean can give.
Each document carries its probe and the harness header, so ``--log_samples`` output alone is enough
for ``medprobe score METHOD --format lm-eval-samples FILE``.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.integrations.harness import (
    LOWER_IS_BETTER,
    HarnessSet,
    headline_numbers,
    read_sample,
    score_replies,
)
from medprobe.jsonl import write_records
from medprobe.models.server_family import extra_sampling
from medprobe.records import Probe

UTILS = "utils.py"


def task_name(task: str) -> str:
    return f"medprobe_{task}"


def doc_to_text(doc: dict[str, Any]) -> str:
    return str(doc["prompt"])


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """The reader's verdict on this reply (``acc``), and (probe id, reply) for every grouped metric."""
    header = _header(doc["header"])
    probe = Probe.model_validate_json(doc["probe"])
    reply = results[0] if results else None
    item = json.dumps({"probe_id": probe.id, "reply": reply}, ensure_ascii=False)
    return {"acc": read_sample(header["scoring"], probe, reply).value, **dict.fromkeys(header["metrics"], item)}


def aggregate(documents: str, key: str, items: list[str]) -> float:
    """One headline number of the method, scored over all samples together (their probes come from
    the task's ``documents``). A number the method cannot compute on these samples (a task none of
    them asks, or only part of the task asked) is NaN, never 0."""
    if len(items) < len(_documents(documents)[1]):  # lm_eval --limit: p(M) or SDAK's pairs over part of the task
        return float("nan")
    return _numbers(documents, tuple(items)).get(key, float("nan"))


@lru_cache(maxsize=2)
def _numbers(documents: str, items: tuple[str, ...]) -> dict[str, float]:
    """All headline numbers of one task's replies, scored once for the aggregations that each want one."""
    header, probes = _documents(documents)
    rows = [json.loads(item) for item in items]
    replies = {row["probe_id"]: row["reply"] for row in rows}
    result = score_replies(header["scoring"], [probes[row["probe_id"]] for row in rows], replies)
    return headline_numbers(header["scoring"]["method"], result.metrics)


@cache
def _header(text: str) -> dict[str, Any]:
    return json.loads(text)


@cache
def _documents(path: str) -> tuple[dict[str, Any], dict[str, Probe]]:
    docs = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return _header(docs[0]["header"]), {doc["probe_id"]: Probe.model_validate_json(doc["probe"]) for doc in docs}


def export_task(built: HarnessSet, folder: Path, server_family: str = "vllm") -> Path:
    """Write one task (YAML, documents) and the shared ``utils.py`` into ``folder``; return the YAML."""
    probes = built.probe_set.probes
    with_system = [p.id for p in probes if p.system]
    if with_system:
        raise MedprobeError(f"{len(with_system)} probes have a system message (e.g. {with_system[0]})",
                            hint="lm-eval sends one user turn per document; ask these probes with medprobe run")
    method = built.header["scoring"]["method"]
    # the names of the numbers the method reports on these probes (scored on empty replies only to learn them)
    metrics = list(headline_numbers(method, score_replies(built.header["scoring"], probes, {p.id: "" for p in probes}).metrics))
    header = json.dumps({**built.header, "metrics": metrics}, ensure_ascii=False, sort_keys=True)
    name = task_name(built.task)
    folder.mkdir(parents=True, exist_ok=True)
    documents = folder / f"{name}.jsonl"
    write_records(documents, [{"probe_id": p.id, "prompt": p.prompt, "probe": p.model_dump_json(), "header": header} for p in probes])
    functions = {key: f"{built.task}_{index}" for index, key in enumerate(metrics)}
    _add_functions(folder / UTILS, documents.name, functions)
    yaml = folder / f"{name}.yaml"
    yaml.write_text(_task_yaml(name, documents.resolve(), built, functions, server_family), encoding="utf-8")
    return yaml


def _add_functions(utils: Path, documents: str, functions: dict[str, str]) -> None:
    """``utils.py`` of the folder, which lm-eval's ``!function utils.NAME`` loads: the shared functions,
    and one aggregation per headline number of each task exported (a task exported again replaces its own)."""
    head = (
        '"""Written by `medprobe export lm-eval`: the functions the task YAML files name."""\n\n'
        "from pathlib import Path\n\n"
        "from medprobe.integrations.lm_eval_tasks import aggregate, doc_to_text, process_results  # noqa: F401\n\n"
        "HERE = Path(__file__).parent\n"
    )
    kept = [block for block in _blocks(utils) if f'HERE / "{documents}"' not in block]
    ours = [f'\n\ndef {name}(items):\n    return aggregate(str(HERE / "{documents}"), {key!r}, items)\n'
            for key, name in functions.items()]
    utils.write_text(head + "".join(kept + ours), encoding="utf-8")


def _blocks(utils: Path) -> list[str]:
    """The aggregation functions an earlier export wrote, one string each."""
    if not utils.is_file():
        return []
    return ["\n\ndef " + block for block in utils.read_text(encoding="utf-8").split("\n\ndef ")[1:]]


def _task_yaml(name: str, documents: Path, built: HarnessSet, functions: dict[str, str], server_family: str) -> str:
    params = built.probe_set.generation
    generation: dict[str, Any] = {
        "until": params.stop, "do_sample": params.temperature > 0, "temperature": params.temperature,
        "top_p": params.top_p, "max_gen_toks": params.max_tokens, **extra_sampling(server_family, params),
    }
    metrics = [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}]
    metrics += [{"metric": key, "aggregation": f"!function utils.{function}", "higher_is_better": key not in LOWER_IS_BETTER}
                for key, function in functions.items()]
    lines = [
        f"# Written by `medprobe export lm-eval` ({built.header['scoring']['method']}, data {built.header['build']['data']}, "
        f"seed {built.header['build']['seed']}, {len(built.probe_set.probes)} probes).",
        f"task: {name}",
        "dataset_path: json",
        f"dataset_kwargs:\n  data_files:\n    test: {json.dumps(str(documents))}",
        "test_split: test",
        "output_type: generate_until",
        "num_fewshot: 0",
        "doc_to_text: !function utils.doc_to_text",
        'doc_to_target: ""',
        'target_delimiter: ""',
        "process_results: !function utils.process_results",
        f"generation_kwargs: {json.dumps(generation, ensure_ascii=False)}",
        "metric_list:",
        *(f"  - metric: {json.dumps(m['metric'])}\n    aggregation: {_yaml_value(m['aggregation'])}\n    higher_is_better: {str(m['higher_is_better']).lower()}"
          for m in metrics),
        "metadata:\n  version: 1",
    ]
    return "\n".join(lines) + "\n"


def _yaml_value(value: str) -> str:
    """A YAML scalar: lm-eval's ``!function`` tags as they are, other names quoted."""
    return value if value.startswith("!function ") else json.dumps(value)
