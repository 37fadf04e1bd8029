"""``medprobe kb``: build, audit, inspect and validate knowledge bases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from medprobe.cli.common import EXIT_AUDIT, err_console, out_console, user_errors
from medprobe.errors import MedprobeError
from medprobe.sources.audit_checks import CHECKS_BY_KEY, DISTRACTOR_SAMPLE

kb_app = typer.Typer(help="Build, inspect and validate knowledge bases.")


@kb_app.command("build")
@user_errors
def kb_build(
    name: Annotated[str, typer.Argument(help="en (from hpo3) or zh (from PyCMeKG)")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write here instead of the built-in cache")] = None,
) -> None:
    """Build a knowledge base from an offline source, audit it and record the audit beside it."""
    from medprobe.metrics.embedding import make_embedder
    from medprobe.sources.audit import audit_kb, builtin_kind_of, record_audit
    from medprobe.sources.builtin import build_builtin, builtin_kb_path
    from medprobe.sources.kb import load_kb

    path = build_builtin(name, output) if output else builtin_kb_path(name)
    kb = load_kb(path)
    audit = audit_kb(kb, kind_of=builtin_kind_of(kb.language), embedder=make_embedder())
    record = record_audit(audit, path)
    err_console.print(escape(f"{len(kb.diseases)} diseases; audit recorded in {record}: {_audit_line(audit.to_dict()['checks'])}"))
    print(path)


def _audit_line(checks: dict[str, Any]) -> str:
    over = [f"{key} {row['rate']:.3f} % > {row['limit']:g} %" for key, row in checks.items() if row["over"]]
    return "over the limit: " + ", ".join(over) if over else "every check within its limit"


def _max_option(key: str) -> Any:
    check = CHECKS_BY_KEY[key]
    return typer.Option(f"--max-{key.replace('_', '-')}", min=0.0, help=f"limit for {check.title}, % (default {check.limit:g})")


@kb_app.command("audit")
@user_errors
def kb_audit_cmd(
    kb: Annotated[str, typer.Argument(help="a KB file or builtin:en / builtin:zh")],
    max_one_character: Annotated[float | None, _max_option("one_character")] = None,
    max_numbers_units: Annotated[float | None, _max_option("numbers_units")] = None,
    max_non_medical: Annotated[float | None, _max_option("non_medical")] = None,
    max_fragments: Annotated[float | None, _max_option("fragments")] = None,
    max_near_duplicates: Annotated[float | None, _max_option("near_duplicates")] = None,
    max_restates_name: Annotated[float | None, _max_option("restates_name")] = None,
    max_wrong_kind: Annotated[float | None, _max_option("wrong_kind")] = None,
    max_cross_aspect: Annotated[float | None, _max_option("cross_aspect")] = None,
    max_distractor_risk: Annotated[float | None, _max_option("distractor_risk")] = None,
    sample: Annotated[int, typer.Option(min=1, help="knowledge points whose distractors are checked")] = DISTRACTOR_SAMPLE,
    seed: Annotated[int, typer.Option(help="seed of that sample")] = 0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Check a knowledge base for values that make bad questions; exit 4 when a check is over its limit."""
    from medprobe.metrics.embedding import make_embedder
    from medprobe.sources.audit import audit_kb, audit_text, builtin_kind_of
    from medprobe.sources.builtin import resolve_kb

    given = {key.removeprefix("max_"): value for key, value in locals().items() if key.startswith("max_")}
    loaded = resolve_kb(kb)
    audit = audit_kb(loaded, limits={k: v for k, v in given.items() if v is not None}, kind_of=builtin_kind_of(loaded.language),
                     embedder=make_embedder(), sample=sample, seed=seed)
    print(json.dumps(audit.to_dict(), ensure_ascii=False, indent=2) if as_json else audit_text(audit))
    if audit.over_limit():
        err_console.print(f"[bold red]audit failed[/]: {escape(_audit_line(audit.to_dict()['checks']))}")
        raise typer.Exit(EXIT_AUDIT)


@kb_app.command("stats")
@user_errors
def kb_stats_cmd(
    kb: Annotated[str, typer.Argument(help="a KB file or builtin:en / builtin:zh")] = "builtin:en",
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Diseases and knowledge points per aspect."""
    from medprobe.sources.audit import recorded_audit
    from medprobe.sources.builtin import resolve_kb
    from medprobe.sources.kb import kb_stats

    loaded = resolve_kb(kb)
    stats = kb_stats(loaded)
    audit = recorded_audit(loaded.path) if loaded.path else None
    stats["audit"] = {k: {n: row[n] for n in ("count", "checked", "rate", "limit", "over")} for k, row in audit["checks"].items()} if audit else None
    if as_json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    table = Table("aspect", "diseases", "knowledge points", title=f"{stats['name']} ({stats['language']}): {stats['diseases']} diseases")
    for aspect, row in stats["aspects"].items():
        table.add_row(aspect, str(row["diseases"]), str(row["knowledge_points"]))
    table.add_row("[bold]total", "", f"[bold]{stats['total_knowledge_points']}")
    out_console.print(table)
    print(f"audit (recorded by kb build): {_audit_line(stats['audit'])}" if audit else "audit: none recorded for this file (medprobe kb audit KB)")


@kb_app.command("precision")
@user_errors
def kb_precision(
    kb: Annotated[str, typer.Argument(help="builtin:en or builtin:zh (both when omitted)")] = "",
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The measured precision of the questions a built-in KB makes (blind readings that ship with medprobe)."""
    from medprobe.precision import SHIP_LOWER_BOUND, table_rows
    from medprobe.sources.builtin import VERSIONS, canonical

    languages = [canonical(kb.removeprefix("builtin:"))] if kb else list(VERSIONS)
    rows = [row for language in languages for row in table_rows(language)]
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = Table("KB", "aspect", "type", "right/read", "precision", "95% interval", "default",
                  title=f"Blind-read precision per cell (a cell is asked by default when its lower bound is at least {SHIP_LOWER_BOUND:.0%})")
    for r in rows:
        table.add_row(f"builtin:{r['language']}", str(r["aspect"]), str(r["type"]), f"{r['read'] - r['bad']}/{r['read']}",
                      f"{100 * r['precision']:.1f}%", f"{100 * r['low']:.1f}–{100 * r['high']:.1f}%", "yes" if r["ships"] else "opt-in")
    out_console.print(table)
    if not rows:
        print("no blind reading measures the current builders' questions: every aspect is opt-in (--include-unmeasured)")


@kb_app.command("show")
@user_errors
def kb_show(
    kb: Annotated[str, typer.Argument(help="a KB file or builtin:en / builtin:zh")],
    disease: Annotated[str, typer.Argument(help="disease id or name (case-insensitive)")],
) -> None:
    """Print one disease record."""
    from medprobe.sources.builtin import resolve_kb

    wanted = disease.casefold()
    for record in resolve_kb(kb).diseases:
        if wanted in (record.id.casefold(), record.name.casefold()):
            print(record.model_dump_json(indent=2))
            return
    raise MedprobeError(f"no disease '{disease}' in {kb}", hint="use the id or exact name shown by the KB")


@kb_app.command("validate")
@user_errors
def kb_validate(path: Annotated[Path, typer.Argument()]) -> None:
    """Check a KB file line by line; print its size when it is valid."""
    from medprobe.sources.kb import load_kb

    kb = load_kb(path)
    print(f"{path}: valid, {len(kb.diseases)} diseases ({kb.language})")
