"""Which names an OpenAI-compatible server reads for the sampling parameters outside the OpenAI API.

``top_k`` and the repetition penalty are no OpenAI API parameters, and servers spell them
differently: vLLM and SGLang read ``repetition_penalty``, llama.cpp's servers (``llama-server`` and
``python -m llama_cpp.server``) read ``repeat_penalty`` and silently ignore the other spelling, and
hosted APIs reject or ignore what they do not know. A server that does not get the name it reads
samples with its own default instead, and nothing says so. So each family gets its own names:

- ``openai`` (hosted APIs): the OpenAI parameters alone (temperature, top_p, max_tokens, stop, seed);
- ``vllm`` (vLLM, SGLang, and any server not recognised): ``top_k`` and ``repetition_penalty``, only
  when a method sets them;
- ``llamacpp``: ``top_k``, ``min_p`` and ``repeat_penalty`` on every request, neutral where the method
  sets none (0, 0.0, 1.0), as the embedded model samples: llama.cpp's servers otherwise apply their
  own defaults (top_k 40, min_p 0.05, and in llama_cpp.server repeat_penalty 1.1).

The family is ``-O server=NAME`` when given, ``openai`` for a known hosted API's host, and otherwise
read from the ``owned_by`` field of the server's ``GET /models`` answer.
"""

from __future__ import annotations

from typing import Any

from medprobe.records import GenerationParams

FAMILIES = ("openai", "vllm", "llamacpp")
#: hosts of hosted APIs, which answer HTTP 400 to (or drop) sampling parameters outside the OpenAI API
HOSTED = frozenset({
    "api.openai.com", "api.mistral.ai", "api.groq.com", "api.deepseek.com", "api.anthropic.com",
    "generativelanguage.googleapis.com",
})
#: ``owned_by`` in ``GET /models`` -> family (llama-server says "llamacpp", llama_cpp.server "me")
OWNERS = {"vllm": "vllm", "sglang": "vllm", "llamacpp": "llamacpp", "me": "llamacpp"}


def family_of_host(host: str) -> str | None:
    """``openai`` for a hosted API's host (Azure OpenAI included); None when the server must be asked."""
    return "openai" if host in HOSTED or host.endswith(".openai.azure.com") else None


def family_of_models(listing: Any) -> str:
    """The family a ``GET /models`` answer names in ``owned_by``; ``vllm`` (the most widely read
    names) for a server it does not name."""
    models = listing.get("data") if isinstance(listing, dict) else None
    for model in models if isinstance(models, list) else []:
        owner = model.get("owned_by") if isinstance(model, dict) else None
        if isinstance(owner, str) and owner.lower() in OWNERS:
            return OWNERS[owner.lower()]
    return "vllm"


def extra_sampling(family: str, params: GenerationParams) -> dict[str, Any]:
    """The sampling parameters beyond the OpenAI API, under the names ``family`` reads."""
    if family == "llamacpp":
        return {"top_k": params.top_k or 0, "min_p": 0.0, "repeat_penalty": params.repetition_penalty or 1.0}
    if family == "vllm":
        named = {"top_k": params.top_k, "repetition_penalty": params.repetition_penalty}
        return {key: value for key, value in named.items() if value is not None}
    return {}


def sent_note(family: str, base_url: str, params: GenerationParams) -> str:
    """One line for the report: which sampling parameters went to the server, under which names."""
    sent = {"temperature": params.temperature, "top_p": params.top_p, **extra_sampling(family, params)}
    listed = ", ".join(f"{key}={value}" for key, value in sent.items())
    return f"sampling sent to {base_url} (server family {family}): {listed}"
