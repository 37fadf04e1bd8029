"""Test settings: never touch the network, never touch the user's cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(autouse=True, scope="session")
def _isolated_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Response cache and built-in KBs go to a per-session folder."""
    os.environ["MEDPROBE_HOME"] = str(tmp_path_factory.mktemp("medprobe-home"))


def shared(*parts: str) -> Path:
    """A path under ../shared/data, or skip the test with the reason when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (public benchmark data lives in ../shared/data beside the checkout)")
    return path
