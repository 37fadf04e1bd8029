"""Seeds derived from a run's seed: every random draw of a build, a run or a score comes from here.

Each draw gets its own generator, keyed by what it is for, so a draw does not change when other items,
models or the processing order change; and the keys go through SHA-256 rather than ``hash()``, which is
salted per process for strings.
"""

from __future__ import annotations

import hashlib
import random
from json.encoder import encode_basestring


def item_rng(seed: int, *keys: str) -> random.Random:
    """A ``random.Random`` determined by ``seed`` and ``keys`` (e.g. model, item id, question slot).

    What is hashed is the JSON text of ``[seed, *keys]`` (as ``json.dumps`` writes it, written here
    without building an encoder: this runs for every question of a build and a score).
    """
    material = ("[" + ", ".join([str(int(seed)), *map(encode_basestring, keys)]) + "]").encode("utf-8")
    digest = hashlib.sha256(material).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def sample_seed(seed: int, sample: int) -> int:
    """A sampling seed per (run seed, sample index) that does not collide across run seeds."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{sample}".encode()).digest()[:4], "big") >> 1
