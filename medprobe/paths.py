"""Where medprobe keeps its own state (response cache, built-in knowledge bases) and writes results."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from medprobe.errors import MedprobeError

#: what a write says when the disk (or the quota, or the file size limit) is full
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
NO_SPACE_HINT = ("free some space (or choose another --out or MEDPROBE_HOME) and run the same command again; "
                 "what was written before is kept")


def home_dir() -> Path:
    """``$MEDPROBE_HOME``, else ``$XDG_CACHE_HOME/medprobe``, else ``~/.cache/medprobe`` (made when missing)."""
    explicit = os.environ.get("MEDPROBE_HOME")
    if explicit:
        path, chosen_by = Path(explicit), "MEDPROBE_HOME"
    else:
        base = os.environ.get("XDG_CACHE_HOME")
        path, chosen_by = Path(base or Path.home() / ".cache") / "medprobe", "XDG_CACHE_HOME" if base else "HOME"
    writable_dir(path, chosen_by)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MedprobeError(f"cannot make the folder {path}: {exc.strerror or exc}", field=chosen_by) from None
    return path


def output_file(path: Path, chosen_by: str) -> Path:
    """A file an option names for output: its folder checked before any work (``writable_dir``) and made
    when missing, so that the write at the end cannot fail on it."""
    writable_dir(path.parent, chosen_by)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def writable_dir(path: Path, chosen_by: str) -> Path:
    """Check, before any work, that ``path`` is a folder medprobe can write in, or can be made as one;
    otherwise a MedprobeError naming the option or variable that chose it (found out late, the same
    problem is a traceback after the model has been asked). Nothing is left behind: the check makes
    and removes a scratch folder in the nearest folder that exists."""
    nearest = next(p for p in (path, *path.parents) if p.exists())
    where = "" if nearest == path else f" (on the way to {path})"
    if not nearest.is_dir():
        raise MedprobeError(f"{nearest} is a file, not a folder{where}", field=chosen_by, hint="name a folder; it is made when missing")
    try:
        os.rmdir(tempfile.mkdtemp(dir=nearest, prefix=".medprobe-check-"))
    except OSError as exc:
        raise MedprobeError(f"cannot write in {nearest}{where}: {exc.strerror or exc}", field=chosen_by) from None
    return path

