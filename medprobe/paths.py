"""Where medprobe keeps its own state (response cache, built-in knowledge bases)."""

from __future__ import annotations

import os
from pathlib import Path


def home_dir() -> Path:
    """``$MEDPROBE_HOME``, else ``$XDG_CACHE_HOME/medprobe``, else ``~/.cache/medprobe``."""
    explicit = os.environ.get("MEDPROBE_HOME")
    if explicit:
        path = Path(explicit)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        path = Path(base) / "medprobe"
    path.mkdir(parents=True, exist_ok=True)
    return path
