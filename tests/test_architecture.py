"""The layers of medprobe hold: the contract sits below the engine and the methods, the engine never
imports a method, and a method reaches the engine only through what it is handed (the run session) or
the engine's services. Read from the source with ``ast`` (every import, also those inside functions),
so a new import that breaks a layer fails here, not in review."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import medprobe

PACKAGE = Path(medprobe.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


@cache
def imports_of(name: str) -> frozenset[str]:
    """The medprobe modules ``name`` imports when it runs (imports under ``if TYPE_CHECKING`` are for
    annotations only and left out); ``from package import name`` counts as importing the submodule when
    there is one."""
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and is_type_checking(node)
               for stmt in node.body for n in ast.walk(stmt)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(m for m in found if m in modules())


def reached_from(start: str) -> set[str]:
    """Every medprobe module that importing ``start`` can import, directly or through others (a
    package's ``__init__`` runs before its submodules)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parents = [".".join(name.split(".")[:i]) for i in range(2, name.count(".") + 1)]
        todo += [*imports_of(name), *(p for p in parents if p in modules())]
    return seen


def test_the_modules_are_found() -> None:
    """The checks below read real modules (an empty scan would pass them all)."""
    assert {"medprobe.contract", "medprobe.engine.pipeline", "medprobe.methods.meddisk", "medprobe.cli"} <= set(modules())
    assert "medprobe.contract" in imports_of("medprobe.engine.pipeline")


def test_the_engine_imports_no_method() -> None:
    wrong = {name: sorted(m for m in imports_of(name) if under(m, "medprobe.methods"))
             for name in modules() if under(name, "medprobe.engine")}
    assert not {name: found for name, found in wrong.items() if found}


#: shared modules the engine imports that still reach a method (none: a method is reached through the contract's
#: get_method, by entry point, never by import); a new route fails the test below
KNOWN_ROUTES: set[str] = set()


def test_the_engine_reaches_a_method_through_no_new_route() -> None:
    routes = {imported for name in modules() if under(name, "medprobe.engine") for imported in imports_of(name)
              if not under(imported, "medprobe.engine") and any(under(m, "medprobe.methods") for m in reached_from(imported))}
    assert routes == KNOWN_ROUTES


def test_the_contract_sits_below_the_engine_and_the_methods() -> None:
    reached = reached_from("medprobe.contract")
    assert not [m for m in reached if under(m, "medprobe.engine") or under(m, "medprobe.methods")]


def test_a_method_reaches_the_engine_only_through_its_services() -> None:
    """Inside a run a method is handed the session; outside one it may use medprobe.engine.services."""
    allowed = {"medprobe.engine", "medprobe.engine.services"}
    wrong = {name: sorted(m for m in imports_of(name) if under(m, "medprobe.engine") and m not in allowed)
             for name in modules() if under(name, "medprobe.methods")}
    assert not {name: found for name, found in wrong.items() if found}


def test_the_profile_and_the_command_line_import_no_method() -> None:
    """They loop over the methods through the contract, so a new method needs no change to them."""
    wrong = {name: sorted(m for m in imports_of(name) if under(m, "medprobe.methods"))
             for name in modules() if under(name, "medprobe.profile") or under(name, "medprobe.cli")}
    assert not {name: found for name, found in wrong.items() if found}
