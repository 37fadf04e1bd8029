"""``medprobe answer PACK --model ID -o answers.jsonl``: answer a downloaded probe pack with any backend.

A pack holds no gold and no knowledge points, so it cannot be a run of a method; it is a list of
prompts with their answer formats. Each probe x sample goes through the engine's runner as a run's
requests do (response cache, concurrency, progress, the backend's retries), built the way a run
builds them (chat turns or plain text), with the benchmark's decoding parameters that the pack
carries. Each answer is appended to the output at once, in the upload format
(``{"probe_id", "sample", "text"}``); run again, the command asks only what the file lacks, so an
interrupted run resumes and failed requests are tried again. The file is then ready for the upload
form or ``medprobe submit``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

from medprobe.engine.cache import ResponseCache
from medprobe.engine.pipeline import PromptStyle, RequestsFor
from medprobe.engine.runner import RunStats, execute
from medprobe.errors import MedprobeError
from medprobe.jsonl import JsonlAppender, read_text
from medprobe.models import make_backend
from medprobe.records import AnswerFormat, GenerationParams, Probe, Response, request_id


@dataclass
class Pack:
    probes: list[Probe]
    samples: int
    #: the benchmark's decoding parameters; None in a pack published before packs carried them
    generation: GenerationParams | None


def read_pack(path: Path) -> Pack:
    """A pack.jsonl as probes (id: the public id; no gold), with its samples per probe and decoding."""
    if path.suffix.lower() == ".csv":
        raise MedprobeError("medprobe answer reads the JSONL pack", field="PACK", hint="download pack.jsonl from the benchmark's page")
    probes, samples, generations = [], set(), set()
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            probes.append(Probe(id=row["id"], method="pack", knowledge_point=row["id"], facet=row["facet"], language=row["language"],
                                system=row["system"], prompt=row["prompt"], answer_format=AnswerFormat.model_validate(row["answer_format"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise MedprobeError(f"line {number} of {path.name} is not a probe-pack row ({type(exc).__name__}: {str(exc)[:120]})",
                                field="PACK", hint="give the pack.jsonl downloaded from a benchmark's page") from None
        samples.add(row["samples"])
        generations.add(json.dumps(row.get("generation"), sort_keys=True))
    if not probes or len(samples) != 1 or len(generations) != 1:
        raise MedprobeError(f"{path.name} is empty or mixes packs (samples or decoding differ between rows)", field="PACK")
    generation = json.loads(generations.pop())
    return Pack(probes, samples.pop(), GenerationParams.model_validate(generation) if generation else None)


def _answered(out: Path) -> set[str]:
    """Request ids the output file answers already (a torn last line is dropped by the appender)."""
    if not out.exists():
        return set()
    done = set()
    for line in read_text(out).splitlines():
        try:
            row = json.loads(line)
            done.add(request_id(row["probe_id"], int(row.get("sample", 0))))
        except (ValueError, KeyError, TypeError):
            continue
    return done


def answer_pack(pack_path: Path, model: str, out: Path, *, model_options: dict[str, str] | None = None, style: PromptStyle = "chat",
                seed: int = 0, use_cache: bool = True, progress: bool = True) -> RunStats:
    """Answer every probe x sample of the pack the output file does not answer yet; the runner's counts."""
    pack = read_pack(pack_path)
    if pack.generation is None:
        raise MedprobeError(f"{pack_path.name} does not carry the benchmark's decoding parameters (a pack from before they were added)",
                            field="PACK", hint="download the pack again from the benchmark's page")
    backend = make_backend(model, model_options, seed=seed, prompt_style=style)
    cache = ResponseCache() if use_cache else None
    out.parent.mkdir(parents=True, exist_ok=True)
    done = _answered(out)

    async def go(appender: JsonlAppender) -> RunStats:
        def sink(response: Response) -> None:
            if response.error is None:
                appender.write({"probe_id": response.probe_id, "sample": response.sample, "text": response.text})

        try:
            return await execute(backend, RequestsFor(pack.probes, pack.generation, pack.samples, style, seed), sink,
                                 done=done, cache=cache, progress=progress)
        finally:
            await backend.aclose()

    try:
        with JsonlAppender(out) as appender:
            return asyncio.run(go(appender))
    finally:
        if cache is not None:
            cache.close()
