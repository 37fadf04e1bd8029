"""MedDisKEval's own commands: ``grade`` (calibrate tier thresholds with clinicians' labels) and ``compare``
(Welch's t per aspect between two models' runs), mounted by ``medprobe`` (medprobe.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from medprobe.cli.common import (
    STRICT_RUNS_HELP,
    err_console,
    finished_runs,
    out_console,
    refuse_incomplete,
    user_errors,
)

#: its commands are mounted at the top of the medprobe command (medprobe.cli)
app = typer.Typer()
grade_app = typer.Typer(help="Expert-aligned grading (MedDisKEval): calibrate tier thresholds with clinicians' labels.")
app.add_typer(grade_app, name="grade")


@grade_app.command("sample")
@user_errors
def grade_sample_cmd(
    runs: Annotated[list[Path], typer.Argument(help="meddisk run directories (several models welcome; unfinished ones are skipped)")],
    output: Annotated[Path, typer.Option("--output", "-o", help="calibration sheet (CSV) for clinicians")],
    per_interval: Annotated[int, typer.Option(help="answers per score interval, metric and aspect type")] = 10,
    width: Annotated[float, typer.Option(help="score interval width")] = 0.1,
    validation: Annotated[Path | None, typer.Option(help="also write a second sheet of random answers for validation")] = None,
    validation_size: Annotated[int, typer.Option()] = 150,
    seed: Annotated[int, typer.Option()] = 0,
    strict: Annotated[bool, typer.Option("--strict", help=STRICT_RUNS_HELP)] = False,
) -> None:
    """Draw answers per score interval for clinicians to label CW / PC / BC (paper §3.2.2)."""
    from medprobe.methods.meddisk.alignment import grade_sample, validation_sample, write_sheet
    from medprobe.methods.meddisk.runs import scored_items

    items = [item for run in finished_runs(runs, strict) for item in scored_items(run)]
    rows = grade_sample(items, per_interval=per_interval, width=width, seed=seed)
    write_sheet(rows, output)
    err_console.print(f"{len(rows)} rows to label from {len(items)} answers")
    if validation:
        held = validation_sample(items, n=validation_size, seed=seed, exclude=rows)
        write_sheet(held, validation)
        err_console.print(f"{len(held)} validation rows in {validation}")
    print(output)


@grade_app.command("fit")
@user_errors
def grade_fit_cmd(
    sheet: Annotated[Path, typer.Argument(help="a labelled calibration sheet")],
    output: Annotated[Path, typer.Option("--output", "-o", help="thresholds JSON to write")],
    calibrated_for: Annotated[str | None, typer.Option(help="note on what the thresholds fit, e.g. the embedding model")] = None,
) -> None:
    """Choose the thresholds that agree best with the clinicians' labels."""
    from medprobe.methods.meddisk.alignment import fit_thresholds, read_sheet

    thresholds, fit_report = fit_thresholds(read_sheet(sheet), calibrated_for=calibrated_for)
    thresholds.save(output)
    table = Table("metric / type", "labelled", "thresholds", "agreement", "kappa", "base agreement", "note",
                  title=f"fitted thresholds ({fit_report['n_labelled']} labelled rows)")
    for cell, row in fit_report["cells"].items():
        table.add_row(cell, str(row["n_labelled"]), str(row["thresholds"]), _fmt(row.get("agreement")),
                      _fmt(row.get("kappa")), _fmt(row.get("base_agreement")), row.get("note", ""))
    out_console.print(table)
    print(output)


@grade_app.command("validate")
@user_errors
def grade_validate_cmd(
    sheet: Annotated[Path, typer.Argument(help="a labelled validation sheet")],
    thresholds: Annotated[Path | None, typer.Option(help="thresholds JSON (default: paper Table 12)")] = None,
) -> None:
    """Spearman correlation between clinicians' labels and the graded tiers (paper Table 2)."""
    from medprobe.methods.meddisk.alignment import read_sheet, validate
    from medprobe.methods.meddisk.grading import Thresholds

    result = validate(read_sheet(sheet), Thresholds.load(thresholds) if thresholds else Thresholds.default())
    table = Table("metric", "Spearman rho", "p", "n", "note", title="agreement with clinicians")
    for name, row in result.items():
        table.add_row(name, _fmt(row.get("rho")), _fmt(row.get("p")), str(row.get("n", "")), row.get("reason") or "")
    out_console.print(table)


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


@app.command()
@user_errors
def compare(
    run_a: Annotated[Path, typer.Argument(help="meddisk run of model A (e.g. the medical model)")],
    run_b: Annotated[Path, typer.Argument(help="meddisk run of model B (e.g. its backbone)")],
    metric: Annotated[list[str], typer.Option(help="bleu1, rouge1, cosine (repeatable; default all)")] = [],  # noqa: B006
    output: Annotated[Path | None, typer.Option("--output", "-o", help="also write the Markdown table here")] = None,
) -> None:
    """Welch's t-test per aspect, A against B (paper Table 5; * marks p < 0.05, positive t: A higher)."""
    from medprobe.methods.meddisk.grading import METRICS, check_metric
    from medprobe.methods.meddisk.runs import comparable_runs, scores_by_aspect
    from medprobe.metrics.compare import welch_by_aspect, welch_table

    names = [check_metric(name) for name in metric or list(METRICS)]
    refuse_incomplete([run_a, run_b], "compare")
    a, b = comparable_runs(run_a, run_b, names)
    columns = {name: welch_by_aspect(scores_by_aspect(a.items, name), scores_by_aspect(b.items, name)) for name in names}
    text = f"A: {a.model} ({a.setting})  B: {b.model} ({b.setting})\n\n" + welch_table(columns)
    print(text)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
