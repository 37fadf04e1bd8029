"""The ``medprobe`` command. Subcommands stay thin: the work happens in the library.

Contract other tools script against: ``run`` and ``score`` write a run directory under ``--out``
(default ``runs/``) and print its path on their last line of standard output. Progress goes to
standard error. Exit status: 0 done; 2 a user error, one clear message (also a run stopped because
the model failed too many requests in a row); 3 ``run`` finished but incomplete (some requests have
no answer: the summary says which errors, the same command retries them); 4 ``kb audit`` found a check
over its limit; 130 interrupted.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from medprobe.contract import BuildOptions, available_methods, get_method
from medprobe.errors import MedprobeError
from medprobe.paths import NO_SPACE, NO_SPACE_HINT, output_file, writable_dir
from medprobe.redact import redacted
from medprobe.sources.audit_checks import CHECKS_BY_KEY, DISTRACTOR_SAMPLE

app = typer.Typer(add_completion=False, no_args_is_help=False, help="Measure how deeply a language model masters medical knowledge.")
kb_app = typer.Typer(help="Build, inspect and validate knowledge bases.")
cache_app = typer.Typer(help="Inspect or clear the response cache.")
cases_app = typer.Typer(help="Clinical cases for the full-path diagnosis task (MultiCogEval high level).")
grade_app = typer.Typer(help="Expert-aligned grading (MedDisKEval): calibrate tier thresholds with clinicians' labels.")
items_app = typer.Typer(help="Verified items: review sheets of generated questions for clinicians, and their verdicts.")
app.add_typer(grade_app, name="grade")
app.add_typer(items_app, name="items")
app.add_typer(kb_app, name="kb")
app.add_typer(cases_app, name="cases")
app.add_typer(cache_app, name="cache")
readings_app = typer.Typer(help="Check the strict answer reader on your own model: a review sheet of a run's replies, and its score.")
app.add_typer(readings_app, name="readings")


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

#: ``medprobe run`` with no arguments: small samples on built-in material, fully offline
DEFAULT_JOBS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("multifacet", {"data": "builtin:en", "limit": 50}),
    ("multicog", {"data": "builtin:en,builtin:cases", "limit": 8, "repeats": 2, "options": {"cases": "1", "runs": "1"}}),
)


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


def _print_outcome(method_name: str, path: Path, summary: dict[str, Any]) -> None:
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


@app.command()
@user_errors
def run(
    method: Annotated[str | None, typer.Argument(help="meddisk, multifacet, multicog, sdak, or profile (all four on shared knowledge points); the default job when omitted")] = None,
    model: Annotated[str, typer.Option("--model", "-m", help="llamacpp:default | llamacpp:PATH.gguf | openai:MODEL@URL | random | replay:FILE")] = "llamacpp:default",
    data: Annotated[str | None, typer.Option(help="source: a folder of released data, a KB file, or builtin:en / builtin:zh")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="evaluate a seeded sample of N knowledge points")] = None,
    repeats: Annotated[int | None, typer.Option(min=1, help="independent repetitions; metrics get mean ± SE (method default when omitted)")] = None,
    seed: Annotated[int, typer.Option(help="seed for sampling, distractors, random fill and tie breaks")] = 0,
    out: Annotated[Path, typer.Option(help="where run directories go")] = Path("runs"),
    setting: Annotated[str | None, typer.Option(help="method setting, e.g. ao or cot-sc for multifacet")] = None,
    level: Annotated[str | None, typer.Option(help="multicog: low, mid, high or a comma list (default: all)")] = None,
    method_option: Annotated[list[str], typer.Option("-X", help="method option key=value, e.g. judge=MODEL, generator=MODEL")] = [],  # noqa: B006
    prompt_style: Annotated[str, typer.Option(help="chat (messages) or completion (plain text)")] = "chat",
    reference_compatible: Annotated[bool, typer.Option("--reference-compatible", help="fill unparsed answers at random like the published scripts")] = False,
    temperature: Annotated[float | None, typer.Option(min=0.0, help="override the method's temperature")] = None,
    max_tokens: Annotated[int | None, typer.Option(min=1, help="override the method's max tokens")] = None,
    option: Annotated[list[str], typer.Option("-O", help="backend option key=value (n_ctx, threads, chat_format, concurrency, timeout, retries, key_env)")] = [],  # noqa: B006
    verified: Annotated[Path | None, typer.Option(help=VERIFIED_HELP)] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="neither read nor write the response cache")] = False,
    fresh: Annotated[bool, typer.Option("--fresh", help="start a new run directory instead of resuming an unfinished one")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Build probes, ask the model, score, and write a run directory."""
    from medprobe.engine.pipeline import RunPlan
    from medprobe.engine.pipeline import run as run_plan

    if prompt_style not in ("chat", "completion"):
        raise MedprobeError(f"unknown prompt style '{prompt_style}'", field="--prompt-style", hint="chat or completion")
    writable_dir(out, "--out")
    options = parse_options(method_option, "-X")
    if method == "profile":
        builds = _profile_builds(data, limit, seed, repeats, options, setting, level, include_unmeasured)
    else:
        builds = [
            (name, BuildOptions(data=job["data"], limit=job["limit"], seed=seed, setting=setting, level=level, repeats=job.get("repeats"), options=job["options"]))
            for name, job in _jobs(method, model, data, limit, repeats, options)
        ]
    incomplete = False
    paths = []
    for name, build_options in builds:
        plan = RunPlan(
            method=name,
            build=replace(build_options, temperature=temperature, max_tokens=max_tokens, verified=_path(verified),
                          include_unmeasured=include_unmeasured),
            model=model,
            model_options=parse_options(option),
            out=out,
            prompt_style=prompt_style,  # type: ignore[arg-type]
            repeats=1 if build_options.points is not None else repeats or 1,
            reference_compatible=reference_compatible,
            temperature=temperature,
            max_tokens=max_tokens,
            use_cache=not no_cache,
            fresh=fresh,
            progress=not quiet,
        )
        outcome = run_plan(plan)
        if outcome.resumed:
            err_console.print(f"resumed the unfinished run in {outcome.path}")
        _print_outcome(name, outcome.path, outcome.summary)
        run_info = outcome.summary["run"]
        if run_info["answered"] and run_info["empty_replies"] == run_info["answered"]:
            raise MedprobeError(
                f"the model returned empty text for all {run_info['answered']} requests",
                hint="check the model's chat template (try --prompt-style completion), stop strings and --max-tokens",
            )
        incomplete = incomplete or outcome.summary["status"] != "complete"
        paths.append(outcome.path)
    if method == "profile" and incomplete:
        err_console.print("[bold red]no profile written[/]: some runs are incomplete; run the same command again to finish them")
    elif method == "profile":
        _write_profile(paths, [], out, None)
    if incomplete:
        raise typer.Exit(EXIT_INCOMPLETE)


