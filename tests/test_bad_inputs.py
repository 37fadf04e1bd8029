"""Bad inputs and options get one clear error (exit 2, naming the file, line or option), never a traceback
and never a run that quietly does something else than asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from medprobe.cli import app
from testing.fixtures import write_tiny_kb, write_tiny_release
from testing.input_samples import READERS, Reader
from testing.mock_server import MockOpenAI, serve_in_thread

ENV = {"COLUMNS": "1000", "NO_COLOR": "1"}


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})


def clear_error(result: Result, *words: str) -> str:
    """The one-line error of a command that refused its input: exit 2, every word in the message."""
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), (result.exception, result.output)
    message = " ".join(result.output.split())
    assert "Traceback" not in message and all(word in message for word in words), message
    return message


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return write_tiny_kb(tmp_path / "kb.jsonl")


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_a_file_that_is_not_utf8_is_named(reader: Reader, tmp_path: Path) -> None:
    target = reader.write(tmp_path)
    data = target.read_bytes()
    cut = data.index(b"\n", len(data) // 2) if b"\n" in data[len(data) // 2 :] else len(data) // 2
    target.write_bytes(data[:cut] + "é".encode("latin-1") + data[cut:])  # a Latin-1 file where UTF-8 was expected
    for argv in reader.commands(tmp_path):
        clear_error(invoke(*argv), str(target), "not UTF-8")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--limit", "-1"], ["--limit"]),
        (["--limit", "0"], ["--limit"]),
        (["--temperature", "-1"], ["--temperature"]),
        (["--max-tokens", "0"], ["--max-tokens"]),
        (["--model", "llamacpp:default", "-O", "n_ctx=abc"], ["n_ctx", "abc", "whole number"]),
        (["--model", "llamacpp:default", "-O", "threads=0"], ["threads", "at least 1"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "concurrency=abc"], ["concurrency", "abc"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "retries=abc"], ["retries", "abc"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "retries=-1"], ["retries", "at least 0"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "max_concurrency=0"], ["max_concurrency", "at least 1"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "timeout=0"], ["timeout", "more than 0"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "timeout=nan"], ["timeout"]),
        (["--model", "openai:m@http://127.0.0.1:9/v1", "-O", "key_env="], ["key_env"]),
        (["--model", "openai:m@ftp://x"], ["--model", "ftp://x", "http://"]),
        (["--model", "openai:m@localhost:8000/v1"], ["--model", "http://"]),
        (["-X", "bogus=1"], ["-X", "bogus"]),
        (["-X", "extractor=rules"], ["-X", "extractor"]),
    ],
)
def test_bad_options_are_refused_before_anything_runs(options: list[str], words: list[str], kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    clear_error(invoke("run", "multifacet", "--data", kb, "--out", out, "-q", *(["--model", "random"] if "--model" not in options else []),
                       *options), *words)
    assert not list(out.glob("*/responses.jsonl"))


def test_the_extraction_judge_option_still_reaches_the_pipeline(kb: Path, tmp_path: Path) -> None:
    result = invoke("run", "multifacet", "--data", kb, "--limit", "2", "--model", "random", "-X", "extractor=judge:random",
                    "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("option", [["-X", "cases=abc"], ["-X", "runs=0"], ["-X", "max_turns=-3"], ["-X", "context_tokens=x"]])
def test_bad_dialogue_options_are_refused(option: list[str], tmp_path: Path) -> None:
    clear_error(invoke("run", "multicog", "--level", "high", "--model", "random", "--out", tmp_path / "runs", "-q", *option), option[1].split("=")[0])


def test_an_openai_url_with_another_scheme_sends_nothing() -> None:
    """It used to fall back to api.openai.com with the model name 'm@ftp://x'."""
    from medprobe.errors import MedprobeError
    from medprobe.models import make_backend

    with pytest.raises(MedprobeError, match="ftp://x"):
        make_backend("openai:m@ftp://x")
    assert make_backend("openai:claude-3@20240229").base_url.startswith("https://")  # an '@' in a model name is fine


def test_output_folder_that_is_a_file_or_cannot_be_made(kb: Path, tmp_path: Path) -> None:
    clear_error(invoke("run", "multifacet", "--data", kb, "--model", "random", "--out", kb), "--out", str(kb))
    unwritable = "/sys/medprobe-runs" if Path("/sys").is_dir() else "/proc/medprobe-runs"
    clear_error(invoke("run", "multifacet", "--data", kb, "--model", "random", "--out", unwritable), "--out", unwritable)
    clear_error(invoke("score", "multifacet", "--responses", tmp_path, "--out", kb), "--out")


def test_medprobe_home_that_is_a_file(kb: Path, tmp_path: Path) -> None:
    result = invoke("run", "multifacet", "--data", kb, "--model", "random", "--out", tmp_path / "runs", env={"MEDPROBE_HOME": str(kb)})
    clear_error(result, "MEDPROBE_HOME", str(kb))


def test_a_release_with_a_repeated_id_is_refused(tmp_path: Path) -> None:
    release = write_tiny_release(tmp_path / "medqa")
    for task in ("MCQ", "RQ", "MAQ", "TFQ"):
        path = release / task / "test.json"
        items = json.loads(path.read_text())
        items[2][0] = items[0][0]  # the third item reuses the first one's id
        path.write_text(json.dumps(items))
    clear_error(invoke("run", "multifacet", "--data", release, "--model", "random", "--out", tmp_path / "runs"),
                str(release / "MCQ" / "test.json"), "repeats item 0")


def test_ctrl_c_while_the_command_starts_is_the_interrupted_message() -> None:
    """A real SIGINT while the command's modules are still being imported (sent when rich is imported)."""
    trigger = (
        "import os, signal, sys, importlib.abc\n"
        "class Hit(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'rich':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.meta_path.insert(0, Hit())\n"
        "sys.argv = ['medprobe', 'run', 'multifacet', '--model', 'random']\n"
        "from medprobe.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", trigger], capture_output=True, text=True, env={**os.environ, **ENV}, timeout=60)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    assert "interrupted" in done.stderr


