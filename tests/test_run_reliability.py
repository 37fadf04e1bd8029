"""A run survives being killed, interrupted, doubled or pointed at a dead server, and never scores a fault as an answer.

Kills are real process deaths: the run goes on in a forked child that ends with ``os._exit`` at a
chosen step (a backend call, a line appended to responses.jsonl, a file moved into place), so no
``finally`` and no clean-up code of ours runs, as under SIGKILL. The parent then looks at what the
child left on disk and runs the same plan again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.contract import BuildOptions
from medprobe.engine import pipeline, runner
from medprobe.engine.pipeline import Outcome, RunPlan, rescore, run
from medprobe.errors import MedprobeError
from medprobe.jsonl import JsonlAppender, dumps, write_records
from medprobe.records import Message, Request, Response
from testing.fixtures import deterministic_reply, write_tiny_kb
from testing.mock_server import MockOpenAI, serve_in_thread

KILLED = 137


class FakeBackend:
    """An in-process model whose answer is a pure function of the prompt; ``on_call`` runs before
    each answer (the place a test kills the process) and every answer it gives is logged."""

    model_id = "fake"
    max_concurrency = 2
    cacheable = True

    def __init__(self, on_call: Callable[[], None], log: Path, delay_s: float = 0.0) -> None:
        self.on_call = on_call
        self.log = log
        self.delay_s = delay_s

    def identity(self) -> dict[str, Any]:
        return {"backend": "fake"}

    async def check(self) -> None:
        return None

    async def complete(self, request: Request) -> Response:
        self.on_call()
        await asyncio.sleep(self.delay_s)  # lets the other worker interleave
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(request.id + "\n")
        body = {"messages": [m.model_dump() for m in request.messages]} if request.messages else {"prompt": request.prompt}
        return Response(probe_id=request.probe_id, sample=request.sample, text=deterministic_reply(body))

    async def aclose(self) -> None:
        return None


def fake_plan(kb: Path, out: Path, use_cache: bool = False) -> RunPlan:
    return RunPlan(method="multifacet", build=BuildOptions(data=str(kb), seed=0), model="fake", out=out,
                   progress=False, use_cache=use_cache)


@contextmanager
def fake_model(monkeypatch: pytest.MonkeyPatch, log: Path, on_call: Callable[[], None] = lambda: None) -> Iterator[None]:
    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "make_backend", lambda *args, **kwargs: FakeBackend(on_call, log))
        yield


def run_killed_at(step: int, plan: RunPlan, log: Path) -> int:
    """Run ``plan`` in a forked child that dies at its ``step``-th durable step; KILLED if it did,
    0 if the run finished first. A line being appended when the kill comes is left torn."""
    pid = os.fork()
    if pid:
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    code = 1
    try:
        count = 0

        def tick() -> None:
            nonlocal count
            count += 1
            if count == step:
                os._exit(KILLED)

        real_write, real_replace, real_rename = JsonlAppender.write, os.replace, os.rename

        def write(self: JsonlAppender, record: Any) -> None:
            if count + 1 == step:
                line = dumps(record) + "\n"
                self._handle.write(line[: len(line) // 2])
                self._handle.flush()
            tick()
            real_write(self, record)

        def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            tick()
            real_replace(src, dst, *args, **kwargs)

        def rename(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            tick()
            real_rename(src, dst, *args, **kwargs)

        JsonlAppender.write = write  # type: ignore[method-assign]
        os.replace, os.rename = replace, rename
        pipeline.make_backend = lambda *args, **kwargs: FakeBackend(tick, log)  # type: ignore[assignment]
        run(plan)
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def run_dirs(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if not p.name.startswith(".")) if out.exists() else []


def assert_consistent(out: Path) -> None:
    """What a killed run may leave: run directories that hold their config and the probes it
    names (and every result file once summary.json exists); anything else is hidden."""
    for path in run_dirs(out):
        config = json.loads((path / "config.json").read_text())
        probes = path / "probes.jsonl"
        assert probes.exists(), f"{path.name}: no probes.jsonl"
        assert hashlib.sha256(probes.read_bytes()).hexdigest() == config["probes_sha256"]
        if (path / "summary.json").exists():
            assert (path / "scores.jsonl").exists() and (path / "report.md").exists()


def recorded(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (path / "responses.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def small_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_kb(tmp_path_factory.mktemp("kb") / "kb.jsonl", n=8)


@pytest.fixture(scope="module")
def uninterrupted(small_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    folder = tmp_path_factory.mktemp("uninterrupted")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "make_backend", lambda *args, **kwargs: FakeBackend(lambda: None, folder / "calls.log"))
        return run(fake_plan(small_kb, folder / "runs"))


# --- 1. a run directory is complete or recognisably unfinished; a resume repairs it ----------------------


def test_write_records_never_shares_its_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "x.jsonl"

    def outer() -> Iterator[dict[str, int]]:
        yield {"n": 1}
        write_records(target, [{"n": 2}])  # a second writer of the same file meanwhile
        yield {"n": 3}

    write_records(target, outer())
    assert target.read_text() == '{"n":1}\n{"n":3}\n'

    def failing() -> Iterator[dict[str, int]]:
        yield {"n": 4}
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_records(target, failing())
    assert target.read_text() == '{"n":1}\n{"n":3}\n', "a failed write keeps the old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"], "no temporary file left behind"


def test_a_kill_while_the_run_directory_is_set_up_is_repaired_by_the_resume(
    small_kb: Path, uninterrupted: Outcome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for step in range(1, 6):  # the first durable steps: files of the new run directory
        out = tmp_path / f"kill{step}"
        assert run_killed_at(step, fake_plan(small_kb, out), tmp_path / "calls.log") == KILLED
        assert_consistent(out)
        with fake_model(monkeypatch, tmp_path / "calls.log"):
            resumed = run(fake_plan(small_kb, out))
        assert [p.name for p in out.iterdir()] == [resumed.path.name], "nothing half-made is left beside the run"
        assert resumed.summary["metrics"] == uninterrupted.summary["metrics"]
        rescored = rescore("multifacet", resumed.path, "medprobe", BuildOptions(), out=tmp_path / "scored",
                           reference_compatible=False)
        assert rescored.summary["metrics"] == uninterrupted.summary["metrics"]


def test_a_run_directory_an_older_version_left_without_probes_is_repaired(
    small_kb: Path, uninterrupted: Outcome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "runs"

    calls = 0

    def stop() -> None:  # Ctrl-C after a few answers
        nonlocal calls
        calls += 1
        if calls > 4:
            raise KeyboardInterrupt

    with fake_model(monkeypatch, tmp_path / "calls.log", on_call=stop), pytest.raises(KeyboardInterrupt):
        run(fake_plan(small_kb, out))
    (path,) = run_dirs(out)
    probes = (path / "probes.jsonl").read_bytes()
    (path / "probes.jsonl").unlink()
    (path / "probes.jsonl.tmp").write_bytes(probes[: len(probes) // 2])  # killed before the rename
    with fake_model(monkeypatch, tmp_path / "calls.log"):
        resumed = run(fake_plan(small_kb, out))
    assert resumed.resumed and resumed.path == path
    assert (path / "probes.jsonl").read_bytes() == probes
    assert not list(path.glob("*.tmp"))
    assert resumed.summary["metrics"] == uninterrupted.summary["metrics"]


# --- the property: killed at any step, any number of times, the resumed run equals an uninterrupted one ---


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(kills=st.lists(st.integers(min_value=1, max_value=110), min_size=1, max_size=4), use_cache=st.booleans())
def test_killed_at_random_steps_the_resumed_run_equals_an_uninterrupted_one(
    kills: list[int], use_cache: bool, small_kb: Path, uninterrupted: Outcome
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp, home = Path(folder), os.environ["MEDPROBE_HOME"]
        os.environ["MEDPROBE_HOME"] = str(tmp / "home")  # a cache of this example's own
        try:
            out, log = tmp / "runs", tmp / "calls.log"
            plan = fake_plan(small_kb, out, use_cache=use_cache)
            for step in kills:  # a kill later than the run's last step finds it finished
                code = run_killed_at(step, plan, log)
                assert code in (KILLED, 0)
                assert_consistent(out)
                if code == 0:
                    break
            else:
                assert run_killed_at(0, plan, log) == 0  # no kill this time
        finally:
            os.environ["MEDPROBE_HOME"] = home
        assert [p.name for p in out.iterdir()] == [p.name for p in run_dirs(out)], "nothing half-made is left"
        (path,) = run_dirs(out)
        assert not list(path.glob("*.tmp"))
        summary = json.loads((path / "summary.json").read_text())
        assert summary["status"] == "complete"
        assert summary["metrics"] == uninterrupted.summary["metrics"]
        lines = recorded(path)
        ids = [f"{r['probe_id']}#{r['sample']}" for r in lines]
        assert len(ids) == len(set(ids)) == summary["run"]["requests"], "an answer lost or asked twice"
        expected = {f"{r['probe_id']}#{r['sample']}": r["text"] for r in recorded(uninterrupted.path)}
        assert {i: r["text"] for i, r in zip(ids, lines, strict=True)} == expected
        calls = log.read_text().split() if log.exists() else []
        assert len(calls) <= len(expected) + len(kills) * FakeBackend.max_concurrency


# --- 2. Ctrl-C while the embedded model generates ---------------------------------------------------------


def test_ctrl_c_while_the_embedded_model_generates_stops_cleanly(small_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    child = subprocess.Popen(
        [sys.executable, "-m", "medprobe.cli", "run", "multifacet", "--data", str(small_kb), "--out", str(out), "-q",
         "--no-cache", "-O", "n_ctx=2048"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline and not any(p.stat().st_size for p in out.glob("*/responses.jsonl")):
        time.sleep(0.05)
    time.sleep(0.3)  # well inside the next generation
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "interrupted" in stderr and "run the same command again to resume" in stderr
    (path,) = run_dirs(out)
    assert all(r["error"] is None and r["text"] for r in recorded(path)), "a cut-off generation was recorded"


# --- 7. an incomplete run exits with its own code --------------------------------------------------------


def test_a_run_with_failed_requests_exits_3_and_says_why(small_kb: Path, tmp_path: Path) -> None:
    with serve_in_thread(MockOpenAI(reply=deterministic_reply, fail_first=3, fail_status=400)) as url:
        result = CliRunner().invoke(
            app, ["run", "multifacet", "--data", str(small_kb), "--model", f"openai:m@{url}", "--out", str(tmp_path),
                  "-q", "--no-cache", "-O", "concurrency=1"],
            env={"COLUMNS": "1000", "NO_COLOR": "1"},
        )
    assert result.exit_code == 3, result.output
    assert "3 request(s) failed" in result.stderr
    summary = json.loads((Path(result.stdout.strip().splitlines()[-1]) / "summary.json").read_text())
    assert summary["status"].startswith("incomplete") and summary["run"]["errors"] == 3
    assert summary["run"]["first_errors"][0].startswith("HTTP 400")


# --- 8. two identical runs at once -----------------------------------------------------------------------


def test_two_identical_runs_at_once_pay_once(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    out = tmp_path / "runs"
    mock = MockOpenAI(reply=deterministic_reply, delay_s=0.05)
    with serve_in_thread(mock) as url:
        cmd = [sys.executable, "-m", "medprobe.cli", "run", "multifacet", "--data", str(kb), "--model", f"openai:mock@{url}",
               "--out", str(out), "-q", "-O", "concurrency=2", "-O", "max_concurrency=2"]
        first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not any(p.stat().st_size for p in out.glob("*/responses.jsonl")):
            time.sleep(0.02)
        second = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        results = [(p, *p.communicate(timeout=120)) for p in (first, second)]
    assert [p.returncode for p, _, _ in results] == [0, 0], [err for _, _, err in results]
    summaries = [json.loads((Path(stdout.strip().splitlines()[-1]) / "summary.json").read_text()) for _, stdout, _ in results]
    requests = summaries[0]["run"]["requests"]
    assert mock.requests == requests, "the same request was sent twice"
    assert summaries[1]["run"]["sent"] == 0 and summaries[1]["run"]["from_cache"] == requests
    assert summaries[1]["metrics"] == summaries[0]["metrics"]
    assert "waiting for it to finish" in results[1][2]


# --- 9. a dead or refusing endpoint, a server that never answers, slow requests --------------------------


def test_an_endpoint_that_cannot_be_used_leaves_no_run_directory(small_kb: Path, tmp_path: Path) -> None:
    class Refusing(MockOpenAI):
        def respond(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            return 401, {"error": {"message": "invalid key"}}

    with pytest.raises(MedprobeError, match="cannot reach the model endpoint"):
        run(RunPlan(method="multifacet", build=BuildOptions(data=str(small_kb)), model="openai:m@http://127.0.0.1:9/v1",
                    out=tmp_path / "dead", progress=False, use_cache=False))
    with serve_in_thread(Refusing()) as url, pytest.raises(MedprobeError, match="refused the API key"):
        run(RunPlan(method="multifacet", build=BuildOptions(data=str(small_kb)), model=f"openai:m@{url}",
                    out=tmp_path / "refused", progress=False, use_cache=False))
    for out in (tmp_path / "dead", tmp_path / "refused"):
        assert not out.exists() or not list(out.iterdir()), f"{out.name}: {list(out.iterdir())}"


@contextmanager
def never_accepting() -> Iterator[str]:
    """A base URL on 127.0.0.1 whose listening socket has a full backlog: connecting hangs (the
    kernel drops the SYNs), as with a host that is down or firewalled."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        fillers = [socket.socket() for _ in range(4)]
        for filler in fillers:
            filler.setblocking(False)
            with suppress(BlockingIOError):
                filler.connect(("127.0.0.1", port))
        try:
            yield f"http://127.0.0.1:{port}/v1"
        finally:
            for filler in fillers:
                filler.close()


