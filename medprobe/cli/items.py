"""``medprobe items``: review sheets of generated questions for clinicians, and their verdicts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from medprobe.cli.common import UNMEASURED_HELP, err_console, user_errors
from medprobe.contract import BuildOptions, get_method
from medprobe.paths import output_file

items_app = typer.Typer(help="Verified items: review sheets of generated questions for clinicians, and their verdicts.")


@items_app.command("sample")
@user_errors
def items_sample(
    method: Annotated[str, typer.Argument(help="meddisk, multicog, multifacet or sdak")],
    output: Annotated[Path, typer.Option("--output", "-o", help="review sheet (CSV) for clinicians")],
    data: Annotated[str | None, typer.Option(help="a KB file or builtin:en / builtin:zh (the method's default when omitted)")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="as for run: the seeded sample of knowledge points (items per type for sdak)")] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    level: Annotated[str | None, typer.Option(help="multicog: low, mid or both (the high level's cases are not reviewed)")] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
) -> None:
    """Write a review sheet of the questions that `run` with the same options asks."""
    from medprobe.verification import review_items, review_sheet

    output_file(output, "--output")
    chosen = get_method(method)
    options = BuildOptions(data=data, limit=limit, seed=seed, setting=setting, level=level, include_unmeasured=include_unmeasured)
    items = review_items(chosen, chosen.build(options))
    review_sheet(items, output)
    err_console.print(f"{len(items)} items of {len({i.knowledge_point for i in items})} knowledge points to review")
    print(output)


@items_app.command("apply")
@user_errors
def items_apply(
    sheets: Annotated[list[Path], typer.Argument(help="filled-in review sheets")],
    output: Annotated[Path, typer.Option("--output", "-o", help="verification file (JSON); verdicts are added to it when it exists")],
    reviewer: Annotated[str | None, typer.Option(help="reviewer name for rows that give none")] = None,
) -> None:
    """Record the verdicts of review sheets in a verification file (for --verified)."""
    from medprobe.verification import apply_sheets

    output_file(output, "--output")
    document = apply_sheets(sheets, output, reviewer=reviewer)
    counts = Counter(entry["verdict"] for entry in document["items"].values())
    err_console.print(f"{len(document['items'])} items with verdicts: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    print(output)
