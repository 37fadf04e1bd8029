"""``medprobe cache``: inspect or clear the response cache."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from medprobe.cli.common import user_errors
from medprobe.errors import MedprobeError
from medprobe.redact import redacted

cache_app = typer.Typer(help="Inspect or clear the response cache.")


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