def _jobs(method: str | None, model: str, data: str | None, limit: int | None, repeats: int | None, options: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """The method asked for, or the default job (said on standard error)."""
    if method is not None:
        return [(method, {"data": data, "limit": limit, "repeats": repeats, "options": options})]
    jobs = [(name, {**defaults, "options": {**defaults.get("options", {}), **options}}) for name, defaults in DEFAULT_JOBS]
    summary = ", ".join(f"{name} on {job['data']}" for name, job in jobs)
    err_console.print(f"[bold]medprobe[/]: default job — {escape(summary)}, model {escape(redacted(model))}")
    return jobs


def _profile_builds(
    data: str | None, limit: int | None, seed: int, repeats: int | None, options: dict[str, str], setting: str | None, level: str | None,
    include_unmeasured: bool,
) -> list[tuple[str, BuildOptions]]:
    """``run profile``: the shared sample of knowledge points and every method's build on it."""
    from medprobe.profile.points import profile_builds

    given = [flag for flag, value in (("-X", options), ("--setting", setting), ("--level", level)) if value]
    if given:
        raise MedprobeError(f"run profile takes no {', '.join(given)}", hint="every method runs with its defaults on the shared points")
    if data is None or limit is None:
        raise MedprobeError("run profile needs --data (a knowledge base) and --limit (knowledge points)", hint="e.g. --data builtin:zh --limit 50")
    points, builds = profile_builds(data, limit=limit, seed=seed, repeats=repeats or 1, include_unmeasured=include_unmeasured)
    err_console.print(f"[bold]medprobe[/]: profile of {len(points.ids)} knowledge points of {escape(data)}: {', '.join(m for m, _ in builds)}")
    return builds


def _write_profile(runs: list[Path], against: list[Path], out: Path, output: Path | None) -> None:
    from medprobe.profile.analysis import build_profile
    from medprobe.profile.join import join_runs
    from medprobe.profile.report import against_table, profile_table, write_profile

    profile = build_profile(join_runs(runs), join_runs(against) if against else None)
    folder = write_profile(profile, out, output)
    out_console.print(profile_table(profile))
    if profile["against"]:
        out_console.print(against_table(profile))
    print(folder, flush=True)


@app.command("profile")
@user_errors
def profile_cmd(
    runs: Annotated[list[Path], typer.Argument(help="the runs of one model written by `medprobe run profile` (or its profile folder)")],
    against: Annotated[list[Path], typer.Option(help="the runs (or profile folder) of a second model on the same points; repeatable")] = [],  # noqa: B006
    out: Annotated[Path, typer.Option(help="where the profile folder goes")] = Path("runs"),
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write into this folder instead")] = None,
) -> None:
    """Join a model's runs point by point: scores per method and aspect, illusions, agreement, diseases
    (report.md, profile.html, profile.json); --against compares a second model (Welch's t per method and aspect)."""
    from medprobe.profile.join import expand_runs

    writable_dir(output or out, "--output" if output else "--out")
    runs, against = expand_runs(runs), expand_runs(against)
    _refuse_incomplete([*runs, *against], "make the profile")
    _write_profile(runs, against, out, output)


@app.command()
@user_errors
def score(
    method: Annotated[str, typer.Argument(help="the method whose responses these are")],
    responses: Annotated[Path, typer.Option(help="a run directory (--format medprobe) or another tool's result folder")],
    format: Annotated[str, typer.Option("--format", help="medprobe, inspect-log, lm-eval-samples, or a method import format such as multifaceteval-raw")] = "medprobe",
    data: Annotated[str | None, typer.Option(help="source data, when the format needs it")] = None,
    setting: Annotated[str | None, typer.Option(help="setting of the imported responses (e.g. cot-sc)")] = None,
    name: Annotated[str | None, typer.Option(help="model name inside a result folder holding several")] = None,
    reference_compatible: Annotated[bool, typer.Option("--reference-compatible")] = False,
    seed: Annotated[int | None, typer.Option(help="seed for random fill and ties (default: the scored run's, else 0)")] = None,
    out: Annotated[Path, typer.Option()] = Path("runs"),
    method_option: Annotated[list[str], typer.Option("-X", help="scoring option key=value, e.g. thresholds=FILE, embedder=NAME")] = [],  # noqa: B006
) -> None:
    """Score existing responses into a new run directory."""
    from medprobe.engine.pipeline import rescore

    writable_dir(out, "--out")
    build = BuildOptions(data=data, setting=setting, name=name)
    outcome = rescore(
        method, responses, format, build, out=out, reference_compatible=reference_compatible, seed=seed,
        scoring_options=parse_options(method_option, "-X"),
    )
    _print_outcome(method, outcome.path, outcome.summary)


@app.command()
@user_errors
def build(
    method: Annotated[str, typer.Argument()],
    output: Annotated[Path, typer.Option("--output", "-o", help="probes JSONL to write")],
    data: Annotated[str | None, typer.Option()] = None,
    limit: Annotated[int | None, typer.Option(min=1)] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    verified: Annotated[Path | None, typer.Option(help=VERIFIED_HELP)] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
) -> None:
    """Build probes without a model and export them as JSONL (answer them anywhere, then
    `medprobe run METHOD --model replay:ANSWERS.jsonl`)."""
    from medprobe.jsonl import write_records
    from medprobe.verification import verified_probe_set

    output_file(output, "--output")
    options = BuildOptions(data=data, limit=limit, seed=seed, setting=setting, verified=_path(verified), include_unmeasured=include_unmeasured)
    probe_set = verified_probe_set(get_method(method), options)
    write_records(output, probe_set.probes)
    err_console.print(f"{len(probe_set.probes)} probes; decoding {probe_set.generation.model_dump()}; samples {probe_set.samples}")
    for note in probe_set.info.get("notes", []):
        err_console.print(f"[dim]note: {escape(note)}[/]")
    print(output)


def _path(value: Path | None) -> str | None:
    return None if value is None else str(value)


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


@app.command()
@user_errors
def report(run_dir: Annotated[Path, typer.Argument(help="a run directory")]) -> None:
    """Print a finished run's summary table again."""
    from medprobe.jsonl import read_json

    summary = read_json(run_dir / "summary.json")
    _print_outcome(summary["method"], run_dir, summary)


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


@app.command()
@user_errors
def leaderboard(
    runs: Annotated[list[Path], typer.Argument(help="run directories of one method (unfinished ones are skipped)")],
    strict: Annotated[bool, typer.Option("--strict", help=STRICT_RUNS_HELP)] = False,
) -> None:
    """Rank finished runs of one method (its paper's headline table: e.g. Table 4 for meddisk), with each
    run's estimated item error (rate and 95% interval; "not measured" on your own KB; n/a on released data)."""
    from medprobe.gating import item_error_cell
    from medprobe.jsonl import read_json

    summaries = [read_json(run / "summary.json") for run in finished_runs(runs, strict)]
    methods = {s["method"] for s in summaries}
    if len(methods) != 1:
        raise MedprobeError(f"runs of several methods: {', '.join(sorted(methods))}", hint="rank runs of one method at a time")
    method = get_method(methods.pop())
    rows = sorted(((s, method.headline(s)) for s in summaries), key=lambda pair: pair[1]["_sort"], reverse=True)
    columns = [c for c in rows[0][1] if not c.startswith("_")]
    table = Table("model", "data", *columns, "item error", title=f"{method.title} leaderboard")
    for summary, row in rows:
        table.add_row(escape(str(summary["model"])) + _incomplete_mark(summary), escape(str(summary["data"])),
                      *(row.get(c, "–") for c in columns), item_error_cell(summary))
    out_console.print(table)


def _incomplete_mark(summary: dict[str, Any]) -> str:
    """What a leaderboard row says of an incomplete run: requests not all answered (unanswered ones
    count as wrong, so its scores are lower bounds), or items a generator could not write."""
    if summary.get("status", "complete") == "complete":
        return ""
    run = summary.get("run", {})
    unbuilt = sum(record["items"] for record in run.get("unbuilt", []))
    if unbuilt:
        return f" [bold red](incomplete: {unbuilt} items could not be built)[/]"
    return f" [bold red](incomplete: {run.get('errors', 0) + run.get('missing', 0)} of {run.get('requests', '?')} requests unanswered)[/]"


def _refuse_incomplete(runs: list[Path], command: str) -> None:
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


@app.command()
def models() -> None:
    """List model backends and methods."""
    from medprobe.models import BACKENDS

    table = Table("backend", "options")
    for kind, (_, _, options) in BACKENDS.items():
        table.add_row(kind, ", ".join(sorted(options)) or "–")
    out_console.print(table)
    out_console.print("methods: " + ", ".join(sorted(available_methods())))


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
    _refuse_incomplete([run_a, run_b], "compare")
    a, b = comparable_runs(run_a, run_b, names)
    columns = {name: welch_by_aspect(scores_by_aspect(a.items, name), scores_by_aspect(b.items, name)) for name in names}
    text = f"A: {a.model} ({a.setting})  B: {b.model} ({b.setting})\n\n" + welch_table(columns)
    print(text)
    if output:
        output.write_text(text + "\n", encoding="utf-8")


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


@cache_app.command("stats")
@user_errors
def cache_stats() -> None:
    from medprobe.engine.cache import ResponseCache

    print(json.dumps(ResponseCache().stats(), indent=2))


@cache_app.command("clear")
@user_errors
def cache_clear(
    model: Annotated[str | None, typer.Option(help="only this model id")] = None,
    force: Annotated[bool, typer.Option("--force", help="remove the cache file without opening it (a damaged cache)")] = False,
) -> None:
    from medprobe.engine.cache import ResponseCache, default_cache_path, remove_database

    if force:
        if model is not None:
            raise MedprobeError("--force removes the whole cache file", field="--model", hint="leave out --model, or --force")
        removed = remove_database(default_cache_path())
        print(f"removed {', '.join(map(str, removed))}" if removed else "no cache file to remove")
        return
    print(f"removed {ResponseCache().clear(model and redacted(model))} cached responses")


@app.command()
@user_errors
def serve(
    db: Annotated[str | None, typer.Option(help="sqlite:///FILE or postgresql://USER:PASS@HOST/DB (default: $MEDPROBE_HOME/platform.sqlite)")] = None,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    workers: Annotated[int, typer.Option(min=0, help="scoring worker processes (0: none, run `medprobe worker` yourself)")] = 1,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help="the demo benchmark made on first start: " + UNMEASURED_HELP)] = False,
    reset_password: Annotated[str | None, typer.Option("--reset-password", metavar="EMAIL",
                                                       help="give this account a new password, print it and exit (no server)")] = None,
) -> None:
    """The evaluation platform: publish probe packs, take submissions, score them, show leaderboards."""
    platform_extra()
    from medprobe.platform import serve as platform

    if reset_password is not None:
        print(f"new password for {reset_password.strip().lower()}: {platform.reset_password(db or platform.default_db(), reset_password)}")
        return
    platform.serve(db or platform.default_db(), host, port, workers, include_unmeasured=include_unmeasured)


