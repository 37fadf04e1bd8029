"""The ``medprobe`` command. Subcommands stay thin: the work happens in the library.

Contract other tools script against: ``run`` and ``score`` write a run directory under ``--out``
(default ``runs/``) and print its path on their last line of standard output. Progress goes to
standard error. Exit status: 0 done; 2 a user error, one clear message (also a run stopped because
the model failed too many requests in a row); 3 ``run`` finished but incomplete (some requests have
no answer: the summary says which errors, the same command retries them); 4 ``kb audit`` found a check
over its limit; 130 interrupted.

One module per command group; a method's own commands (e.g. MedDisKEval's ``grade``) live in its folder
and are mounted here from the method (its optional ``commands()``), so a new method brings its commands
without a change to this package.
"""

from __future__ import annotations

import sys

import click
import typer
from typer.core import TyperGroup

from medprobe.cli import cache, export, items, kb, platform, readings, runs
from medprobe.contract import available_methods, get_method


def method_commands() -> dict[str, click.Command]:
    """Every method's own commands by name (a method without ``commands()`` has none)."""
    found: dict[str, click.Command] = {}
    for name in sorted(available_methods()):
        commands = getattr(get_method(name), "commands", None)
        if commands is not None:
            found.update(typer.main.get_group(commands()).commands)
    return found


class WithMethodCommands(TyperGroup):
    """The core commands, then the methods' own. Methods are loaded only when a command is not a core
    one, or when all commands are listed: loading the four methods takes about a second, which every
    ``medprobe run`` would otherwise pay before it starts."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        core = super().list_commands(ctx)
        return [*core, *(name for name in method_commands() if name not in core)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or method_commands().get(cmd_name)


app = typer.Typer(cls=WithMethodCommands, add_completion=False, no_args_is_help=False,
                  help="Measure how deeply a language model masters medical knowledge.")
app.add_typer(runs.app)
app.add_typer(platform.app)
app.add_typer(items.items_app, name="items")
app.add_typer(kb.kb_app, name="kb")
app.add_typer(cache.cache_app, name="cache")
app.add_typer(readings.readings_app, name="readings")
app.add_typer(export.export_app, name="export")


def main() -> None:  # pragma: no cover - console entry for python -m
    app(sys.argv[1:])
