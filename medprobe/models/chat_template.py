"""The chat template the embedded backend puts chat messages in, settled before anything is asked.

When a GGUF carries no ``tokenizer.chat_template``, llama-cpp-python quietly formats chat messages
as Llama 2's ``[INST] … [/INST]``, which most models never saw in training: the replies echo the
instruction and the model looks ignorant when its prompt was what broke. So the template is chosen
here, in this order, and the run records which one it used:

1. ``-O chat_format=NAME``: one of llama-cpp-python's registered formats (another name is refused,
   with the list);
2. the GGUF's own template;
3. a format inferred from the GGUF where the evidence leaves no doubt: the architecture names the
   family, the vocabulary holds that family's turn markers as single control tokens (Gemma; Qwen's
   ChatML; Llama 3), and the fine-tune or model name says it was tuned for chat ("it", "instruct",
   "chat"). Base models hold the same markers but learnt no chat format: a template would be a guess
   (a Gemma 3 270M GGUF with no template and no tuning in its name echoed the instruction in Gemma's
   own format as it did in Llama 2's);
4. otherwise the run stops before it starts, naming both ways on.

Plain-text prompts (``--prompt-style completion``) go to the model as they are: no template applies.
"""

from __future__ import annotations

import ctypes
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from medprobe.errors import MedprobeError

#: llama-cpp-python's name for the handler built from the GGUF's own template; naming it stops the
#: library from swapping in a built-in formatter it takes to be equivalent
GGUF_TEMPLATE = "chat_template.default"


@dataclass(frozen=True)
class Family:
    """A chat format that may be inferred, and the evidence it needs."""

    chat_format: str
    architectures: frozenset[str]
    #: turn markers the vocabulary must hold as single control tokens
    markers: tuple[str, ...]


FAMILIES = (
    Family("gemma", frozenset({"gemma", "gemma2", "gemma3", "gemma3n"}), ("<start_of_turn>", "<end_of_turn>")),
    Family("chatml", frozenset({"qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe"}), ("<|im_start|>", "<|im_end|>")),
    Family("llama-3", frozenset({"llama"}), ("<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>")),
)

#: formats whose llama-cpp-python formatter drops a system message: Gemma has no system turn, and its
#: own template puts the system text at the head of the first user turn, which the backend does too
SYSTEMLESS = frozenset({"gemma"})

#: words of a fine-tune or model name that say a model was tuned to follow chat turns
TUNED_WORDS = frozenset({"it", "instruct", "chat"})


@dataclass(frozen=True)
class GgufFacts:
    """What a GGUF says about its chat format."""

    architecture: str
    template: str | None
    #: the turn markers of FAMILIES that its vocabulary holds as single control tokens
    markers: frozenset[str]
    #: its fine-tune and model names (general.finetune, general.name), those it states
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChatTemplate:
    """The template chosen and how a run records it."""

    #: handed to llama-cpp-python (None: no chat messages are sent)
    chat_format: str | None
    #: what config.json, report.md and the platform say about it
    record: str


def registered_formats() -> list[str]:
    """The chat formats llama-cpp-python knows by name (its registry has no public listing)."""
    from llama_cpp.llama_chat_format import LlamaChatCompletionHandlerRegistry

    return sorted(LlamaChatCompletionHandlerRegistry()._chat_handlers)


def template_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def infer(facts: GgufFacts) -> Family | None:
    """The family the architecture names, when the vocabulary also holds all its turn markers."""
    for family in FAMILIES:
        if facts.architecture in family.architectures and set(family.markers) <= facts.markers:
            return family
    return None


def tuning_word(facts: GgufFacts) -> str | None:
    """The word of the GGUF's fine-tune or model name that says it was tuned for chat, if any."""
    for text in facts.names:
        for word in re.split(r"[^0-9a-z]+", text.lower()):
            if word in TUNED_WORDS:
                return word
    return None


