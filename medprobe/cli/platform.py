"""The evaluation platform: ``serve``, ``worker``, and answering or submitting probe packs (``answer``, ``submit``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from medprobe.cli.common import UNMEASURED_HELP, err_console, parse_options, user_errors
from medprobe.errors import MedprobeError

#: its commands are mounted at the top of the medprobe command (medprobe.cli)
app = typer.Typer()


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
