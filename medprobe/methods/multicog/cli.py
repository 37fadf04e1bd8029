"""MultiCogEval's own commands: ``cases`` (the clinical cases of the full-path diagnosis task), mounted by
``medprobe`` (medprobe.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from medprobe.cli.common import err_console, out_console, user_errors

#: its commands are mounted at the top of the medprobe command (medprobe.cli)
app = typer.Typer()
cases_app = typer.Typer(help="Clinical cases for the full-path diagnosis task (MultiCogEval high level).")
app.add_typer(cases_app, name="cases")


@cases_app.command("import-mimic")
@user_errors
def cases_import_mimic(
    records: Annotated[Path, typer.Argument(help="all_hadm_info_first_diag.pkl (or JSON of the same shape)")],
    meta: Annotated[Path, typer.Option(help="folder with meta_lab_tests_UMLS_ext.json (MultiCogEval mimic-iv metadata)")],
    output: Annotated[Path, typer.Option("--output", "-o", help="case JSONL to write")],
    lab_labels: Annotated[Path | None, typer.Option(help="MIMIC-IV hosp/d_labitems.csv(.gz)")] = None,
    micro_labels: Annotated[Path | None, typer.Option(help="MIMIC-IV hosp/microbiologyevents.csv(.gz)")] = None,
    diseases: Annotated[Path | None, typer.Option(help="hadm_ids_dict.json, for flat {hadm_id: record} files")] = None,
) -> None:
    """Turn your own credentialed MIMIC-IV records into medprobe cases (see medprobe/methods/multicog/dialogue/mimic.py)."""
    from medprobe.jsonl import write_records
    from medprobe.methods.multicog.dialogue.mimic import import_mimic

    cases = import_mimic(records, meta_dir=meta, lab_labels=lab_labels, micro_labels=micro_labels, diseases_path=diseases)
    write_records(output, cases)
    err_console.print(f"{len(cases)} cases, {len({c.disease for c in cases})} diseases")
    print(output)


@cases_app.command("stats")
@user_errors
def cases_stats(source: Annotated[str, typer.Argument(help="builtin:cases, a case JSONL or an AgentClinic JSONL")] = "builtin:cases") -> None:
    """Cases, diseases and exam items per type."""
    from medprobe.methods.multicog.dialogue.cases import EXAM_TYPES, load_cases

    cases = load_cases(source)
    table = Table("cases", "diseases", *(f"{k} items" for k in EXAM_TYPES), *(f"cases without {k}" for k in EXAM_TYPES), title=source)
    table.add_row(
        str(len(cases)), str(len({c.disease for c in cases})),
        *(str(sum(len(c.exams_of(k)) for c in cases)) for k in EXAM_TYPES),
        *(str(sum(1 for c in cases if not c.exams_of(k))) for k in EXAM_TYPES),
    )
    out_console.print(table)
