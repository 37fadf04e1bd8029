"""Where code lives: test support stays out of the installed package, benchmarks import it as a package
(no sys.path edits, nothing from tests/), one class is called Outcome, and no comment or name points
at a tracker entry instead of saying why."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: "issue" followed by a number: a reference to a tracker entry
TRACKER_REFERENCE = re.compile(r"issue[\s_#-]*\d", re.IGNORECASE)


def python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_the_wheel_ships_medprobe_alone_and_the_mock_server_is_not_in_it() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["setuptools"]["packages"]["find"]["include"] == ["medprobe*"]
    assert not (ROOT / "medprobe" / "mock_server.py").exists()
    assert (ROOT / "testing" / "mock_server.py").is_file()


def test_benchmarks_import_the_testing_package_and_never_edit_sys_path() -> None:
    test_modules = {path.stem for path in (ROOT / "tests").glob("*.py")}
    for path in python_files("benchmarks"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edits = [node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name) and node.value.id == "sys"]
        assert not edits, f"{path.name}: sys.path used on line(s) {edits}"
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        from_tests = {name for name in imported if name.split(".")[0] in test_modules | {"tests"}}
        assert not from_tests, f"{path.name} imports {sorted(from_tests)} from tests/"


def test_one_class_is_called_outcome() -> None:
    named = [path.relative_to(ROOT).as_posix() for path in python_files("medprobe")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ClassDef) and node.name == "Outcome"]
    assert named == ["medprobe/engine/pipeline.py"]


def test_no_code_comment_or_file_name_refers_to_a_tracker_entry() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in python_files("medprobe", "tests", "testing", "benchmarks", "scripts")
             for number, line in enumerate([path.name, *path.read_text(encoding="utf-8").splitlines()])
             if TRACKER_REFERENCE.search(line)]
    assert not found
