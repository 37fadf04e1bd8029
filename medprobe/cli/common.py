"""What every command group shares: the consoles, the exit statuses, the user-error rule, and the
checks of run directories given on the command line."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from medprobe.contract import get_method
from medprobe.errors import MedprobeError
from medprobe.paths import NO_SPACE, NO_SPACE_HINT
from medprobe.redact import redacted

#: the width given to output that is not a terminal (wide enough for any table medprobe prints)
UNBOUNDED_WIDTH = 10_000


def _console(stderr: bool = False) -> Console:
    """Rich's layout at a terminal's width; piped or redirected (and no COLUMNS), lines as wide as they
    need: rich assumes 80 columns off a terminal and cut every leaderboard cell to a few characters."""
    stream = sys.stderr if stderr else sys.stdout
    unbounded = not stream.isatty() and "COLUMNS" not in os.environ
    return Console(stderr=stderr, width=UNBOUNDED_WIDTH if unbounded else None)


out_console = _console()
err_console = _console(stderr=True)
#: exit status of a run that finished with requests left unanswered (scripts and CI must notice)
EXIT_INCOMPLETE = 3
#: exit status of ``kb audit`` when a check is over its limit
EXIT_AUDIT = 4
VERIFIED_HELP = "a verification file (medprobe items apply): leave out knowledge points with an item flagged wrong or ambiguous"
UNMEASURED_HELP = ("on builtin:en / builtin:zh, also ask the aspects whose questions blind reading has not measured "
                   "precise enough (left out by default; the report says which were added)")
F = TypeVar("F", bound=Callable[..., Any])


def user_errors(func: F) -> F:
    """Print MedprobeError without a traceback and exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MedprobeError as exc:
            err_console.print(f"[bold red]error:[/] {escape(redacted(exc.render()))}", highlight=False)
            raise typer.Exit(2) from None
        except OSError as exc:
            if exc.errno not in NO_SPACE:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            err_console.print(f"[bold red]error:[/] {escape(where)}no space left on the device ({escape(exc.strerror or '')})\n"
                              f"  hint: {NO_SPACE_HINT}", highlight=False)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            err_console.print("[yellow]interrupted[/]: run the same command again to resume; finished answers are kept")
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def parse_options(pairs: list[str], flag: str = "-O") -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise MedprobeError(f"expected key=value, got '{pair}'", field=flag)
        options[key.strip()] = value.strip()
    return options


def print_outcome(method_name: str, path: Path, summary: dict[str, Any]) -> None:
    out_console.print(get_method(method_name).table(summary))
    if "item_error" in summary:
        out_console.print(f"estimated item error: {escape(summary['item_error']['text'])}", highlight=False)
    run = summary["run"]
    if run["errors"] or run["missing"]:
        empty = f" ({run['empty_completions']} of them empty completions)" if run.get("empty_completions") else ""
        err_console.print(f"[bold red]{run['errors']} request(s) failed[/]{empty}; see report.md. Run the same command again to retry them.")
    if run["empty_replies"]:
        err_console.print(f"[yellow]warning:[/] {run['empty_replies']} empty replies (counted as unparsed)")
    for note in summary.get("notes", []):
        err_console.print(f"[dim]note: {note}[/]")
    print(path, flush=True)


STRICT_RUNS_HELP = "refuse an unfinished run directory (no summary.json) instead of skipping it with a warning"


def finished_runs(runs: list[Path], strict: bool) -> list[Path]:
    """The run directories that have finished. An unfinished one (a run still going, or killed: the same
    command resumes it) is normal in a runs folder, so a glob over the folder skips it with a warning;
    ``strict`` refuses it instead."""
    finished = []
    for run in runs:
        if (run / "summary.json").is_file():
            finished.append(run)
        elif strict or not run.is_dir():
            raise MedprobeError("not a finished run directory (no summary.json)", file=run,
                                hint="run its command again to finish it, or leave it out")
        else:
            err_console.print(f"[yellow]skipped[/] {escape(str(run))}: unfinished (no summary.json yet)", highlight=False)
    if not finished:
        raise MedprobeError("none of the run directories has finished", hint="finish a run first (run its command again)")
    return finished


def refuse_incomplete(runs: list[Path], command: str) -> None:
    """A comparison or profile is made of complete runs only: a request without an answer counts as a
    wrong answer, and the difference it makes would read as one between models."""
    from medprobe.jsonl import read_json

    for run in runs:
        path = run / "summary.json"
        summary = read_json(path) if path.is_file() else {"status": "unfinished (no summary.json)"}
        status = summary.get("status", "complete") if isinstance(summary, dict) else "no run (summary.json holds no object)"
        if status != "complete":
            raise MedprobeError(f"the run is {status}", file=run,
                                hint=f"run the command that made it again to answer what is missing, then {command}")
