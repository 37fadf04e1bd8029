"""Where medprobe keeps its own state (response cache, built-in knowledge bases) and writes results."""

from __future__ import annotations

import os
from pathlib import Path

from medprobe.errors import MedprobeError


def home_dir() -> Path:
    """``$MEDPROBE_HOME``, else ``$XDG_CACHE_HOME/medprobe``, else ``~/.cache/medprobe``."""
    explicit = os.environ.get("MEDPROBE_HOME")
    if explicit:
        return writable_dir(Path(explicit), "MEDPROBE_HOME")
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return writable_dir(Path(base) / "medprobe", "XDG_CACHE_HOME" if os.environ.get("XDG_CACHE_HOME") else "HOME")


def writable_dir(path: Path, chosen_by: str) -> Path:
    """``path`` as a folder medprobe can write in, made when missing. Otherwise a MedprobeError that
    names the option or variable that chose it: found out late, the same problem is a traceback
    after the model has already been asked."""
    if path.exists() and not path.is_dir():
        raise MedprobeError(f"{path} is a file, not a folder", field=chosen_by, hint="name a folder (it is made when missing)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MedprobeError(f"cannot make the folder {path}: {exc.strerror or exc}", field=chosen_by) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise MedprobeError(f"cannot write in the folder {path}", field=chosen_by)
    return path
