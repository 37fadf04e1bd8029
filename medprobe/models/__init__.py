"""Model backends behind one protocol (:mod:`medprobe.models.base`).

Model ids: ``llamacpp:default`` (embedded SmolLM2-135M-Instruct), ``llamacpp:/path/model.gguf``,
``openai:MODEL@BASE_URL``, ``random``, ``replay:FILE``. Backend options (``-O key=value`` on
the command line) are passed through: n_ctx, threads, chat_format (llamacpp); concurrency, max_concurrency,
retries, timeout, key_env, server, max_reply_bytes (openai).
"""

from __future__ import annotations

import importlib

from medprobe.errors import MedprobeError
from medprobe.models.base import ModelBackend, generate
from medprobe.options import Parser, name, one_of, read_options, seconds, whole

__all__ = ["ModelBackend", "generate", "make_backend", "BACKENDS"]

#: backend kind -> (module, class, the -O options it understands and how each is read); modules
#: load on demand so that, e.g., the random model never imports llama.cpp
BACKENDS: dict[str, tuple[str, str, dict[str, Parser]]] = {
    # n_ctx 0: the context length the model was trained with (llama.cpp's convention)
    # chat_format: one of llama-cpp-python's registered names, checked against its registry on load
    "llamacpp": ("medprobe.models.llamacpp", "LlamaCppBackend", {"n_ctx": whole(0), "threads": whole(1), "chat_format": name}),
    "openai": (
        "medprobe.models.openai",
        "OpenAIBackend",
        {
            "concurrency": whole(1), "max_concurrency": whole(1), "retries": whole(0), "timeout": seconds, "key_env": name,
            "max_reply_bytes": whole(1),
            # the names it reads for sampling parameters outside the OpenAI API (medprobe.models.server_family)
            "server": one_of("openai", "vllm", "llamacpp"),
        },
    ),
    "random": ("medprobe.models.random_model", "RandomBackend", {}),
    "replay": ("medprobe.models.replay", "ReplayBackend", {}),
}


def make_backend(model_id: str, options: dict[str, str] | None = None, *, seed: int = 0, prompt_style: str = "chat") -> ModelBackend:
    """Build the backend a model id names; ``seed`` drives the random guesser, and ``prompt_style``
    tells the embedded model whether it needs a chat template at all."""
    kind, _, spec = model_id.partition(":")
    if kind not in BACKENDS:
        raise MedprobeError(
            f"unknown model backend '{kind}' in '{model_id}'",
            field="--model",
            hint="use one of: llamacpp:default, llamacpp:/path/model.gguf, openai:MODEL@URL, random, replay:FILE",
        )
    module, name, known = BACKENDS[kind]
    options = dict(options or {})
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise MedprobeError(
            f"option(s) {', '.join(unknown)} not understood by the {kind} backend",
            field="-O",
            hint=f"{kind} options: {', '.join(sorted(known)) or 'none'}",
        )
    read_options(options, known, "-O")
    options["seed"] = str(seed)
    options["prompt_style"] = prompt_style
    return getattr(importlib.import_module(module), name)(spec, options)
