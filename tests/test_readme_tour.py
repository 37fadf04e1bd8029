"""The README's five-minute tour, run line by line as written: the placeholders MODEL and OTHER point at
the package's mock server, ``../shared`` at the public data (lines that read it skip when it is absent).
Each command must exit 0; the random rows must show the numbers the README states."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_DATA

from testing.mock_server import MockOpenAI, serve_in_thread

README = Path(__file__).resolve().parents[1] / "README.md"
#: lines of the tour the test leaves out, and why
LEFT_OUT = {
    "medprobe run": "the default job on the embedded model is `make run` itself",
}


def tour_commands(readme: str = README.read_text(encoding="utf-8")) -> list[str]:
    """The tour's commands: continuation lines joined, comments and blank lines dropped."""
    block = readme.split("## A five-minute tour", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands, current = [], ""
    for line in block.splitlines():
        code = re.sub(r"\s+#.*$", "", line) if not line.lstrip().startswith("python -c") else line
        if not code.strip() or code.lstrip().startswith("#"):
            continue
        current += code.rstrip().removesuffix("\\")
        if not code.rstrip().endswith("\\"):
            commands.append(" ".join(current.split()))
            current = ""
    return commands


def mock_reply(body: dict[str, Any]) -> str:
    """Usable material for the generator's prompts; "A" to anything else (a model that always says A)."""
    text = str(body["messages"][-1]["content"]) if "messages" in body else str(body.get("prompt", ""))
    if text.rstrip().endswith("Distractor:"):
        return f"Distractor: an invented option {abs(hash(text)) % 10_000}"
    if "Given option:" in text and "Correct answer:" in text:
        given, gold = text.rsplit("Given option: ", 1)[1][0], text.rsplit("Correct answer: ", 1)[1][0]
        return f"Statement: Option {given} answers the question.\nLabel: {given == gold}"
    return "A"


def last_summary(stdout: str, cwd: Path) -> dict[str, Any]:
    return json.loads((cwd / stdout.strip().splitlines()[-1] / "summary.json").read_text(encoding="utf-8"))


def test_every_tour_command_runs_as_written(tmp_path: Path) -> None:
    if not SHARED_DATA.exists():
        pytest.skip(f"{SHARED_DATA} is absent: the tour reads ../shared/data")
    commands = tour_commands()
    assert len(commands) >= 20, commands
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "shared").symlink_to(SHARED_DATA.parent)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}
    assert shutil.which("medprobe", path=env["PATH"]), "the medprobe console script is installed beside python"
    with serve_in_thread(MockOpenAI(reply=mock_reply)) as url:
        for command in commands:
            if command in LEFT_OUT or command.startswith(". .venv"):
                continue
            if command.startswith(("MODEL=", "OTHER=")):
                env[command.split("=", 1)[0]] = f"openai:mock-{command[0].lower()}@{url}"
                continue
            done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
            if "--model random" in command and command.startswith("medprobe run multifacet"):
                facets = last_summary(done.stdout, work)["metrics"]["facets"]
                accuracy = [round(100 * facets[f]["accuracy"], 1) for f in ("comparison", "rectification", "discrimination", "verification")]
                assert accuracy == pytest.approx([20, 20, 3.2, 50], abs=1.0), accuracy  # the README's "~20 / 20 / 3.2 / 50 %"
            if "--model random" in command and command.startswith("medprobe run multicog"):
                levels = last_summary(done.stdout, work)["metrics"]["levels"]
                assert all(abs(levels[lv]["normalized"]) < 5 for lv in ("low", "mid")), levels  # "≈ 0 on every task"


def test_the_tour_parser_reads_continuations_and_drops_comments() -> None:
    readme = "## A five-minute tour\n```bash\nmedprobe a \\\n    -X b   # note\n# only a comment\n\nmedprobe c  # x\n```\n"
    assert tour_commands(readme) == ["medprobe a -X b", "medprobe c"]
