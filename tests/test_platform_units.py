"""Platform pieces on their own: probe packs, reading uploads, migrations, and `medprobe submit`
against a live server (uvicorn on a loopback port)."""

from __future__ import annotations

import json
import threading
import time

import pytest
import uvicorn
from sqlalchemy import select
from sqlalchemy.orm import joinedload
from typer.testing import CliRunner

from medprobe.cli import app as cli
from medprobe.contract import BuildOptions, get_method
from medprobe.platform.answers import read_answers
from medprobe.platform.app import Settings, create_app
from medprobe.platform.auth import create_user, new_token
from medprobe.platform.benchmarks import BenchmarkSpec, pack_csv, pack_ids, probes_of, public_id, publish
from medprobe.platform.charts import breakdown_charts
from medprobe.platform.db import make_engine, migrate, sessions
from medprobe.platform.leaderboard import PAGE_ROWS, browse, safe_cell
from medprobe.platform.shuffle import LETTER_KINDS, shuffle_options
from medprobe.platform.worker import Jobs, migrate_queue
from medprobe.records import Probe
from medprobe.report.svg import radar
from testing.platform_helpers import free_port

PACK_FIELDS = {"id", "facet", "language", "samples", "system", "prompt", "answer_format", "generation"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory):
    url = f"sqlite:///{tmp_path_factory.mktemp('units')}/p.sqlite"
    engine = make_engine(url)
    migrate(engine)
    migrate(engine)  # a second upgrade is a no-op
    migrate_queue(url)
    with sessions(engine)() as session:
        user = create_user(session, "p@example.org", "P", "a long password")
        publish(session, BenchmarkSpec("sd", "SDAK", "sdak", "builtin:en", size=3, include_unmeasured=True), user.id)
        publish(session, BenchmarkSpec("mf", "MF", "multifacet", "builtin:en", size=2, include_unmeasured=True), user.id)
        token = new_token(session, user, "cli")
    return url, token


def _benchmark(url: str, slug: str):  # type: ignore[no-untyped-def]
    from medprobe.platform.models import Benchmark

    with sessions(make_engine(url))() as session:  # with its texts, for use after the session
        return session.scalar(select(Benchmark).where(Benchmark.slug == slug).options(joinedload(Benchmark.texts)))


def test_pack_hides_gold_ids_variants_and_order(db: tuple[str, str]) -> None:
    benchmark = _benchmark(db[0], "sd")
    probes = probes_of(benchmark)
    rows = [json.loads(line) for line in benchmark.pack_jsonl.splitlines()]
    assert len(rows) == len(probes) and all(set(row) == PACK_FIELDS for row in rows)
    assert [r["id"] for r in rows] == sorted(r["id"] for r in rows)
    assert {r["id"] for r in rows} == {public_id(benchmark.id_key, p.id) for p in probes}
    text = benchmark.pack_jsonl + pack_csv(benchmark)
    assert not any(p.id in text or p.knowledge_point in text for p in probes)  # SDAK ids end in /factual
    assert pack_csv(benchmark).splitlines()[0] == "id,facet,language,samples,answer_kind,options,option_texts,given,system,prompt"


