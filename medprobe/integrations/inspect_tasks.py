"""inspect_ai tasks: ``inspect eval medprobe/multifacet -T data=builtin:en -T limit=50 --model openai/…``.

Registered through inspect's ``inspect_ai`` entry point (pyproject.toml). Each sample is one probe,
asked as ``medprobe run --prompt-style chat`` asks it (the probe's system message, then its prompt)
with the method's decoding. The scorer reads each reply with the method's strict reader and keeps the
rule family that read it; the task's metric is the method's own scoring over all samples (p(M) and
normalized accuracy need every probe of a knowledge point), so its numbers are ``medprobe run``'s.
``medprobe score METHOD --format inspect-log LOG`` turns the log into a run directory.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState, generate

from medprobe.errors import MedprobeError
from medprobe.integrations.harness import build_harness_set, headline_numbers, read_sample, score_replies
from medprobe.models.server_family import extra_sampling
from medprobe.records import GenerationParams, Probe

#: the key of the task's metadata (and so of the log's ``eval.metadata``) that holds the harness header
HEADER_KEY = "medprobe"


def messages_of(probe: Probe) -> list[ChatMessage]:
    system: list[ChatMessage] = [ChatMessageSystem(content=probe.system)] if probe.system else []
    return [*system, ChatMessageUser(content=probe.prompt)]


def generate_config(params: GenerationParams, server_family: str) -> GenerateConfig:
    """The method's decoding; top-k and the repetition penalty go in the request body under the names
    ``server_family`` reads, as medprobe's OpenAI backend sends them."""
    return GenerateConfig(temperature=params.temperature, top_p=params.top_p, max_tokens=params.max_tokens,
                          stop_seqs=params.stop or None, extra_body=extra_sampling(server_family, params) or None)


def _target(gold: Any) -> str:
    return gold if isinstance(gold, str) else json.dumps(gold, ensure_ascii=False)


@metric
def method_metrics(scoring: dict[str, Any], total: int) -> Metric:
    """The method's headline numbers over all samples (each keeps its probe; its score, the reply).
    Only over all ``total`` probes of the task: inspect also computes metrics on the samples done so far
    (and on a run cut by its own ``--limit``), where p(M) or SDAK's paired claims would be wrong or
    undefined, so those get no numbers rather than wrong ones."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if len(scores) < total:
            return {}
        probes = [Probe.model_validate((s.sample_metadata or {})["probe"]) for s in scores]
        replies = {p.id: (s.score.metadata or {})["reply"] for p, s in zip(probes, scores, strict=True)}
        return headline_numbers(scoring["method"], score_replies(scoring, probes, replies).metrics)

    return compute


@scorer(metrics=[])
def medprobe_reader(scoring: dict[str, Any]) -> Scorer:
    """Reads one reply with the method's strict reader: 1 when the answer read is right."""

    async def score(state: TaskState, target: Target) -> Score:
        if state.epoch > 1:  # inspect would average the epochs' scores and keep one epoch's reply for the metrics
            raise MedprobeError("medprobe tasks ask each probe once", field="--epochs",
                                hint="leave --epochs out; multicog_lowmid and sdak take -T repeats=N")
        probe = Probe.model_validate(state.metadata["probe"])
        reply = None if state.output.error else state.output.completion
        read = read_sample(scoring, probe, reply)
        return Score(value=read.value, answer=read.answer, explanation=read.reason or None, metadata={"rule": read.rule, "reply": reply})

    return score


def medprobe_task(name: str, data: str | None, limit: int | None, seed: int, setting: str | None, repeats: int | None,
                  include_unmeasured: bool, server_family: str) -> Task:
    built = build_harness_set(name, data=data, limit=limit, seed=seed, setting=setting, repeats=repeats,
                              include_unmeasured=include_unmeasured)
    samples = [Sample(id=p.id, input=messages_of(p), target=_target(p.gold), metadata={"probe": p.model_dump(mode="json")})
               for p in built.probe_set.probes]
    return Task(
        dataset=MemoryDataset(samples, name=f"medprobe_{name}"),
        solver=generate(),
        scorer=medprobe_reader(built.header["scoring"]),
        metrics=[method_metrics(built.header["scoring"], len(built.probe_set.probes))],
        config=generate_config(built.probe_set.generation, server_family),
        metadata={HEADER_KEY: built.header},
    )


@task
def multifacet(data: str | None = None, limit: int | None = None, seed: int = 0, setting: str | None = None,
               include_unmeasured: bool = False, server_family: str = "vllm") -> Task:
    """MultifacetEval: facet accuracies, their average and p(M)."""
    return medprobe_task("multifacet", data, limit, seed, setting, None, include_unmeasured, server_family)


@task
def multicog_lowmid(data: str | None = None, limit: int | None = None, seed: int = 0, repeats: int | None = None,
                    include_unmeasured: bool = False, server_family: str = "vllm") -> Task:
    """MultiCogEval's low and mid levels: normalized accuracy per task and level."""
    return medprobe_task("multicog_lowmid", data, limit, seed, None, repeats, include_unmeasured, server_family)


@task
def sdak(data: str | None = None, limit: int | None = None, seed: int = 0, setting: str | None = None, repeats: int | None = None,
         include_unmeasured: bool = False, server_family: str = "vllm") -> Task:
    """SDAK: IFR and FactAcc."""
    return medprobe_task("sdak", data, limit, seed, setting, repeats, include_unmeasured, server_family)


@task
def meddisk(data: str | None = None, limit: int | None = None, seed: int = 0, setting: str | None = None,
            include_unmeasured: bool = False, server_family: str = "vllm") -> Task:
    """MedDisKEval: tier shares (CW / PC / BC), total score and level."""
    return medprobe_task("meddisk", data, limit, seed, setting, None, include_unmeasured, server_family)