@app.command()
@user_errors
def answer(
    pack: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="a probe pack (pack.jsonl from a benchmark's page)")],
    model: Annotated[str, typer.Option(help="the model to ask, as for `run` (openai:MODEL@URL, llamacpp:…, random)")],
    out: Annotated[Path, typer.Option("-o", "--out", help="answers file to write (JSONL); run again, it asks only what is missing")],
    option: Annotated[list[str], typer.Option("-O", help="backend option key=value, as for `run` (concurrency, timeout, key_env…)")] = [],  # noqa: B006
    prompt_style: Annotated[str, typer.Option(help="chat (messages) or completion (plain text)")] = "chat",
    no_cache: Annotated[bool, typer.Option("--no-cache", help="do not use the response cache")] = False,
) -> None:
    """Answer a downloaded probe pack with a model, ready for the upload form or `medprobe submit`."""
    from medprobe.platform.answer import answer_pack

    if prompt_style not in ("chat", "completion"):
        raise MedprobeError(f"unknown prompt style '{prompt_style}'", field="--prompt-style", hint="chat or completion")
    stats = answer_pack(pack, model, out, model_options=parse_options(option), style=prompt_style,  # type: ignore[arg-type]
                        use_cache=not no_cache)
    print(f"{out}: {stats.total - stats.errors} of {stats.total} answered ({stats.resumed} already, {stats.from_cache} from the cache, "
          f"{stats.sent} asked, {stats.errors} failed{'; run again to retry them' if stats.errors else ''})")