def test_an_endpoint_that_never_accepts_is_given_up_in_seconds(small_kb: Path, tmp_path: Path) -> None:
    """Connecting has its own short timeout whatever -O timeout says (default 120 s)."""
    started = time.perf_counter()
    with never_accepting() as url, pytest.raises(MedprobeError, match="cannot reach the model endpoint.*ConnectTimeout"):
        run(RunPlan(method="multifacet", build=BuildOptions(data=str(small_kb)), model=f"openai:m@{url}",
                    out=tmp_path / "runs", progress=False, use_cache=False))
    assert time.perf_counter() - started < 8
    assert not list((tmp_path / "runs").glob("*"))


def test_slow_requests_are_reported_while_they_wait(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "SLOW_REQUEST_S", 0.1)
    backend = FakeBackend(lambda: None, tmp_path / "calls.log", delay_s=0.4)
    requests = [Request(id=f"p{i}#0", probe_id=f"p{i}", messages=[Message(role="user", content=f"q{i}")]) for i in range(2)]
    stats = asyncio.run(runner.execute(backend, requests, lambda response: None, progress=False))
    assert stats.sent == 2
    err = capsys.readouterr().err
    assert "2 request(s) waiting more than 0.1 s for fake" in " ".join(err.split())


# --- 10. a damaged cache, a full disk -------------------------------------------------------------------