def test_migrations_move_large_texts_apart_and_back_keeping_them(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import inspect

    from medprobe.platform.models import Benchmark, Submission

    engine = make_engine(f"sqlite:///{tmp_path}/m.sqlite")
    migrate(engine)
    with sessions(engine)() as session:
        user = create_user(session, "m@example.org", "M", "a long password")
        benchmark = publish(session, BenchmarkSpec("sd", "SDAK", "sdak", "builtin:en", size=2, include_unmeasured=True), user.id)
        session.add(Submission(benchmark_id=benchmark.id, user_id=user.id, model_name="m", answers_jsonl="A\n", answers_sha256="x"))
        session.commit()
        probes, pack = benchmark.probes_jsonl, benchmark.pack_jsonl
    migrate(engine, "0001", downgrade=True)
    assert {"probes_jsonl", "pack_jsonl"} <= {c["name"] for c in inspect(engine).get_columns("benchmarks")}
    migrate(engine)
    assert "probes_jsonl" not in {c["name"] for c in inspect(engine).get_columns("benchmarks")}
    with sessions(engine)() as session:
        benchmark = session.get(Benchmark, benchmark.id)
        assert (benchmark.probes_jsonl, benchmark.pack_jsonl) == (probes, pack) and len(probes) > 1000
        assert session.scalars(select(Submission)).one().answers_jsonl == "A\n"


def test_multicog_high_level_is_refused_at_publishing(db: tuple[str, str]) -> None:
    from medprobe.errors import MedprobeError

    with sessions(make_engine(db[0]))() as session, pytest.raises(MedprobeError, match="cannot be answered offline"):
        publish(session, BenchmarkSpec("mc", "MC", "multicog", "builtin:en", size=2, options={"level": "low,high"}, include_unmeasured=True), None)


def test_read_answers_jsonl_csv_and_samples() -> None:
    known = {"qa", "qb"}
    got = read_answers(b'\xef\xbb\xbf{"probe_id": "qb", "text": "B"}\n\n{"probe_id": "qa", "sample": 1, "text": "A"}\n', known, 2)
    assert not got.errors and got.rows == [{"probe_id": "qa", "sample": 1, "text": "A"}, {"probe_id": "qb", "sample": 0, "text": "B"}]
    assert read_answers(b'{"probe_id": "qa", "text": "A"}\n{"probe_id": "qa", "sample": 0, "text": "A"}', known, 2).errors == [
        {"line": 2, "error": "qa sample 0 is answered already on line 1"}]
    csv_rows = read_answers(b'probe_id,sample,text\nqa,0,"A, then B"\nqb,1,x\n', known, 2, filename="a.csv")
    assert not csv_rows.errors and csv_rows.rows[0]["text"] == "A, then B"
    assert read_answers(b"id,text\nqa,A\n", known, 1, filename="a.csv").errors[0]["error"].startswith("the CSV header must be")
    assert read_answers(b'{"probe_id": "qa", "sample": true, "text": "A"}', known, 1).errors[0]["error"].startswith("sample must be")
    same = read_answers(b'{"probe_id": "qb", "text": "B"}\n{"probe_id": "qa", "text": "A"}', known, 1)
    other_order = read_answers(b'{"probe_id": "qa", "text": "A"}\n{"probe_id": "qb", "text": "B"}', known, 1)
    assert same.sha256() == other_order.sha256()  # a duplicate is found whatever the line order


def test_breakdown_charts_per_facet_task_and_type() -> None:
    task = {"accuracy": 0.5, "parse_failure_rate": 0.25}
    multicog = {"metrics": {"lowmid": {"datasets": {"medqa": {"tasks": {"MCQ": task, "SV": {**task, "accuracy": 0.75}}}}}}}
    charts = breakdown_charts("multicog", multicog)
    assert set(charts) == {"breakdown_accuracy.svg", "breakdown_unread.svg"}
    assert "Accuracy by task" in charts["breakdown_accuracy.svg"] and ">0.75<" in charts["breakdown_accuracy.svg"]
    assert ">0.25<" in charts["breakdown_unread.svg"] and ">SV<" in charts["breakdown_unread.svg"]
    sdak = {"metrics": {"per_type": {"disease_site": {"label": "Disease-Site", "fact_acc": 0.5, "ifr": 0.9}}}}
    assert ">0.10<" in breakdown_charts("sdak", sdak)["breakdown_unread.svg"]  # 1 - IFR
    assert breakdown_charts("meddisk", {"metrics": {}}) == {}  # it draws its own


def test_safe_cell_defuses_formulas() -> None:
    assert safe_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and safe_cell("GPT") == "GPT"


@pytest.fixture(scope="module")
def server(db: tuple[str, str]):
    url, _ = db
    jobs = Jobs(url)
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(Settings(db=url), jobs), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    jobs.close()


def test_medprobe_submit_uploads_and_reports_line_errors(db: tuple[str, str], server: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    url, token = db
    ids = pack_ids(_benchmark(url, "mf"))
    good = tmp_path / "answers.jsonl"
    good.write_text("".join(json.dumps({"probe_id": i, "text": "A"}) + "\n" for i in ids))
    result = CliRunner().invoke(cli, ["submit", "mf", str(good), "--server", server, "--model", "m", "--token", token])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith(f"{server}/submissions/")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"probe_id": ids[0], "text": "A"}) + "\n" + json.dumps({"probe_id": "qzz", "text": "A"}) + "\n")
    result = CliRunner().invoke(cli, ["submit", "mf", str(bad), "--server", server, "--model", "m", "--token", token])
    assert result.exit_code == 2 and "line 2: unknown probe_id 'qzz'" in result.output
    result = CliRunner().invoke(cli, ["submit", "mf", str(good), "--server", server, "--model", "m", "--token", "mpt_wrong"])
    assert result.exit_code == 2 and "401" in result.output


def _gold_texts(probe: Probe) -> tuple[object, ...]:
    """A letter-answered probe's gold (and given answer) as option texts: what shuffling must keep."""
    texts, gold = probe.answer_format.option_texts, probe.gold
    if probe.answer_format.kind == "option_letter":
        return (texts.get(gold),)
    if probe.answer_format.kind == "letter_set":
        return tuple(sorted(texts[g] for g in gold))
    return gold[0], texts.get(gold[1]), texts.get(probe.answer_format.given)


@pytest.mark.parametrize(("method", "data", "level"), [("multifacet", "builtin:en", None), ("multifacet", "builtin:zh", None),
                                                      ("multicog", "builtin:en", "low,mid")])