def test_the_console_command_is_the_guarded_entry() -> None:
    """The installed ``medprobe`` script enters through medprobe.__main__:main (the guarded import)."""
    from importlib.metadata import entry_points

    (entry,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "medprobe"]
    assert entry.value == "medprobe.__main__:main"


def test_a_healthy_server_is_still_reached(kb: Path, tmp_path: Path) -> None:
    """The URL checks leave good URLs alone (with a trailing slash, an IP, a port)."""
    with serve_in_thread(MockOpenAI()) as url:
        result = invoke("run", "multifacet", "--data", kb, "--limit", "1", "--model", f"openai:m@{url}/", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output


def test_probes_with_one_id_are_refused_wherever_they_come_from(tmp_path: Path) -> None:
    """A run directory of the old code (180 probes, 171 distinct ids) is not rescored as if it were whole."""
    run_dir = Path(invoke("run", "multifacet", "--data", write_tiny_release(tmp_path / "medqa"), "--model", "random", "-q",
                          "--out", tmp_path / "runs").stdout.strip().splitlines()[-1])
    lines = (run_dir / "probes.jsonl").read_text().splitlines()
    (run_dir / "probes.jsonl").write_text("\n".join([*lines, lines[0]]) + "\n")
    first_id = json.loads(lines[0])["id"]
    clear_error(invoke("score", "multifacet", "--responses", run_dir, "--out", tmp_path / "rescored"), first_id, "twice")


# --- a model id selects a host only when it is exact ----------------------------------------------------


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("openai:m@{url} ", ["' '", "position"]),  # a trailing space
        ("openai:m@ {url}", ["' '", "position 3"]),  # a space after '@'
        ("openai:m@{url}\n", ["'\\n'"]),  # a newline
        ("openai:\tm@{url}", ["'\\t'"]),
        ("openai:@{url}", ["empty model name"]),
        ("openai:m@", ["nothing after '@'"]),
        ("openai:m@localhost", ["localhost", "no http://"]),
        ("openai:m@127.0.0.1", ["127.0.0.1", "no http://"]),
        ("openai:m@{url}#part", ["is not an http:// or https:// URL"]),
    ],
)
def test_a_malformed_model_id_never_reaches_the_default_host(model: str, words: list[str], kb: Path, tmp_path: Path) -> None:
    """The default host ($OPENAI_BASE_URL here, standing for the OpenAI API) gets nothing, not even the model list."""
    named, default = MockOpenAI(), MockOpenAI()
    with serve_in_thread(named) as url, serve_in_thread(default) as default_url:
        result = invoke("run", "multifacet", "--data", kb, "--limit", "1", "--model", model.format(url=url), "--out", tmp_path / "runs",
                        "-q", "--no-cache", env={"OPENAI_BASE_URL": default_url, "OPENAI_API_KEY": "sk-not-to-be-sent"})
    clear_error(result, "--model", *words)
    assert default.requests == named.requests == 0
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").iterdir())


def test_the_default_host_is_for_ids_without_a_url_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from medprobe.errors import MedprobeError
    from medprobe.models import make_backend

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert make_backend("openai:gpt-4o-mini").base_url == "https://api.openai.com/v1"
    assert make_backend("openai:claude-3@20240229").model == "claude-3@20240229"  # a version tag after '@' is no host
    assert make_backend("openai:a@b@http://h:8000/v1").model == "a@b"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://h:8000/v1 ")
    with pytest.raises(MedprobeError, match="OPENAI_BASE_URL"):
        make_backend("openai:m")


# --- special files and damaged state ----------------------------------------------------------------------


