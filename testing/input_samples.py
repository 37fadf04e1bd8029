"""One small valid input for every reader of user files, the commands that read it, and ways to break it.

The bad-input tests, the fuzz test and the reliability benchmark break these inputs (bytes that are not
UTF-8, random bytes, bytes mutated in a valid file, valid JSON with one value replaced, removed or
repeated) and check that each command ends with an answer or one clear error (exit 2), never a
traceback. The writers are those the tests of each format use (``testing.releases``).
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import Result
from hypothesis import strategies as st
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.jsonl import read_records, write_records
from medprobe.methods.multicog.dialogue.cases import builtin_cases_path
from medprobe.records import Probe, Response
from testing.fixtures import gold_reply, write_tiny_kb, write_tiny_release
from testing.releases import (
    medqa_rows,
    release_lines,
    write_jsonl,
    write_mce_release,
    write_mce_results,
    write_mfe,
)

#: a patient record in AgentClinic's OSCE layout (the shape of agentclinic_medqa_extended.jsonl)
AGENTCLINIC = {"OSCE_Examination": {
    "Objective_for_Doctor": "Diagnose.",
    "Patient_Actor": {"Demographics": "30-year-old man", "History": "Fever for 3 days.", "Symptoms": {"Primary_Symptom": "Fever"}},
    "Physical_Examination_Findings": {"Vital_Signs": {"Temperature": "39 C"}},
    "Test_Results": {"Complete_Blood_Count": {"WBC": "15,000/mm3"}, "Imaging": {"Chest_X-ray": {"Findings": "Consolidation"}}},
    "Correct_Diagnosis": "Pneumococcal pneumonia"}}


@dataclass(frozen=True)
class Reader:
    """``write`` puts a valid input under a folder and returns the file to break; ``commands`` are
    the command lines that read it (given that folder)."""

    name: str
    write: Callable[[Path], Path]
    commands: Callable[[Path], list[list[str]]]


def _release(root: Path) -> Path:
    return write_tiny_release(root / "medqa")


def _replay(root: Path) -> Path:
    """Right answers to the probes of the tiny release, as a responses file."""
    probes_path = root / "probes.jsonl"
    CliRunner().invoke(app, ["build", "multifacet", "--data", str(_release(root)), "-o", str(probes_path)])
    answers = root / "answers.jsonl"
    write_records(answers, [Response(probe_id=p.id, text=gold_reply(p)) for p in read_records(probes_path, Probe)])
    return answers


def _cases(root: Path) -> Path:
    lines = builtin_cases_path().read_text(encoding="utf-8").splitlines()[:2]
    path = root / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _agentclinic(root: Path) -> Path:
    path = root / "agentclinic.jsonl"
    path.write_text(json.dumps(AGENTCLINIC) + "\n", encoding="utf-8")
    return path


def _run(*args: str | Path) -> list[str]:
    return ["run", *map(str, args), "--model", "random", "-q", "--no-cache"]


def _out(root: Path) -> list[str]:
    return ["--out", str(root / "runs")]


READERS: tuple[Reader, ...] = (
    Reader("multifacet release: test.json", lambda r: _release(r) / "MCQ" / "test.json",
           lambda r: [["build", "multifacet", "--data", str(r / "medqa"), "-o", str(r / "p.jsonl")]]),
    Reader("multifacet release: dev.json", lambda r: _release(r) / "RQ" / "dev.json",
           lambda r: [["build", "multifacet", "--data", str(r / "medqa"), "-o", str(r / "p.jsonl")]]),
    Reader("multicog release", lambda r: write_mce_release(r / "mce", [1, 2, 3, 4, 5, 6, 7]) / "medqa" / "MR" / "test.json",
           lambda r: [_run("multicog", "--level", "low,mid", "--data", r / "mce" / "medqa", *_out(r))]),
    Reader("MedQA JSONL", lambda r: write_jsonl(r / "medqa.jsonl", medqa_rows()),
           lambda r: [_run("multicog", "--level", "low", "--data", r / "medqa.jsonl", *_out(r))]),
    Reader("knowledge base", lambda r: write_tiny_kb(r / "kb.jsonl"),
           lambda r: [["kb", "validate", str(r / "kb.jsonl")],
                      ["build", "multifacet", "--data", str(r / "kb.jsonl"), "-o", str(r / "p.jsonl")],
                      ["build", "sdak", "--data", str(r / "kb.jsonl"), "-o", str(r / "p.jsonl")],
                      ["build", "meddisk", "--data", str(r / "kb.jsonl"), "-o", str(r / "p.jsonl")]]),
    Reader("SDAK release", lambda r: write_jsonl(r / "sdak.jsonl", release_lines()),
           lambda r: [["build", "sdak", "--data", str(r / "sdak.jsonl"), "-o", str(r / "p.jsonl")]]),
    Reader("cases (medprobe)", _cases,
           lambda r: [["cases", "stats", str(r / "cases.jsonl")],
                      _run("multicog", "--level", "high", "--data", r / "cases.jsonl", "-X", "cases=1", "-X", "runs=1", *_out(r))]),
    Reader("cases (AgentClinic)", _agentclinic,
           lambda r: [["cases", "stats", str(r / "agentclinic.jsonl")],
                      _run("multicog", "--level", "high", "--data", r / "agentclinic.jsonl", "-X", "runs=1", *_out(r))]),
    Reader("replay file", _replay,
           lambda r: [["run", "multifacet", "--data", str(r / "medqa"), "--model", f"replay:{r / 'answers.jsonl'}", "-q", *_out(r)]]),
    Reader("multifaceteval-raw", lambda r: write_mfe(r / "mfe", [(5, "A"), (6, "C"), (7, "A")]) / "RQ" / "m42_RQ_results.json",
           lambda r: [["score", "multifacet", "--responses", str(r / "mfe"), "--format", "multifaceteval-raw", *_out(r)]]),
    Reader("multicogeval-raw", lambda r: write_mce_results(r / "mce-results", [(1, ["B", "A"]), (2, ["B", "B"])], [1, 2])
           / "medqa_repeat" / "MR" / "m42_MR_results.json",
           lambda r: [["score", "multicog", "--responses", str(r / "mce-results"), "--format", "multicogeval-raw", *_out(r)]]),
)


def json_of(path: Path) -> Any:
    """A sample file's content as JSON: a list for a JSON file, a list of lines for a JSONL file."""
    text = path.read_text(encoding="utf-8")
    try:
        return {"json": json.loads(text)}
    except json.JSONDecodeError:
        return {"jsonl": [json.loads(line) for line in text.splitlines() if line.strip()]}