def test_options_are_shuffled_per_probe_with_their_gold(method: str, data: str, level: str | None) -> None:
    probes = get_method(method).build(BuildOptions(data=data, limit=12, level=level, include_unmeasured=True)).probes
    moved, kept = shuffle_options(probes, "a fixed key")
    assert kept == 0
    lettered = [(a, b) for a, b in zip(probes, moved, strict=True) if a.answer_format.kind in LETTER_KINDS]
    assert lettered and sum(a.gold != b.gold for a, b in lettered) > len(lettered) / 2
    for before, after in zip(probes, moved, strict=True):
        assert after.id == before.id
        if before.answer_format.kind not in LETTER_KINDS:
            assert after == before
            continue
        assert _gold_texts(after) == _gold_texts(before)
        cut = before.prompt.rindex("A: ")
        assert after.prompt[:cut] == before.prompt[:cut]  # the demonstrations are left as they are
        listing = after.prompt[cut:]
        positions = [listing.index(f"{letter}: {text}") for letter, text in sorted(after.answer_format.option_texts.items())]
        assert positions == sorted(positions)


def test_shuffled_letters_no_longer_point_at_the_gold() -> None:
    """The pack-structure attack: answer each MultifacetEval MCQ with the letter its revision probe
    gives as right. On the built order that is the gold every time; on shuffled orders, chance."""
    probes = get_method("multifacet").build(BuildOptions(data="builtin:en", limit=30, include_unmeasured=True)).probes

    def attack(probes: list[Probe]) -> float:
        given = {p.knowledge_point: p.answer_format.given for p in probes if p.variant == "given_right"}
        mcqs = [p for p in probes if p.facet == "MCQ" and p.variant == "base" and p.knowledge_point in given]
        return sum(given[p.knowledge_point] == p.gold for p in mcqs) / len(mcqs)

    assert attack(probes) == 1.0
    assert attack(shuffle_options(probes, "a fixed key")[0]) < 0.5


def test_a_prompt_that_does_not_show_its_options_keeps_them() -> None:
    probe = get_method("multifacet").build(BuildOptions(data="builtin:en", limit=1, include_unmeasured=True)).probes[0]
    odd = probe.model_copy(update={"prompt": "Pick one of the options above."})
    assert shuffle_options([odd], "k") == ([odd], 1)


def test_leaderboard_browsing_sorts_filters_and_pages() -> None:
    table = [{"rank": str(i + 1), "model": f"model-{i}", "organisation": "Lab A" if i % 2 else "Lab B", "size": f"{i}B",
              "licence": "MIT", "Average": f"{(i * 37) % 101}.0", "submission": str(i)} for i in range(120)]
    rows, pages = browse(table)
    assert pages == 3 and [r["rank"] for r in rows] == [str(i) for i in range(1, PAGE_ROWS + 1)]
    assert [r["rank"] for r in browse(table, page=3)[0]] == [str(i) for i in range(101, 121)]
    assert browse(table, page=99)[0] == browse(table, page=3)[0]  # past the end: the last page
    best = browse(table, sort="Average", descending=True)[0]
    assert [float(r["Average"]) for r in best] == sorted((float(r["Average"]) for r in table), reverse=True)[:PAGE_ROWS]
    lab_a, pages = browse(table, query="lab a")
    assert pages == 2 and {r["organisation"] for r in lab_a} == {"Lab A"}
    assert browse(table, sort="rank", descending=True)[0][0]["rank"] == "120"  # numbers sort as numbers, not text


def test_medprobe_answer_answers_a_pack_ready_for_upload(db: tuple[str, str], tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path / "home"))
    benchmark = _benchmark(db[0], "mf")
    pack, out = tmp_path / "pack.jsonl", tmp_path / "answers" / "answers.jsonl"
    pack.write_text(benchmark.pack_jsonl, encoding="utf-8")
    result = CliRunner().invoke(cli, ["answer", str(pack), "--model", "random", "-o", str(out)])
    assert result.exit_code == 0, result.output
    parsed = read_answers(out.read_bytes(), set(pack_ids(benchmark)), benchmark.samples)
    assert not parsed.errors and len(parsed.rows) == benchmark.probes * benchmark.samples
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:12], encoding="utf-8")  # interrupted mid-line
    again = CliRunner().invoke(cli, ["answer", str(pack), "--model", "random", "-o", str(out)])
    assert again.exit_code == 0 and "(5 already" in again.output, again.output
    parsed = read_answers(out.read_bytes(), set(pack_ids(benchmark)), benchmark.samples)
    assert not parsed.errors and len(parsed.rows) == benchmark.probes * benchmark.samples
    (tmp_path / "pack.csv").write_text(pack_csv(benchmark), encoding="utf-8")
    refused = CliRunner().invoke(cli, ["answer", str(tmp_path / "pack.csv"), "--model", "random", "-o", str(out)])
    assert refused.exit_code != 0 and "JSONL pack" in refused.output


def test_a_radar_of_two_types_draws_both_series() -> None:
    """SDAK's chart with two knowledge types drew its two series as one line; now as grouped bars."""
    two = radar(["disease-symptom", "disease-drug"], [("FactAcc", [0.8, 0.4]), ("IFR", [0.1, 0.3])], "two types")
    assert "<polygon" not in two and two.count('fill="#337ab7"') == 3 and two.count('fill="#d9534f"') == 3  # two bars and a legend each
    assert all(f">{v:.2f}<" in two for v in (0.8, 0.4, 0.1, 0.3))
    assert radar(["a", "b", "c"], [("x", [0.1, 0.2, 0.3])], "three").count("<polygon") == 5  # four rings and the series
