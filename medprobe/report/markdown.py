"""report.md: a common header (what was run, how it was scored, what went wrong) around the
method's own tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from medprobe.parsing.reading import UNREAD_KINDS, family_order, not_read
from medprobe.records import RunConfig


def pct(value: float | None, digits: int = 1) -> str:
    """A fraction as a percentage for tables; '–' for a value that could not be computed."""
    return "–" if value is None else f"{100 * value:.{digits}f}"


def pct_pm(value: float | None, spread: float | None, digits: int = 1) -> str:
    """A percentage with its standard error or deviation ("61.2 ± 0.4"); the value alone when
    there is no spread (e.g. a single run)."""
    return pct(value) + (f" ± {pct(spread, digits)}" if spread is not None else "")


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def render_report(summary: dict[str, Any], config: RunConfig, method_section: str) -> str:
    run = summary["run"]
    mode = summary["mode"]
    mode_text = (
        "reference-compatible (replies read by the published scripts' rules; where those fill unparsed answers at random, so does this, with the run seed)"
        if mode == "reference-compatible"
        else "strict (an unparsed answer counts as wrong)"
    )
    rows = [
        ("method", f"{summary['title']} (`{summary['method']}`)"),
        ("model", f"`{summary['model']}`"),
        ("data", f"`{summary['data']}`"),
        ("setting", summary.get("setting") or "–"),
        ("scoring mode", mode_text),
        ("seed", summary["seed"]),
        ("probes / requests", f"{run['probes']} / {run['requests']}"),
        ("answered / errors / missing", f"{run['answered']} / {run['errors']} / {run['missing']}"),
        ("empty replies: answers / failed requests", f"{run['empty_replies']} / {run.get('empty_completions', 0)}"),
        ("from cache / resumed / sent", f"{run['from_cache']} / {run['resumed']} / {run['sent']}"),
        ("medprobe revision", config.git_revision or config.versions.get("medprobe", "?")),
    ]
    if "item_error" in summary:  # a run on released data builds no item from a knowledge base
        rows.insert(3, ("estimated item error", summary["item_error"]["text"]))
    if "chat_template" in config.model_identity:  # the embedded backend's: a wrong one reads as an ignorant model
        rows.insert(2, ("chat template", config.model_identity["chat_template"]))
    parts = [f"# {summary['title']}: {summary['model']}", "", md_table(("", ""), rows), ""]
    if summary["status"] != "complete":
        parts += [f"**Status: {summary['status']}.** Failed requests count as unanswered (wrong).", ""]
        parts += [f"- `{e}`" for e in run.get("first_errors", [])] + [""]
    parts.append(method_section.rstrip())
    if summary.get("reading"):
        parts += ["", reading_section(summary["reading"])]
    if summary.get("notes"):
        parts += ["", "## Notes", ""] + [f"- {note}" for note in summary["notes"]]
    return "\n".join(parts) + "\n"


def reading_section(reading: dict[str, dict[str, int]]) -> str:
    """"How answers were read": per task, the share of replies each rule family read (see
    ``medprobe.parsing.reading``), so a format the parser cannot read shows at once."""
    families = sorted({rule for rules in reading.values() for rule in rules}, key=family_order)
    rows = []
    for task, rules in reading.items():
        total = sum(rules.values())
        failed = sum(n for rule, n in rules.items() if not_read(rule))
        rows.append([task, total, *(pct(rules.get(rule, 0) / total) if total else "–" for rule in families),
                     pct(failed / total) if total else "–"])
    intro = ("Share of replies (%) read by each rule family; *parse failures* are the replies no rule "
             "and no judge read (they count as wrong unless the scoring mode fills them at random, as the published scripts do). "
             "An *unparsed: …* column counts unread replies by why: " + ", ".join(UNREAD_KINDS) + ".")
    return "\n".join(["## How answers were read", "", intro, "",
                      md_table(["task", "replies", *families, "parse failures"], rows)])
