"""Fuzzing every reader of user files (testing/input_samples.py): random bytes, bytes mutated in a valid
file, and valid JSON with one value replaced, removed or repeated. Whatever the input, each command that
reads it ends with an answer (exit 0, or 3 for a run left incomplete) or one clear error (exit 2) —
never a traceback. Bounded: 50 examples per reader, seeded (derandomized), no example database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from testing.input_samples import READERS, Reader, broken_inputs, is_clear, try_broken

FUZZ = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Per reader: a folder holding its valid input, and the file to break (written once)."""
    made = {}
    for reader in READERS:
        root = tmp_path_factory.mktemp("sample")
        made[reader.name] = (root, reader.write(root))
    return made


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_a_broken_input_is_a_clear_error_never_a_traceback(reader: Reader, samples: dict[str, tuple[Path, Path]]) -> None:
    template, target = samples[reader.name]

    @FUZZ
    @given(broken=broken_inputs(target))
    def check(broken: tuple[str, Any]) -> None:
        for argv, result in try_broken(reader, template, target, broken):
            assert is_clear(result), f"{argv}: exit {result.exit_code}, {result.exception!r}\n{result.output[-2000:]}"

    check()
