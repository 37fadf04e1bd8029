"""Checks shared by the loaders of released benchmark files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError


def same_ids(ids: list[Any], expected: list[Any], path: Path, reference: str) -> None:
    """Parallel task files of one release must list the same item ids in the same order; name
    the first item where ``path`` departs from ``reference``."""
    if ids == expected:
        return
    index = next((i for i, (a, b) in enumerate(zip(ids, expected, strict=False)) if a != b), min(len(ids), len(expected)))
    found = repr(ids[index]) if index < len(ids) else "no item"
    wanted = repr(expected[index]) if index < len(expected) else "no item"
    raise MedprobeError(
        f"item {index}: id {found} where {reference} has {wanted} (the files must list the same ids in order)",
        file=path,
        field=f"[{index}][0]",
    )


def unique_ids(ids: list[Any], path: Path) -> None:
    """Every item of a release file has an id of its own: two items with one id become two probes
    with one id, and the answer to one would silently stand for both."""
    seen: dict[Any, int] = {}
    for index, item in enumerate(ids):
        if item in seen:
            raise MedprobeError(f"item {index}: id {item!r} repeats item {seen[item]}", file=path, field=f"[{index}][0]")
        seen[item] = index