def choose(facts: GgufFacts, chat_format: str | None, *, chat: bool, model: str) -> ChatTemplate:
    """The template a run uses (see the module docstring for the order); ``chat`` is False for
    plain-text prompts. Raises MedprobeError when chat messages would go out in a guessed format."""
    if chat_format is not None:
        known = registered_formats()
        if chat_format not in known:
            raise MedprobeError(
                f"unknown chat format '{chat_format}'", field="-O chat_format", hint=f"llama-cpp-python knows: {', '.join(known)}"
            )
    if not chat:
        return ChatTemplate(chat_format=None, record="none: plain-text prompts (--prompt-style completion)")
    if chat_format is not None:
        return ChatTemplate(chat_format=chat_format, record=f"{chat_format} (-O chat_format)")
    if facts.template is not None:
        return ChatTemplate(chat_format=GGUF_TEMPLATE, record=f"from the GGUF (sha256 {template_digest(facts.template)})")
    family, tuned = infer(facts), tuning_word(facts)
    if family is not None and tuned is not None:
        evidence = f"architecture {facts.architecture}, control tokens {' '.join(family.markers)}, tuned: '{tuned}' in its name"
        return ChatTemplate(chat_format=family.chat_format, record=f"{family.chat_format} (inferred: the GGUF has no template; {evidence})")
    if family is None:
        unsure = f"its architecture ({facts.architecture or 'not stated'}) and vocabulary do not say which chat format it was trained with"
    else:
        named = " / ".join(facts.names) or "none stated"
        unsure = (f"although it is of the {family.chat_format} family (architecture {facts.architecture}), its fine-tune and name "
                  f"({named}) do not say it was tuned for chat: a base model learnt no chat format")
    raise MedprobeError(
        f"{model} has no chat template, and {unsure}; llama-cpp-python would silently use Llama 2's [INST] format",
        field="--model",
        hint=f"name the format with -O chat_format=NAME (e.g. {family.chat_format if family else 'gemma, chatml, llama-3'}), "
        "or send plain text, as a base model reads it, with --prompt-style completion",
    )


def fold_system(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    """Messages for a format without a system turn: the system text heads the first user turn,
    separated by a blank line (as Gemma's own template and medprobe's plain-text prompts join them)."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    turns = [dict(m) for m in messages if m["role"] != "system"]
    if not system:
        return turns
    if turns and turns[0]["role"] == "user":
        turns[0]["content"] = f"{system}\n\n{turns[0]['content']}"
    else:
        turns.insert(0, {"role": "user", "content": system})
    return turns


def read_facts(path: Path) -> GgufFacts:
    """Architecture, template and turn markers of a GGUF, from its metadata and vocabulary only (no
    weights are read, so this takes a fraction of a second even for a large model)."""
    import llama_cpp
    from llama_cpp._utils import suppress_stdout_stderr

    params = llama_cpp.llama_model_default_params()
    params.vocab_only = True
    with suppress_stdout_stderr(disable=False):  # llama.cpp's loading chatter, silenced as Llama(verbose=False) silences it
        model = llama_cpp.llama_model_load_from_file(str(path).encode(), params)
    if not model:
        raise MedprobeError(f"cannot load GGUF model {path}: llama.cpp cannot read it", field="--model")
    try:
        vocab = llama_cpp.llama_model_get_vocab(model)
        markers = {m for family in FAMILIES for m in family.markers if _is_control_token(vocab, m)}
        return GgufFacts(
            architecture=_metadata(model, "general.architecture") or "",
            template=_metadata(model, "tokenizer.chat_template"),
            markers=frozenset(markers),
            names=tuple(n for n in (_metadata(model, "general.finetune"), _metadata(model, "general.name")) if n),
        )
    finally:
        llama_cpp.llama_model_free(model)


def _metadata(model: object, key: str) -> str | None:
    """A metadata value as text, or None when the GGUF lacks the key."""
    import llama_cpp

    size = 1024
    while True:
        buffer = ctypes.create_string_buffer(size)
        length = llama_cpp.llama_model_meta_val_str(model, key.encode(), buffer, size)
        if length < 0:
            return None
        if length < size:
            return buffer.value.decode("utf-8", errors="replace")
        size = length + 1  # the value was cut: ask again with room for all of it


def _is_control_token(vocab: object, text: str) -> bool:
    """Whether ``text`` is one control token of the vocabulary (not text spelled with ordinary tokens)."""
    import llama_cpp

    data = text.encode()
    tokens = (llama_cpp.llama_token * 4)()
    count = llama_cpp.llama_tokenize(vocab, data, len(data), tokens, len(tokens), False, True)
    return count == 1 and bool(llama_cpp.llama_vocab_is_control(vocab, tokens[0]))