def platform_extra() -> None:
    """The server's packages come with the `platform` extra; say so instead of an ImportError."""
    import importlib.util

    missing = [name for name in ("fastapi", "sqlalchemy", "alembic", "dbos", "swagger_ui_bundle") if importlib.util.find_spec(name) is None]
    if missing:
        raise MedprobeError(f"the platform needs {', '.join(missing)}", hint="scripts/setup.sh platform (or pip install -e '.[platform]')")


@app.command()
@user_errors
def worker(
    db: Annotated[str | None, typer.Option(help="the platform's database URL (as for serve)")] = None,
    executor: Annotated[str, typer.Option(help="executor id: a restarted worker with the same id resumes its jobs")] = "worker-0",
) -> None:
    """Run the platform's scoring jobs (`medprobe serve` starts one by itself)."""
    platform_extra()
    from medprobe.platform.serve import default_db
    from medprobe.platform.worker import run_worker

    run_worker(db or default_db(), executor)


@app.command()
@user_errors
def submit(
    benchmark: Annotated[str, typer.Argument(help="the benchmark's short name on the server")],
    answers: Annotated[Path, typer.Argument(help='JSONL lines {"probe_id", "sample", "text"} (or CSV probe_id,sample,text)')],
    server: Annotated[str, typer.Option(help="the platform's address, e.g. http://127.0.0.1:8000")],
    model: Annotated[str, typer.Option(help="model name shown with the results")],
    token: Annotated[str, typer.Option(envvar="MEDPROBE_TOKEN", help="API token (or $MEDPROBE_TOKEN)")] = "",
    organisation: Annotated[str, typer.Option()] = "",
    prompt_style: Annotated[str, typer.Option(help="chat, completion (the pack's prompts) or own")] = "chat",
    public: Annotated[bool, typer.Option("--public", help="show the result on the leaderboard")] = False,
    wait: Annotated[float, typer.Option(help="seconds to wait for the score (0: do not wait)")] = 0.0,
) -> None:
    """Upload answers to a platform server; prints the submission's status and address."""
    from medprobe.platform.client import submit as send

    found = send(server, benchmark, answers, token=token, model=model, organisation=organisation,
                 prompt_style=prompt_style, public=public, wait=wait)
    err_console.print(f"submission {found['id']}: {found['status']}" + (f" — {escape(found['error'])}" if found.get("error") else ""))
    for name, value in ((found.get("headline") or {}).get("columns") or {}).items():
        err_console.print(f"  {escape(name)}: {escape(str(value))}")
    print(found["url"])


