"""``medprobe readings``: check the strict answer reader on a run's replies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from medprobe.cli.common import err_console, out_console, user_errors
from medprobe.paths import output_file

readings_app = typer.Typer(help="Check the strict answer reader on your own model: a review sheet of a run's replies, and its score.")


@readings_app.command("audit")
@user_errors
def readings_audit(
    run_dir: Annotated[Path, typer.Argument(help="a run directory (MultifacetEval or MultiCogEval low/mid)")],
    output: Annotated[Path, typer.Option("--output", "-o", help="audit sheet (CSV) to fill in")],
    sample: Annotated[int | None, typer.Option(min=1, help="review N replies, drawn per rule family in turn (default: all)")] = None,
    seed: Annotated[int, typer.Option()] = 0,
) -> None:
    """Write a sheet of a run's replies with the reader's readings, for you to read them yourself."""
    from medprobe.reader_audit import audit_sheet

    output_file(output, "--output")
    rows = audit_sheet(run_dir, output, sample=sample, seed=seed)
    err_console.print(f"{rows} replies to review: fill in your_reading, then run medprobe readings score {output}")
    print(output)


@readings_app.command("score")
@user_errors
def readings_score(sheets: Annotated[list[Path], typer.Argument(help="filled-in audit sheets")]) -> None:
    """False-read and miss rates of the reader (95% Wilson intervals) per task and rule family."""
    from medprobe.reader_audit import rate, score_sheet, worst

    groups = score_sheet(sheets)
    for by, title in (("task", "task"), ("rule", "rule family")):
        table = Table(title, "reviewed", "false reads / read", "misses / answerable")
        for name, t in sorted(groups[by].items()):
            table.add_row(escape(name), str(t.reviewed), rate(t.false_reads, t.read), rate(t.misses, t.answerable))
        out_console.print(table)
    worst_rules = worst(groups["rule"])
    out_console.print("rules with the most errors: " + (", ".join(worst_rules) if worst_rules else "none"), highlight=False)


@readings_app.command("compare")
@user_errors
def readings_compare(run_dir: Annotated[Path, typer.Argument(help="a MultifacetEval or MultiCogEval low/mid run directory")]) -> None:
    """Where strict reading and the published scripts' extractors disagree on a run's replies, per task, with examples."""
    from medprobe.reader_compare import KINDS_SHOWN, compare_run

    tasks = compare_run(run_dir)
    table = Table("task", "how strict and published readings part", "replies", "share")
    for task, c in tasks.items():
        total = sum(c.counts.values())
        for kind in KINDS_SHOWN:
            table.add_row(escape(task), kind, str(c.counts[kind]), f"{100 * c.counts[kind] / total:.1f}%")
    out_console.print(table)
    for task, c in tasks.items():
        if c.strict_unread:
            why = ", ".join(f"{rule} {n}" for rule, n in c.strict_unread.most_common())
            out_console.print(f"{escape(task)}: strict left unread what only the published extractor read because: {escape(why)}", highlight=False)
        for kind, examples in c.examples.items():
            for reply, strict, reference in examples:
                excerpt = " ".join(reply.split())[:160]
                out_console.print(f"{escape(task)} · {kind}: strict {strict!r}, published {reference!r} ← {escape(excerpt)!r}", highlight=False)
