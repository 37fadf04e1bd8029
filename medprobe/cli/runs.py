"""Runs and their results: ``run`` (also ``run profile``), ``score``, ``build``, ``report``, ``leaderboard``,
``profile`` and ``models``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from medprobe.cli.common import (
    EXIT_INCOMPLETE,
    STRICT_RUNS_HELP,
    UNMEASURED_HELP,
    VERIFIED_HELP,
    err_console,
    finished_runs,
    out_console,
    parse_options,
    print_outcome,
    refuse_incomplete,
    user_errors,
)
from medprobe.contract import BuildOptions, available_methods, get_method
from medprobe.errors import MedprobeError
from medprobe.paths import output_file, writable_dir
from medprobe.redact import redacted

#: its commands are mounted at the top of the medprobe command (medprobe.cli)
app = typer.Typer()

#: ``medprobe run`` with no arguments: small samples on built-in material, fully offline
DEFAULT_JOBS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("multifacet", {"data": "builtin:en", "limit": 50}),
    ("multicog", {"data": "builtin:en,builtin:cases", "limit": 8, "repeats": 2, "options": {"cases": "1", "runs": "1"}}),
)


@app.command()
@user_errors
def run(
    method: Annotated[str | None, typer.Argument(help="a method (medprobe models lists them: meddisk, multifacet, multicog, sdak), or profile (every method on shared knowledge points); the default job when omitted")] = None,
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
        print_outcome(name, outcome.path, outcome.summary)
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
    refuse_incomplete([*runs, *against], "make the profile")
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
    print_outcome(method, outcome.path, outcome.summary)


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


@app.command()
@user_errors
def report(run_dir: Annotated[Path, typer.Argument(help="a run directory")]) -> None:
    """Print a finished run's summary table again."""
    from medprobe.jsonl import read_json

    summary = read_json(run_dir / "summary.json")
    print_outcome(summary["method"], run_dir, summary)


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


@app.command()
def models() -> None:
    """List model backends and methods."""
    from medprobe.models import BACKENDS

    table = Table("backend", "options")
    for kind, (_, _, options) in BACKENDS.items():
        table.add_row(kind, ", ".join(sorted(options)) or "–")
    out_console.print(table)
    out_console.print("methods: " + ", ".join(sorted(available_methods())))