export_app = typer.Typer(help="Export probe sets for other tools: lm-evaluation-harness tasks, Hugging Face datasets.")
app.add_typer(export_app, name="export")


@export_app.command("lm-eval")
@user_errors
def export_lm_eval(
    folder: Annotated[Path, typer.Argument(help="task folder for lm_eval --include_path (created; other tasks in it are kept)")],
    method: Annotated[list[str], typer.Option(help="multifacet, multicog_lowmid, sdak or meddisk (repeatable; default: all four)")] = [],  # noqa: B006
    data: Annotated[str | None, typer.Option(help="as for run (each method's default when omitted)")] = None,
    limit: Annotated[int | None, typer.Option(min=1)] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    repeats: Annotated[int | None, typer.Option(min=1, help="multicog_lowmid, sdak: repetitions built as probes of their own")] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
    server_family: Annotated[str, typer.Option(help="names of top-k / repetition penalty in requests: vllm or llamacpp")] = "vllm",
) -> None:
    """Write lm-evaluation-harness tasks (medprobe_<method>) whose metrics are the method's own."""
    from medprobe.integrations.harness import TASKS, build_harness_set
    from medprobe.integrations.lm_eval_tasks import export_task

    writable_dir(folder, "FOLDER")
    for task in method or list(TASKS):
        built = build_harness_set(task, data=data, limit=limit, seed=seed, setting=setting, repeats=repeats,
                                  include_unmeasured=include_unmeasured)
        path = export_task(built, folder, server_family)
        err_console.print(f"{escape(path.stem)}: {len(built.probe_set.probes)} probes")
    print(folder)


