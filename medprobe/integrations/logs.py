"""A harness's results back into medprobe (``medprobe score METHOD --format inspect-log|lm-eval-samples``):
the probes, the header and the replies that travelled with the samples become a probe set and its
responses, which the engine scores into a normal run directory (reports, leaderboard, profile)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from medprobe.contract import ProbeSet
from medprobe.errors import MedprobeError
from medprobe.integrations.harness import probe_set_of, responses_of
from medprobe.jsonl import read_text
from medprobe.records import Probe, Response

INSPECT_LOG = "inspect-log"
LM_EVAL_SAMPLES = "lm-eval-samples"


def read_harness_results(fmt: str, path: Path, method: str) -> tuple[ProbeSet, list[Response], str, dict[str, Any]]:
    """Probe set, responses, the model's name and the build options (data, limit, seed: a run's
    config records them, and the seed decides random tie breaks) from an inspect log or lm-eval's
    ``--log_samples`` file."""
    if not path.is_file():
        raise MedprobeError("no such file", file=path, field="--responses")
    header, probes, replies, model = _inspect_log(path) if fmt == INSPECT_LOG else _lm_eval_samples(path)
    if header["scoring"]["method"] != method:
        raise MedprobeError(f"these are {header['scoring']['method']} results, not {method}", file=path,
                            hint=f"medprobe score {header['scoring']['method']} --format {fmt} …")
    if len({p.id for p in probes}) != len(probes):
        raise MedprobeError("a probe appears twice (an inspect --epochs run, or lm-eval repeats?)", file=path,
                            hint="medprobe scores each probe once: run the harness with one epoch / repeat")
    if len(probes) != header["probes"]:
        raise MedprobeError(f"the file holds {len(probes)} of the task's {header['probes']} probes (a harness --limit?)", file=path,
                            hint="the method's metrics need every probe of a knowledge point: run the whole task "
                                 "(make it smaller with -T limit=N / medprobe export --limit N)")
    return probe_set_of(header, probes), responses_of(probes, replies), model, dict(header["build"])


def _inspect_log(path: Path) -> tuple[Mapping[str, Any], list[Probe], dict[str, str | None], str]:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise MedprobeError("reading an inspect log needs inspect_ai", hint="pip install 'medprobe[inspect]'") from None
    from medprobe.integrations.inspect_tasks import HEADER_KEY

    log = read_eval_log(str(path))
    header = (log.eval.metadata or {}).get(HEADER_KEY)
    if header is None:
        raise MedprobeError("not a log of a medprobe task (no medprobe header in its metadata)", file=path)
    probes, replies = [], {}
    for sample in log.samples or []:
        probe = Probe.model_validate(sample.metadata["probe"])
        probes.append(probe)
        replies[probe.id] = None if sample.error is not None or sample.output is None else sample.output.completion
    return header, probes, replies, log.eval.model


def _lm_eval_samples(path: Path) -> tuple[Mapping[str, Any], list[Probe], dict[str, str | None], str]:
    """lm-eval writes one JSON line per document: ``doc`` (our row: probe and header), ``resps`` (the
    replies as generated) and ``filtered_resps``; the task folder keeps the replies unfiltered."""
    header: Mapping[str, Any] | None = None
    probes, replies = [], {}
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            doc = row["doc"]
            probe = Probe.model_validate_json(doc["probe"])
            header = header or json.loads(doc["header"])
            reply = row["filtered_resps"][0]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise MedprobeError(f"not a sample of a medprobe lm-eval task: {exc}", file=path, line=number) from None
        probes.append(probe)
        replies[probe.id] = reply if isinstance(reply, str) else None
    if header is None:
        raise MedprobeError("no samples in the file", file=path)
    model = path.parent.name or "lm-eval"
    return header, probes, replies, model
