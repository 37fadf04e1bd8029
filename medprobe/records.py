"""The plain, serializable records that cross stage boundaries.

sources -> builders -> Probe -> runner -> Response -> parsers -> ItemScore -> summary.
Every record round-trips through JSON so each stage can run alone (export probes, answer them
elsewhere, import the responses, score them).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from medprobe.parsing.formats import KINDS

Language = Literal["en", "zh"]
#: the answer formats, taken from their one table (a Literal made at run time: pydantic checks it and
#: publishes it as the schema's enum)
AnswerKind = Literal[KINDS]  # type: ignore[valid-type]
Role = Literal["system", "user", "assistant"]


class Record(BaseModel):
    """Base for all records: unknown fields are errors, so typos in files are caught.

    Every record of one class shares one set of all its field names as pydantic's "fields set".
    Pydantic gives each instance its own set of the names it was given, about 700 bytes for ten
    fields; a run at 80,000 probes holds that many probes, requests and responses, and medprobe never
    asks which fields were given (no ``exclude_unset``). Assigning or updating a field adds a name
    the set already holds, so the shared set never changes.
    """

    model_config = ConfigDict(extra="forbid")

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", _all_fields(type(self)))

    def __copy__(self) -> Self:
        """A copy (``model_copy``, which then adds the updated names, all of them fields already)
        shares the set too; pydantic's own copy would give it a set of its own."""
        copied = super().__copy__()
        object.__setattr__(copied, "__pydantic_fields_set__", _all_fields(type(self)))
        return copied


@cache
def _all_fields(cls: type[Record]) -> set[str]:
    return set(cls.model_fields)


class Message(Record):
    role: Role
    content: str


class AnswerFormat(Record):
    """What shape of answer a probe expects; parsers and the random guesser read it. ``kind`` is one
    of the formats of :data:`medprobe.parsing.formats.FORMATS`, which says what each one's answer is."""

    kind: AnswerKind
    options: list[str] = Field(default_factory=list)
    option_texts: dict[str, str] = Field(default_factory=dict)
    given: str | None = None
    language: Language = "en"


class GenerationParams(Record):
    """Decoding parameters; all of them are part of the response-cache key."""

    temperature: float = 0.0
    top_p: float = 1.0
    #: keep only the k most likely tokens; None = no top-k filter (OpenAI semantics)
    top_k: int | None = None
    max_tokens: int = 64
    stop: list[str] = Field(default_factory=list)
    repetition_penalty: float | None = None


class KnowledgePoint(Record):
    """One unit of knowledge a method probes, e.g. (disease, aspect) or one MedQA item."""

    id: str
    source: str
    disease: str | None = None
    aspect: str | None = None
    values: list[str] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)


class Probe(Record):
    """One question put to a model. ``prompt`` is the full text; chat models get it as the
    user turn after ``system``, completion models get it verbatim."""

    id: str
    method: str
    knowledge_point: str
    facet: str
    variant: str = "base"
    language: Language = "en"
    system: str | None = None
    prompt: str
    gold: Any = None
    answer_format: AnswerFormat
    meta: dict[str, Any] = Field(default_factory=dict)


class Request(Record):
    """What the runner sends to a backend: one generation of one probe (``sample`` > 0 for
    extra self-consistency samples)."""

    id: str
    probe_id: str
    sample: int = 0
    #: position in a multi-turn episode (0 for single-question probes)
    turn: int = 0
    messages: list[Message] | None = None
    prompt: str | None = None
    params: GenerationParams = Field(default_factory=GenerationParams)
    seed: int | None = None
    answer_format: AnswerFormat | None = None

    def payload(self) -> dict[str, Any]:
        """Everything about the request that can change the model's output."""
        return {
            "messages": [m.model_dump() for m in self.messages] if self.messages is not None else None,
            "prompt": self.prompt,
            "params": self.params.model_dump(),
            "sample": self.sample,
            "seed": self.seed,
        }


class Response(Record):
    """A backend's answer to one request. ``error`` is set when no answer could be obtained."""

    probe_id: str
    sample: int = 0
    turn: int = 0
    text: str = ""
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    error: str | None = None
    cached: bool = False

    @property
    def request_id(self) -> str:
        return request_id(self.probe_id, self.sample, self.turn)


class ItemScore(Record):
    """The score of one knowledge point on one facet/task, with what was parsed."""

    knowledge_point: str
    facet: str
    score: float
    correct: list[bool] = Field(default_factory=list)
    parsed: list[Any] = Field(default_factory=list)
    unparsed: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)


def request_id(probe_id: str, sample: int, turn: int = 0) -> str:
    return f"{probe_id}#{sample}" if turn == 0 else f"{probe_id}#{sample}.{turn}"


#: ``build_info`` key of the items a build could not make (``unbuilt_record``); a run with any is incomplete
UNBUILT_KEY = "unbuilt"


def unbuilt_record(source: str, task: str, items: int, of: int, why: dict[str, int]) -> dict[str, Any]:
    """What a build keeps about items of ``task`` it could not make (e.g. a generator's unusable
    replies), so that the run reports them instead of scoring the task on the rest as if complete."""
    return {"source": source, "task": task, "items": items, "of": of, "why": why}


def unbuilt_note(record: dict[str, Any]) -> str:
    why = ", ".join(f"{reason} {n}" for reason, n in record["why"].items()) or "no reason recorded"
    return (f"{record['source']} {record['task']}: {record['items']} of {record['of']} items could not be built ({why}); "
            "they are not asked, so the run is incomplete")


class RunConfig(Record):
    """Everything needed to reproduce a run (written to config.json)."""

    method: str
    command: list[str]
    created: str
    model: str | None = None
    model_identity: dict[str, Any] = Field(default_factory=dict)
    model_options: dict[str, str] = Field(default_factory=dict)
    data: str | None = None
    limit: int | None = None
    seed: int = 0
    setting: str | None = None
    repeats: int = 1
    samples: int = 1
    prompt_style: Literal["chat", "completion"] = "chat"
    generation: GenerationParams = Field(default_factory=GenerationParams)
    reference_compatible: bool = False
    probes: int = 0
    probes_sha256: str = ""
    build_info: dict[str, Any] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict)
    git_revision: str | None = None
    fingerprint: str = ""
    #: what ``medprobe score`` scored (None for ``run``): a score resumes only its own unfinished directory
    scored_from: str | None = None