def write_json_of(path: Path, value: Any) -> None:
    """Write what :func:`json_of` read (after a mutation) back in the file's own layout."""
    if "json" in value:
        path.write_text(json.dumps(value["json"], ensure_ascii=False), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in value["jsonl"]), encoding="utf-8")


# --- breaking them ---------------------------------------------------------------------------------------

#: done (0), a user error with its message (2), a run that finished with requests unanswered (3)
EXPECTED_EXITS = {0, 2, 3}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def paths_in(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (list positions and object keys), the value itself included."""
    found = [prefix]
    if isinstance(value, list):
        for i, item in enumerate(value):
            found += paths_in(item, (*prefix, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            found += paths_in(item, (*prefix, key))
    return found


@st.composite
def mutated_json(draw: st.DrawFn, original: Any) -> Any:
    """``original`` with the value at one place replaced by another JSON value, removed, or repeated."""
    value = copy.deepcopy(original)
    places = [path for path in paths_in(value) if len(path) > 1]  # inside the document (random bytes cover the rest)
    path = draw(st.sampled_from(places))
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = draw(st.sampled_from(["replace", "remove", "repeat"]))
    if action == "replace":
        parent[key] = draw(json_values)
    elif action == "remove":
        del parent[key]
    elif isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    else:
        parent[key] = [parent[key], parent[key]]
    return value


@st.composite
def mutated_bytes(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` with a few bytes flipped, inserted or cut out."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        action = draw(st.sampled_from(["flip", "insert", "cut"]))
        if action == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del data[at : at + draw(st.integers(1, 64))]
    return bytes(data)


def broken_inputs(target: Path) -> st.SearchStrategy[tuple[str, bytes | Any]]:
    original = target.read_bytes()
    return st.one_of(
        st.tuples(st.just("bytes"), st.binary(max_size=400) | st.just(b"1" * 5000) | st.just(b"[" * 100_000)),
        st.tuples(st.just("bytes"), mutated_bytes(original)),
        st.tuples(st.just("json"), mutated_json(json_of(target))),
    )


def try_broken(reader: Reader, template: Path, target: Path, broken: tuple[str, Any]) -> list[tuple[list[str], Result]]:
    """Each command of ``reader`` on a copy of ``template`` whose ``target`` is replaced by ``broken``
    (("bytes", data) or ("json", what json_of read, mutated))."""
    kind, content = broken
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "in"
        shutil.copytree(template, root)
        file = root / target.relative_to(template)
        if kind == "bytes":
            file.write_bytes(content)
        else:
            write_json_of(file, content)
        return [(argv, CliRunner().invoke(app, argv, env={"COLUMNS": "1000", "NO_COLOR": "1"})) for argv in reader.commands(root)]


def is_clear(result: Result) -> bool:
    """An expected exit (see EXPECTED_EXITS), and for a user error its one message, no traceback."""
    if result.exit_code not in EXPECTED_EXITS or not isinstance(result.exception, SystemExit | None):
        return False
    return result.exit_code != 2 or ("error:" in result.output and "Traceback" not in result.output)