@export_app.command("hf")
@user_errors
def export_hf(
    folder: Annotated[Path, typer.Argument(help="dataset folder: test.parquet and README.md (the dataset card)")],
    method: Annotated[str | None, typer.Option(help="the method whose probes to export")] = None,
    pack: Annotated[Path | None, typer.Option(help="a platform pack (pack.jsonl) to export instead: no gold")] = None,
    data: Annotated[str | None, typer.Option()] = None,
    limit: Annotated[int | None, typer.Option(min=1)] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    level: Annotated[str | None, typer.Option(help="multicog: low, mid, high or a comma list")] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
) -> None:
    """Write a probe set (or a platform pack) as a Hugging Face dataset: Parquet plus a dataset card."""
    from medprobe.integrations.hf_dataset import export_pack, export_probe_set, pyarrow_module
    from medprobe.verification import verified_probe_set

    if (method is None) == (pack is None):
        raise MedprobeError("give either --method (a probe set) or --pack (a platform pack)", hint="e.g. --method multifacet --data builtin:en")
    writable_dir(folder, "FOLDER")
    pyarrow_module()
    if pack is not None:
        export_pack(pack, folder)
    else:
        chosen = get_method(method)
        options = BuildOptions(data=data, limit=limit, seed=seed, setting=setting, level=level, include_unmeasured=include_unmeasured)
        export_probe_set(chosen, options, verified_probe_set(chosen, options), folder)
    print(folder)


def main() -> None:  # pragma: no cover - console entry for python -m
    app(sys.argv[1:])


if __name__ == "__main__":  # pragma: no cover
    main()
