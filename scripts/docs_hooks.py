"""MkDocs hooks: pages whose content the program itself knows are generated at build time, so they
cannot drift from it.

- ``<!-- cli-reference -->`` becomes the reference of every ``medprobe`` command, read from the Typer
  app through click's introspection (the same objects ``--help`` prints from);
- ``<!-- kb-precision -->`` becomes the table ``medprobe kb precision --json`` prints, i.e. the blind
  readings that ship with this version;
- ``<!-- metrics-schema METHOD -->`` becomes the JSON Schema of what a METHOD run's ``summary.json`` holds
  under ``metrics``, from the method's typed results model (its ``results_model``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

#: the repository root: the site documents this checkout's medprobe, not another installed copy
ROOT = Path(__file__).resolve().parents[1]
CLI_MARKER = "<!-- cli-reference -->"
PRECISION_MARKER = "<!-- kb-precision -->"
SCHEMA_MARKER = re.compile(r"<!-- metrics-schema (\w+) -->")


def _checkout_first() -> None:
    """Import this checkout's medprobe, not another installed copy."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _app() -> Any:
    """The Typer app of this checkout."""
    _checkout_first()
    from medprobe.cli import app

    return app


def _cell(text: object) -> str:
    """A Markdown table cell: one line, pipes and angle brackets escaped."""
    flat = " ".join(str(text).split())
    return flat.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _param_row(param: Any, ctx: Any) -> str:
    """One parameter as ``--help`` shows it (names, value, meaning, default, range). Typer ships its own
    copy of click, so commands and parameters are read by their methods, not by click's classes."""
    names, meaning = param.get_help_record(ctx)
    return f"| `{' '.join(names.split())}` | {_cell(meaning)} |"


def _command_section(command: Any, path: list[str], parent: Any) -> list[str]:
    ctx = command.context_class(command, info_name=path[-1], parent=parent)
    title = " ".join(path)
    lines = [f"{'#' * min(len(path), 4)} `{title}`", ""]
    if command.help:
        lines += [command.help.replace("\b\n", "").strip(), ""]
    usage = " ".join(command.collect_usage_pieces(ctx))
    lines += ["```text", f"{title} {usage}".rstrip(), "```", ""]
    params = [p for p in command.params if not getattr(p, "hidden", False)]
    if params:
        lines += ["| parameter | meaning |", "|---|---|"]
        lines += [_param_row(p, ctx) for p in params]
        lines.append("")
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                lines += _command_section(sub, [*path, name], ctx)
    return lines


def cli_reference() -> str:
    """Markdown for every command and sub-command, in the order ``--help`` lists them."""
    import typer

    return "\n".join(_command_section(typer.main.get_command(_app()), ["medprobe"], None))


def precision_table() -> str:
    """The shipped blind-read precision per cell: the rows ``medprobe kb precision --json`` prints."""
    _checkout_first()
    from medprobe.precision import table_rows
    from medprobe.sources.builtin import VERSIONS

    rows: list[dict[str, Any]] = [row for language in VERSIONS for row in table_rows(language)]
    if not rows:
        return "No blind reading measures the current builders' questions: every aspect is opt-in."
    lines = ["| KB | aspect | type | right/read | precision | 95 % interval | by default |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| builtin:{r['language']} | {_cell(r['aspect'])} | {r['type']} | {r['read'] - r['bad']}/{r['read']} "
                     f"| {100 * r['precision']:.1f} % | {100 * r['low']:.1f}–{100 * r['high']:.1f} % "
                     f"| {'asked' if r['ships'] else 'opt-in'} |")
    return "\n".join(lines)


def metrics_schema(method: str) -> str:
    """The JSON Schema of a method's ``summary.json`` metrics, as a fenced block."""
    _checkout_first()
    from medprobe.contract import get_method

    schema = get_method(method).results_model.model_json_schema()  # type: ignore[attr-defined]
    return "```json\n" + json.dumps(schema, indent=2, ensure_ascii=False) + "\n```"


def on_page_markdown(markdown: str, **_: Any) -> str:
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    if PRECISION_MARKER in markdown:
        markdown = markdown.replace(PRECISION_MARKER, precision_table())
    markdown = SCHEMA_MARKER.sub(lambda found: metrics_schema(found.group(1)), markdown)
    return markdown