def run_in_child(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command in its own process, its memory bounded (a file that never ends must not fill the machine's)."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
            f"sys.argv = {['medprobe', *argv]!r}\n"
            "from medprobe.__main__ import main\n"
            "main()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **ENV}, timeout=timeout)


def test_a_device_or_a_pipe_given_as_data_is_refused(tmp_path: Path) -> None:
    release = write_tiny_release(tmp_path / "medqa")
    (release / "MCQ" / "test.json").unlink()
    (release / "MCQ" / "test.json").symlink_to("/dev/zero")
    done = run_in_child(["run", "multifacet", "--data", str(release), "--model", "random", "--out", str(tmp_path / "runs"), "-q"])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "not a regular file" in done.stderr and "test.json" in done.stderr
    (release / "MCQ" / "test.json").unlink()
    os.mkfifo(release / "MCQ" / "test.json")  # a pipe nobody writes to: reading it waits for ever
    done = run_in_child(["run", "multifacet", "--data", str(release), "--model", "random", "--out", str(tmp_path / "runs"), "-q"], timeout=30)
    assert done.returncode == 2 and "not a regular file" in done.stderr and "test.json" in done.stderr, done.stderr


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from medprobe import jsonl
    from medprobe.errors import MedprobeError

    path = write_tiny_kb(tmp_path / "kb.jsonl")
    monkeypatch.setattr(jsonl, "MAX_FILE_BYTES", 100)
    with pytest.raises(MedprobeError, match="more than the 100"):
        jsonl.read_text(path)


def test_state_files_of_the_wrong_kind_are_named(kb: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "locks").write_text("not a folder")
    clear_error(invoke("run", "multifacet", "--data", kb, "--model", "random", "--out", tmp_path / "runs", env={"MEDPROBE_HOME": str(home)}),
                str(home / "locks"))
    (home / "locks").unlink()
    (home / "responses.sqlite").mkdir()
    for argv in (["run", "multifacet", "--data", kb, "--model", "random", "--out", tmp_path / "runs"], ["cache", "stats"], ["cache", "clear"],
                 ["cache", "clear", "--force"]):
        clear_error(invoke(*argv, env={"MEDPROBE_HOME": str(home)}), "responses.sqlite", "folder")


def test_a_run_directory_whose_config_is_no_object_is_named(kb: Path, tmp_path: Path) -> None:
    run_dir = Path(invoke("run", "multifacet", "--data", kb, "--limit", "2", "--model", "random", "-q", "--out", tmp_path / "runs")
                   .stdout.strip().splitlines()[-1])
    (run_dir / "config.json").write_text("[1, 2]")
    (run_dir / "summary.json").unlink()  # an unfinished run: the next run looks at its config too
    clear_error(invoke("score", "multifacet", "--responses", run_dir, "--out", tmp_path / "scored"), "config.json", "JSON object")
    result = invoke("run", "multifacet", "--data", kb, "--limit", "2", "--model", "random", "-q", "--out", tmp_path / "runs")
    assert result.exit_code == 0, result.output


# --- replay: which answers fit is said before anything runs -----------------------------------------------


def test_replay_says_which_answers_match_before_anything_runs(kb: Path, tmp_path: Path) -> None:
    probes = tmp_path / "probes.jsonl"
    assert invoke("build", "multifacet", "--data", kb, "--limit", "2", "-o", probes).exit_code == 0
    ids = [json.loads(line)["id"] for line in probes.read_text().splitlines()]
    stray = tmp_path / "stray.jsonl"
    stray.write_text("".join(json.dumps({"probe_id": f"other-{i}", "text": "A"}) + "\n" for i in range(7)))
    clear_error(invoke("run", "multifacet", "--data", kb, "--limit", "2", "--model", f"replay:{stray}", "--out", tmp_path / "runs"),
                "none of the 7 probe ids", "other-0")
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").iterdir())
    partly = tmp_path / "partly.jsonl"
    partly.write_text("".join(json.dumps({"probe_id": pid, "text": "A"}) + "\n" for pid in [*ids[:-2], "other-1"]))
    result = invoke("run", "multifacet", "--data", kb, "--limit", "2", "--model", f"replay:{partly}", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 3, result.output
    said = " ".join(result.stderr.split())
    assert f"answers {len(ids) - 2} of this run's {len(ids)} probes" in said
    assert "1 of its probe ids match no probe and are not used (other-1)" in said and "2 probes have no answer there" in said


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(edits=st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(min_value=0, max_value=60),
                                st.sampled_from([" ", "\n", "\t", "\x00", "\u00a0", "@", ":", "/", "#", "?", "x", ""])),
                      min_size=1, max_size=3))
def test_an_id_that_holds_a_url_never_selects_the_default_host(edits: list[tuple[str, int, str]]) -> None:
    """Typos of a valid id (a character inserted, lost or changed, up to three times): either refused,
    or the URL typed is the one used; the default host only for an id without any URL in it."""
    from medprobe.errors import MedprobeError
    from medprobe.models import make_backend

    spec = "m@http://127.0.0.1:8000/v1"
    for kind, at, char in edits:
        at = min(at, len(spec))
        spec = spec[:at] + char + spec[at:] if kind == "insert" else spec[:at] + (char if kind == "replace" else "") + spec[at + 1 :]
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.delenv("OPENAI_BASE_URL", raising=False)
            backend = make_backend(f"openai:{spec}")
    except MedprobeError:
        return
    assert backend.base_url in spec if "://" in spec else backend.base_url == "https://api.openai.com/v1", spec
