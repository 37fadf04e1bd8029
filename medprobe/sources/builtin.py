"""The built-in knowledge bases: built from installed packages on first use, then read from a cache.

``en`` (alias ``hpo``) comes from the Human Phenotype Ontology (medprobe.sources.kb_hpo), ``zh``
(alias ``cmekg``) from the Chinese medical knowledge graph (medprobe.sources.kb_cmekg). Building
takes a few seconds, so the result is kept at ``<medprobe home>/kb/<name>-<builder VERSION>-<medprobe
version>.jsonl``: bumping a builder module's ``VERSION`` (whenever its output changes) or upgrading
medprobe builds afresh instead of serving a stale KB. The file appears atomically, complete or not at
all, so an interrupted build or two processes building at once never leave half a KB behind.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from medprobe.errors import MedprobeError
from medprobe.paths import home_dir
from medprobe.sources import kb_cmekg, kb_hpo
from medprobe.sources.kb import Disease, KnowledgeBase, load_kb, write_kb

BUILDERS: dict[str, Callable[[], list[Disease]]] = {"en": kb_hpo.build_hpo_kb, "zh": kb_cmekg.build_cmekg_kb}
#: each builder's output version: part of the cache file name
VERSIONS: dict[str, int] = {"en": kb_hpo.VERSION, "zh": kb_cmekg.VERSION}
ALIASES = {"hpo": "en", "cmekg": "zh"}


def builtin_kb_path(name: str) -> Path:
    """The cached KB file of a built-in KB, built first when missing."""
    key = canonical(name)
    path = home_dir() / "kb" / f"{key}-{VERSIONS[key]}-{_package_version()}.jsonl"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_kb(path, BUILDERS[key]())  # write_records replaces the file whole
    return path


def build_builtin(name: str, output: Path) -> Path:
    """Build a built-in KB afresh into ``output`` (the cache is left alone)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    write_kb(output, BUILDERS[canonical(name)]())
    return output


def load_builtin_kb(name: str) -> KnowledgeBase:
    return load_kb(builtin_kb_path(name), name=f"builtin:{canonical(name)}")


def resolve_kb(spec: str) -> KnowledgeBase:
    """A KB from what a user typed: "builtin:en", "zh", "hpo", … or the path of a KB JSONL file."""
    name = spec.removeprefix("builtin:")
    if spec.startswith("builtin:") or name in BUILDERS or name in ALIASES:
        return load_builtin_kb(name)
    path = Path(spec)
    if path.suffix or len(path.parts) > 1:  # written as a file: say that file is missing, not that a name is unknown
        if not path.exists():
            raise MedprobeError("no such file", file=spec, field="--data", hint=_choices())
        if not path.is_file():
            raise MedprobeError("not a file", file=spec, field="--data")
    elif not path.is_file():
        raise MedprobeError(f"no knowledge base '{spec}': not a built-in name and no such file", hint=_choices())
    return load_kb(spec)


def canonical(name: str) -> str:
    key = ALIASES.get(name, name)
    if key not in BUILDERS:
        raise MedprobeError(f"unknown built-in knowledge base '{name}'", hint=_choices())
    return key


def _choices() -> str:
    names = [f"builtin:{n}" for n in BUILDERS] + [f"builtin:{a} (= {k})" for a, k in ALIASES.items()]
    return "use one of " + ", ".join(names) + ", or the path of a KB JSONL file"


def _package_version() -> str:
    try:
        return version("medprobe")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