def cli(*args: Any, home: Path) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "1000", "NO_COLOR": "1", "MEDPROBE_HOME": str(home)})


@pytest.mark.parametrize("where", ["header", "pages"])
def test_a_damaged_cache_is_named_cleared_with_force_and_can_be_left_out(where: str, small_kb: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with serve_in_thread(MockOpenAI(reply=deterministic_reply)) as url:
        argv = ["run", "multifacet", "--data", small_kb, "--model", f"openai:m@{url}", "--out", tmp_path / "runs", "-q", "--fresh"]
        assert cli(*argv, home=home).exit_code == 0
        database = home / "responses.sqlite"
        data = bytearray(database.read_bytes())
        start = 0 if where == "header" else 4096  # the file header, or every page after the first
        data[start:] = bytes((i * 131 + 7) % 256 for i in range(len(data) - start))
        database.write_bytes(bytes(data))
        for command in (argv, ["cache", "stats"], ["cache", "clear"]):
            result = cli(*command, home=home)
            message = " ".join(result.output.split())
            assert result.exit_code == 2 and "Traceback" not in message, (command, result.exception, message)
            assert "response cache is damaged" in message and "cache clear --force" in message and "--no-cache" in message
        assert cli(*argv, "--no-cache", home=home).exit_code == 0
        cleared = cli("cache", "clear", "--force", home=home)
        assert cleared.exit_code == 0 and "responses.sqlite" in cleared.output and not database.exists()
        assert cli(*argv, home=home).exit_code == 0


def test_a_full_disk_is_named_and_loses_nothing(small_kb: Path, tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")  # every write to it fails with ENOSPC
    with pytest.raises(MedprobeError, match="no space left") as raised:
        JsonlAppender(full).write({"n": 1})
    assert str(full) in str(raised.value)
    # a whole run whose files stop fitting: the file size limit makes every write past 64 kB fail (EFBIG)
    out = tmp_path / "runs"
    home = Path(os.environ["MEDPROBE_HOME"])
    assert cli("run", "multifacet", "--data", small_kb, "--model", "random", "--out", tmp_path / "warm", "-q", home=home).exit_code == 0
    code = ("import resource, signal, sys\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (65536, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))\n"
            f"sys.argv = ['medprobe', 'run', 'multifacet', '--data', {str(small_kb)!r}, '--model', 'random', '--out', {str(out)!r}, '-q']\n"
            "from medprobe.__main__ import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "1000", "NO_COLOR": "1"})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "no space left" in done.stderr and str(out) in " ".join(done.stderr.split())


# --- 11. the same command finishes what it left: a killed score, a run that ended incomplete ------------


def test_a_killed_score_is_finished_in_its_own_directory(uninterrupted: Outcome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "scored"
    with monkeypatch.context() as patch, pytest.raises(KeyboardInterrupt):
        patch.setattr(pipeline, "finish", lambda *args, **kwargs: (_ for _ in ()).throw(KeyboardInterrupt()))
        rescore("multifacet", uninterrupted.path, "medprobe", BuildOptions(), out=out, reference_compatible=False)
    (half,) = run_dirs(out)
    assert not (half / "summary.json").exists()
    again = rescore("multifacet", uninterrupted.path, "medprobe", BuildOptions(), out=out, reference_compatible=False)
    assert run_dirs(out) == [half] == [again.path]
    assert again.summary["metrics"] == uninterrupted.summary["metrics"]
    assert len(recorded(half)) == uninterrupted.summary["run"]["requests"]
    # a scoring of the unfinished run itself leaves it alone (it is no scoring of the same responses)
    (uninterrupted.path / "summary.json").rename(tmp_path / "summary.json")
    try:
        scored = rescore("multifacet", uninterrupted.path, "medprobe", BuildOptions(), out=uninterrupted.path.parent, reference_compatible=False)
    finally:
        (tmp_path / "summary.json").rename(uninterrupted.path / "summary.json")
    assert scored.path != uninterrupted.path
    shutil.rmtree(scored.path)


def test_an_incomplete_run_is_finished_in_place_and_marked_until_then(small_kb: Path, tmp_path: Path) -> None:
    home, out = tmp_path / "home", tmp_path / "runs"
    mock = MockOpenAI(reply=deterministic_reply, fail_first=3, fail_status=400)
    with serve_in_thread(mock) as url:
        argv = ["run", "multifacet", "--data", small_kb, "--model", f"openai:m@{url}", "--out", out, "-q", "-O", "concurrency=1"]
        first = cli(*argv, home=home)
        assert first.exit_code == 3, first.output
        (incomplete,) = run_dirs(out)
        (out / "20000101T000000Z-multifacet-killed").mkdir()  # a run killed before its summary
        (out / "20000101T000000Z-multifacet-killed" / "config.json").write_text("{}")
        board = cli("leaderboard", *run_dirs(out), home=home)
        assert board.exit_code == 0, board.output
        assert "(incomplete: 3 of" in board.stdout and "-multifacet-killed: unfinished" in " ".join(board.stderr.split())
        for refused in (["compare", incomplete, incomplete], ["profile", incomplete]):
            message = " ".join(cli(*refused, home=home).output.split())
            assert "the run is incomplete" in message and "again" in message, message
        requests = mock.requests
        second = cli(*argv, home=home)
    assert second.exit_code == 0, second.output
    assert [p for p in run_dirs(out) if "killed" not in p.name] == [incomplete], "the same command made a new run directory"
    summary = json.loads((incomplete / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["run"]["sent"] == 3 == mock.requests - requests
    assert f"resumed the unfinished run in {incomplete}" in " ".join(second.stderr.split())
