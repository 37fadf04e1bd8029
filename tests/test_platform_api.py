"""The platform end to end, on SQLite and on a real PostgreSQL cluster: the same tests on both.

A module-scoped platform per database: migrated schema, an admin, two participants, three
benchmarks (MultifacetEval, MedDisKEval with a canary gold answer, SDAK), the web app in process
and the worker as a real child process on the real job queue.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import socket
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from medprobe.contract import ProbeSet
from medprobe.platform import profiles
from medprobe.platform.app import Settings, create_app
from medprobe.platform.auth import create_user
from medprobe.platform.benchmarks import BenchmarkSpec, pack_ids, probes_of, public_id, publish
from medprobe.platform.db import make_engine, migrate, sessions
from medprobe.platform.models import Benchmark, ResultFile, Submission
from medprobe.platform.submissions import Limits
from medprobe.platform.worker import Jobs, migrate_queue
from medprobe.profile.analysis import build_profile
from medprobe.profile.oracle import oracle_responses
from medprobe.profile.points import points_record
from medprobe.records import GenerationParams
from medprobe.report.markdown import pct
from testing.fixtures import gold_reply, write_tiny_kb
from testing.mock_server import MockOpenAI, serve_in_thread
from testing.platform_helpers import Browser, Worker, postgres_cluster, wait_status

CANARY = "CANARY-GOLD-9f1c"
NASTY = "<script>alert('x')</script>'; DROP TABLE users; --"
LIMITS = Limits(max_upload_bytes=200_000, submissions_per_hour=8)


@dataclass
class Platform:
    url: str
    app: Any
    sessions: sessionmaker[Session]
    worker: Worker
    admin: Browser
    alice: Browser
    bob: Browser
    tokens: dict[str, str] = field(default_factory=dict)
    app_client: Any = None

    def api(self, who: str | None) -> dict[str, str]:
        return {"authorization": f"Bearer {self.tokens[who]}"} if who else {}


def _canary(session: Session, slug: str) -> None:
    """Give one MedDisKEval probe a gold answer that can be searched for in every output."""
    benchmark = session.scalar(select(Benchmark).where(Benchmark.slug == slug))
    lines = benchmark.probes_jsonl.splitlines()
    probe = json.loads(lines[0])
    probe["gold"] = {"reference": CANARY, "value": [CANARY]}
    benchmark.probes_jsonl = "\n".join([json.dumps(probe), *lines[1:]]) + "\n"
    session.commit()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def platform(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    with postgres_cluster() if request.param == "postgresql" else _sqlite(tmp_path_factory) as url:
        migrate(make_engine(url))
        migrate_queue(url)
        factory = sessions(make_engine(url))
        with factory() as session:
            admin = create_user(session, "admin@example.org", "Admin", "admin password", "Host", admin=True)
            publish(session, BenchmarkSpec("mf", "MultifacetEval demo", "multifacet", "builtin:en", size=4, include_unmeasured=True), admin.id)
            publish(session, BenchmarkSpec("md", "MedDisKEval demo", "meddisk", "builtin:en", size=2, include_unmeasured=True), admin.id)
            publish(session, BenchmarkSpec("sd", "SDAK demo", "sdak", "builtin:en", size=2, include_unmeasured=True), admin.id)
            _canary(session, "md")
        jobs = Jobs(url)
        app = create_app(Settings(db=url, limits=LIMITS), jobs)
        worker = Worker(url).start()
        p = Platform(url, app, factory, worker, Browser(app), Browser(app), Browser(app), app_client=TestClient(app))
        assert p.admin.login("admin@example.org", "admin password") == 303
        p.alice.signup("alice@example.org", "Alice", "Alice Lab")
        p.bob.signup("bob@example.org", "Bob")
        p.tokens = {"admin": p.admin.new_token(), "alice": p.alice.new_token(), "bob": p.bob.new_token()}
        try:
            yield p
        finally:
            p.worker.stop()
            jobs.close()


def _sqlite(factory: pytest.TempPathFactory):
    import contextlib

    return contextlib.nullcontext(f"sqlite:///{factory.mktemp('platform')}/platform.sqlite")


def answers_for(platform: Platform, slug: str, seed: int, keep: float = 1.0) -> bytes:
    """Random answers in each probe's expected shape (letters, verdicts, words)."""
    with platform.sessions() as session:
        benchmark = session.scalar(select(Benchmark).where(Benchmark.slug == slug))
        ids, samples = pack_ids(benchmark), benchmark.samples
    rng = random.Random(seed)
    words = ["A", "B", "C", "D", "A, C", "true", "false", "correct", "incorrect", "fever; rash", "incorrect, C"]
    lines = [json.dumps({"probe_id": i, "sample": s, "text": rng.choice(words)}) for i in ids for s in range(samples) if rng.random() < keep]
    return ("\n".join(lines) + "\n").encode()


def upload(platform: Platform, who: str, slug: str, data: bytes, model: str = "m", **form: str):
    return platform.app_client.post(
        f"/api/benchmarks/{slug}/submissions", headers=platform.api(who),
        files={"file": ("answers.jsonl", data)}, data={"model": model, **form})


@pytest.fixture(scope="module")
def scored(platform: Platform) -> dict[str, int]:
    """One scored submission per benchmark, by Alice, with a hostile model and organisation name;
    the MultifacetEval one on the leaderboard."""
    found = {}
    for slug in ("mf", "md", "sd"):
        reply = upload(platform, "alice", slug, answers_for(platform, slug, 1), model=NASTY, organisation=NASTY,
                       public="true" if slug == "mf" else "false")
        assert reply.status_code == 201, reply.text
        found[slug] = reply.json()["id"]
    for slug, sid in found.items():
        body = wait_status(platform.app_client, sid, platform.tokens["alice"])
        assert body["status"] == "done", (slug, body)
    return found


def test_upload_is_scored_by_the_worker_with_the_engine(platform: Platform, scored: dict[str, int]) -> None:
    api = platform.app_client
    body = api.get(f"/api/submissions/{scored['mf']}", headers=platform.api("alice")).json()
    assert body["status"] == "done" and body["summary"]["method"] == "multifacet"
    assert set(body["summary"]["metrics"]["facets"]) == {"comparison", "rectification", "discrimination", "verification"}
    interval = body["headline"]["intervals"][0]
    assert interval["low"] <= body["summary"]["metrics"]["average"] <= interval["high"]
    assert abs(interval["value"] - body["summary"]["metrics"]["average"]) < 1e-12
    sdak = api.get(f"/api/submissions/{scored['sd']}", headers=platform.api("alice")).json()
    assert abs(sdak["headline"]["intervals"][0]["value"] - sdak["summary"]["metrics"]["fact_acc"]["mean"]) < 1e-12
    md = api.get(f"/api/submissions/{scored['md']}", headers=platform.api("alice")).json()
    assert abs(md["headline"]["intervals"][0]["value"] - md["summary"]["metrics"]["total_score"]) < 1e-9
    files = api.get(f"/api/submissions/{scored['md']}/rundir.zip", headers=platform.api("alice"))
    names = set(zipfile.ZipFile(io.BytesIO(files.content)).namelist())
    assert {n.split("/", 1)[1] for n in names} >= {"config.json", "responses.jsonl", "summary.json", "report.md", "tiers.svg", "aspects.svg"}
    for slug, part in (("mf", "verification"), ("sd", "Disease-Symptom")):  # the platform's own breakdowns
        for chart in ("breakdown_accuracy.svg", "breakdown_unread.svg"):
            svg = api.get(f"/api/submissions/{scored[slug]}/files/{chart}", headers=platform.api("alice")).text
            assert svg.startswith("<svg") and part in svg, (slug, chart)
    csv_text = api.get(f"/api/submissions/{scored['mf']}/results.csv", headers=platform.api("alice")).text
    assert "metrics.facets.comparison.accuracy" in csv_text and "metrics.facets.verification.parse_failure_rate" in csv_text


def test_results_page_shows_report_and_charts(platform: Platform, scored: dict[str, int]) -> None:
    page = platform.alice.get(f"/submissions/{scored['md']}").text
    assert 'id="status" class="status status-done"' in page
    assert '<img alt="tiers.svg" src="/api/submissions/' in page and "<table>" in page
    svg = platform.alice.client.get(f"/api/submissions/{scored['md']}/files/tiers.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text.startswith("<svg")
    for slug in ("md", "sd", "mf"):  # every image and link of a report opens (none points at /submissions/NAME)
        report = platform.alice.get(f"/submissions/{scored[slug]}").text.split('<div id="report">')[1]
        targets = re.findall(r'(?:src|href)="([^"]+)"', report)
        assert all(t.startswith(("/api/submissions/", "http")) for t in targets), (slug, targets)
        assert all(platform.alice.client.get(t).status_code == 200 for t in targets if t.startswith("/")), (slug, targets)
    assert "accr_sample.csv</a>" not in platform.alice.get(f"/submissions/{scored['sd']}").text


def test_header_and_submission_line_read_well(platform: Platform, scored: dict[str, int]) -> None:
    header = platform.admin.get("/").text.split("<header>")[1].split("</header>")[0]
    assert re.sub(r"<[^>]+>|\s+", " ", header).count("Admin Admin") == 0 and "Account · Admin" in header
    bob = upload(platform, "bob", "md", answers_for(platform, "md", 3), model="no organisation")
    assert bob.status_code == 201
    assert "· ·" not in platform.bob.get(f"/submissions/{bob.json()['id']}").text


def test_leaderboard_is_opt_in_with_intervals_and_comparability(platform: Platform, scored: dict[str, int]) -> None:
    api = platform.app_client
    rows = api.get("/api/benchmarks/mf/leaderboard").json()
    assert [r["submission"] for r in rows] == [str(scored["mf"])]
    row = rows[0]
    assert row["model"] == NASTY and row["95% CI"].startswith("Average [")
    assert {"mode", "knowledge base", "embedder", "prompt style", "Average", "p(M)", "item error"} <= set(row)
    # builtin:en with unmeasured cells included: a rate once readings of its version ship, else "not measured"
    assert re.fullmatch(r"not measured|\d+\.\d% \[\d+\.\d–\d+\.\d\]", row["item error"]), row["item error"]
    assert api.get("/api/benchmarks/md/leaderboard").json() == []  # not opted in
    csv_text = api.get("/api/benchmarks/mf/leaderboard.csv").text
    assert csv_text.splitlines()[0].startswith("rank,model,organisation,size,licence,link,verified,date")
    assert "'<script>" not in csv_text  # a name starting with '<' is no formula; kept as it is
    reply = api.post(f"/api/submissions/{scored['md']}/leaderboard", json={"public": True}, headers=platform.api("alice"))
    assert reply.status_code == 200 and reply.json()["public"] is True
    assert len(api.get("/api/benchmarks/md/leaderboard").json()) == 1
    assert api.post(f"/api/submissions/{scored['md']}/leaderboard", json={"public": False}, headers=platform.api("bob")).status_code == 404
    api.post(f"/api/submissions/{scored['md']}/leaderboard", json={"public": False}, headers=platform.api("alice"))


def test_gold_never_leaves_the_server(platform: Platform, scored: dict[str, int]) -> None:
    """Every page, download and API answer, as every role: no canary gold, no gold field, no engine id."""
    with platform.sessions() as session:
        secrets_ = [CANARY]
        for benchmark in session.scalars(select(Benchmark)):
            for line in benchmark.probes_jsonl.splitlines():
                probe = json.loads(line)
                secrets_ += [probe["id"], probe["knowledge_point"]]
    api = platform.app_client
    urls = ["/", "/api/benchmarks", "/openapi.json", "/admin", "/submissions", "/account"]
    for slug in ("mf", "md", "sd"):
        urls += [f"/benchmarks/{slug}", f"/benchmarks/{slug}/leaderboard", f"/api/benchmarks/{slug}", f"/api/benchmarks/{slug}/pack.jsonl",
                 f"/api/benchmarks/{slug}/pack.csv", f"/api/benchmarks/{slug}/leaderboard", f"/api/benchmarks/{slug}/leaderboard.csv"]
    for sid in scored.values():
        urls += [f"/submissions/{sid}", f"/api/submissions/{sid}", f"/api/submissions/{sid}/results.csv", f"/api/submissions/{sid}/rundir.zip",
                 f"/api/submissions/{sid}/reader-audit.csv"]
        urls += [f"/api/submissions/{sid}/files/{n}" for n in ("summary.json", "report.md", "config.json", "responses.jsonl", "tiers.svg", "aspects.svg", "scores.jsonl", "accr_sample.csv")]
    urls.append("/api/submissions")
    checked = 0
    for who in ("admin", "alice", "bob", None):
        for url in urls:
            reply = api.get(url, headers=platform.api(who))
            bodies = [reply.content]
            if url.endswith(".zip") and reply.status_code == 200:
                archive = zipfile.ZipFile(io.BytesIO(reply.content))
                bodies += [archive.read(n) for n in archive.namelist()]
            for body in bodies:
                text = body.decode("utf-8", "replace")
                leaked = [s for s in secrets_ if s in text]
                assert not leaked, f"{url} as {who} shows {leaked[:3]}"
                assert '"gold"' not in text, f"{url} as {who} has a gold field"
                checked += 1
    assert checked > 150
    assert api.get(f"/api/submissions/{scored['sd']}/files/accr_sample.csv", headers=platform.api("admin")).status_code == 404


def test_owner_audits_the_reader_on_the_results_page(platform: Platform, scored: dict[str, int]) -> None:
    """The owner downloads the audit sheet of their replies (pack ids, no gold), fills it in and uploads it;
    the page scores it. Nobody else gets the sheet, not even of a submission on the leaderboard."""
    sid = scored["mf"]
    assert 'id="reader-audit"' in platform.alice.get(f"/submissions/{sid}").text
    assert 'id="reader-audit"' not in platform.bob.get(f"/submissions/{sid}").text  # public, but not Bob's
    reply = platform.app_client.get(f"/api/submissions/{sid}/reader-audit.csv?sample=6", headers=platform.api("alice"))
    assert reply.status_code == 200 and "attachment" in reply.headers["content-disposition"]
    table = [r for r in csv.reader(io.StringIO(reply.text.lstrip("\ufeff"))) if not r[0].startswith("# ")]
    rows = [dict(zip(table[0], r, strict=True)) for r in table[1:]]
    assert len(rows) == 6 and all(r["your_reading"] == "" and r["reading"] for r in rows)
    with platform.sessions() as session:
        benchmark = session.scalar(select(Benchmark).where(Benchmark.slug == "mf"))
        assert {r["id"] for r in rows} <= set(pack_ids(benchmark))
    for who in ("bob", None):
        assert platform.app_client.get(f"/api/submissions/{sid}/reader-audit.csv", headers=platform.api(who)).status_code == 404
    assert platform.app_client.get(f"/api/submissions/{scored['md']}/reader-audit.csv", headers=platform.api("alice")).status_code == 409
    # the reviewer agrees with every reading but one, where the reader read an answer the reply does not give
    wrong = next(r for r in rows if r["reading"] != "none")
    for row in rows:
        row["your_reading"] = "none" if row is wrong else row["reading"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    sheet = {"file": ("filled.csv", out.getvalue().encode())}
    page = platform.alice.post_form(f"/submissions/{sid}", f"/submissions/{sid}/reader-audit", {}, files=sheet)
    assert page.status_code == 200 and "false reads / read" in page.text
    family = wrong["rule"].split(" (", 1)[0]
    read = sum(r["reading"] != "none" and r["rule"].split(" (", 1)[0] == family for r in rows)
    assert f"<td>{family}</td><td>{read}</td><td>1/{read} = " in page.text
    assert f"the most errors: {family}</p>" in page.text
    assert platform.bob.post_form(f"/submissions/{sid}", f"/submissions/{sid}/reader-audit", {}, files=sheet).status_code == 404
    blank = {"file": ("mine.csv", b"id,task,reading,rule,your_reading\nq1,MCQ,A,labelled,\n")}
    refused = platform.alice.post_form(f"/submissions/{sid}", f"/submissions/{sid}/reader-audit", {}, files=blank)
    assert refused.status_code == 422 and "mine.csv" in refused.text and "medprobe-audit-" not in refused.text


def test_per_line_errors_malformed_and_oversized_uploads(platform: Platform) -> None:
    good = answers_for(platform, "mf", 2).decode().splitlines()
    first = json.loads(good[0])["probe_id"]
    bad = "\n".join([
        good[0], "not json", json.dumps({"probe_id": "q-nope", "text": "A"}), json.dumps({"probe_id": first, "text": "B"}),
        json.dumps({"probe_id": good[1][14:31], "sample": 3, "text": "A"}), json.dumps({"probe_id": first, "text": 5, "x": 1}),
        json.dumps([1, 2]),
    ]).encode()
    reply = upload(platform, "alice", "mf", bad)
    assert reply.status_code == 422
    lines = {row["line"]: row["error"] for row in reply.json()["lines"]}
    assert set(lines) == {2, 3, 4, 5, 6, 7}
    assert lines[2].startswith("not JSON") and "unknown probe_id" in lines[3] and "answered already on line 1" in lines[4]
    assert "sample must be" in lines[5] and "unknown field" in lines[6] and "expected an object" in lines[7]
    assert upload(platform, "alice", "mf", b"\xff\xfe garbage").json()["lines"][0]["error"].startswith("not UTF-8")
    assert upload(platform, "alice", "mf", b"").status_code == 422
    big = upload(platform, "alice", "mf", b"x" * (LIMITS.max_upload_bytes + 100_000))
    assert big.status_code == 413 and "larger than" in big.json()["error"]
    form = platform.alice.post_form("/benchmarks/mf", "/benchmarks/mf/submit", {"model": "m"}, files={"file": ("a.jsonl", bad)})
    assert form.status_code == 422 and "answered already on line 1" in form.text and 'id="upload-errors"' in form.text
    csv_upload = "probe_id,sample,text\n" + "".join(f"{json.loads(g)['probe_id']},0,A\n" for g in good)
    reply = upload(platform, "bob", "mf", csv_upload.encode() + b"q123,0,A\n", model="csv")
    assert reply.status_code == 422 and reply.json()["lines"] == [{"line": len(good) + 2, "error": "unknown probe_id 'q123' (not in this benchmark's pack)"}]


def test_duplicate_submission_and_rate_limit(platform: Platform, scored: dict[str, int]) -> None:
    data = answers_for(platform, "mf", 1)  # what the `scored` fixture sent
    reply = upload(platform, "alice", "mf", data, model="again")
    assert reply.status_code == 409 and reply.json()["submission"] == scored["mf"]
    carol = Browser(platform.app)
    carol.signup("carol@example.org", "Carol")
    platform.tokens["carol"] = carol.new_token()
    replies = [upload(platform, "carol", "sd", answers_for(platform, "sd", 100 + i, keep=0.9), model=f"b{i}") for i in range(LIMITS.submissions_per_hour + 1)]
    statuses = [reply.status_code for reply in replies]
    assert statuses[:LIMITS.submissions_per_hour] == [201] * LIMITS.submissions_per_hour and statuses[-1] == 429
    assert 3000 < int(replies[-1].headers["retry-after"]) <= 3601


def test_names_are_escaped_on_every_page(platform: Platform, scored: dict[str, int]) -> None:
    for who in (platform.alice, platform.admin):
        for url in ("/submissions", f"/submissions/{scored['mf']}", "/benchmarks/mf/leaderboard", "/"):
            page = who.get(url).text
            assert "<script>alert" not in page, url
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in who.get(f"/submissions/{scored['mf']}").text
    with platform.sessions() as session:  # the SQL text was stored as text, nothing ran
        assert session.scalar(select(Submission.model_name).where(Submission.id == scored["mf"])) == NASTY
    # a name that displays as another (right-to-left override) or holds control characters is refused
    for name in ("my-model\u202egnp.exe", "model\x1b[31m", "model\u2066x"):
        reply = upload(platform, "bob", "mf", answers_for(platform, "mf", 5), model=name)
        assert reply.status_code == 422 and "invisible character" in reply.json()["error"], name
    assert upload(platform, "bob", "mf", answers_for(platform, "mf", 5), model="m", organisation="lab\u202e").status_code == 422


def test_path_traversal_in_downloads(platform: Platform, scored: dict[str, int]) -> None:
    api = platform.app_client
    sid = scored["mf"]
    for name in ("..%2F..%2F..%2Fetc%2Fpasswd", "%2E%2E%2Fsummary.json", "..%5C..%5Cconfig.json", "scores.jsonl", "%2Fetc%2Fpasswd"):
        reply = api.get(f"/api/submissions/{sid}/files/{name}", headers=platform.api("alice"))
        assert reply.status_code == 404 and "root:" not in reply.text, name
    assert api.get(f"/api/submissions/{sid}/files/../../../etc/passwd", headers=platform.api("alice")).status_code == 404
    assert api.get("/api/benchmarks/..%2Fmf/pack.jsonl").status_code == 404


def test_csrf_and_tokens(platform: Platform) -> None:
    victim = platform.alice.client
    assert victim.post("/account/tokens", data={"name": "x"}).status_code == 403  # no CSRF token
    assert victim.post("/account/tokens", data={"name": "x", "csrf_token": "forged"}).status_code == 403
    api = platform.app_client
    assert api.post("/api/benchmarks/mf/submissions", files={"file": ("a", b"")}, data={"model": "m"}).status_code == 401
    token = platform.bob.new_token("short-lived")
    headers = {"authorization": f"Bearer {token}"}
    assert api.get("/api/submissions", headers=headers).status_code == 200
    token_id = max(t["id"] for t in _tokens(platform, "bob@example.org"))
    assert api.delete(f"/api/tokens/{token_id}", headers=platform.api("alice")).status_code == 404  # not hers
    assert api.delete(f"/api/tokens/{token_id}", headers=headers).status_code == 200
    assert api.get("/api/submissions", headers=headers).status_code == 401
    assert api.get("/api/submissions", headers={"authorization": "Bearer mpt_guess"}).status_code == 401


def _tokens(platform: Platform, email: str) -> list[dict[str, int]]:
    from medprobe.platform.models import ApiToken, User

    with platform.sessions() as session:
        user = session.scalar(select(User).where(User.email == email))
        return [{"id": t.id} for t in session.scalars(select(ApiToken).where(ApiToken.user_id == user.id))]


def test_run_for_me_is_admin_only_and_never_asks_a_participants_address(platform: Platform) -> None:
    """A participant cannot register an endpoint or start a run; a model name that looks like an
    endpoint is only a name: the server opens no connection to it."""
    hits: list[int] = []
    trap = socket.socket()
    trap.bind(("127.0.0.1", 0))
    trap.listen()
    trap.settimeout(0.2)
    port = trap.getsockname()[1]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                trap.accept()[0].close()
                hits.append(1)
            except OSError:
                continue

    threading.Thread(target=watch, daemon=True).start()
    api = platform.app_client
    endpoint = {"name": "trap", "model": f"openai:m@http://127.0.0.1:{port}/v1"}
    assert api.post("/api/endpoints", json=endpoint, headers=platform.api("alice")).status_code == 403
    assert api.post("/api/endpoints", json=endpoint).status_code == 401
    assert api.post("/api/benchmarks/mf/runs", json={"endpoint": "trap"}, headers=platform.api("alice")).status_code == 403
    page = platform.alice.post_form("/account", "/admin/endpoints", {"name": "trap", "model": endpoint["model"]})
    assert page.status_code == 403
    reply = upload(platform, "alice", "mf", answers_for(platform, "mf", 7), model=endpoint["model"])
    assert reply.status_code == 201
    assert wait_status(api, reply.json()["id"], platform.tokens["alice"])["status"] == "done"
    stop.set()
    trap.close()
    assert hits == []


def test_run_for_me_asks_an_admins_endpoint_and_scores_the_answers(platform: Platform) -> None:
    """An admin registers an OpenAI-compatible endpoint (the mock server, answering every probe with
    its gold) and runs a benchmark against it: the worker asks it once per probe with the engine and
    scores the answers like an upload; a perfect model scores 100 % on every facet."""
    with platform.sessions() as session:
        probes = probes_of(session.scalar(select(Benchmark).where(Benchmark.slug == "mf")))
    gold = {probe.prompt: gold_reply(probe) for probe in probes}
    mock = MockOpenAI(reply=lambda body: gold[body["messages"][-1]["content"]])
    api = platform.app_client
    with serve_in_thread(mock) as url:
        endpoint = {"name": "perfect", "model": f"openai:perfect@{url}"}
        assert api.post("/api/endpoints", json=endpoint, headers=platform.api("admin")).status_code == 201
        run = api.post("/api/benchmarks/mf/runs", json={"endpoint": "perfect", "model_name": "Perfect 1B"}, headers=platform.api("admin"))
        assert run.status_code == 201 and run.json()["status"] == "queued"
        body = wait_status(api, run.json()["id"], platform.tokens["admin"])
    assert body["status"] == "done", body
    assert mock.requests == len(probes) == body["answers"] and body["model"] == "Perfect 1B"
    metrics = body["summary"]["metrics"]
    assert {name: (f["accuracy"], f["parse_failure_rate"]) for name, f in metrics["facets"].items()} == {
        name: (1.0, 0.0) for name in ("comparison", "rectification", "discrimination", "verification")}
    assert metrics["average"] == 1.0 and metrics["mastery"]["with_negation"] == [1.0] * 4
    assert body["headline"]["intervals"][0]["value"] == 1.0
    # the platform asked the model itself: its row is marked verified, an uploaded one is not
    assert api.post(f"/api/submissions/{body['id']}/leaderboard", headers=platform.api("admin"), json={"public": True}).status_code == 200
    marks = {row["model"]: row["verified"] for row in api.get("/api/benchmarks/mf/leaderboard").json()}
    assert marks["Perfect 1B"] == "yes" and set(marks.values()) == {"yes", "no"}
    assert '<span class="badge">verified</span></td>' in platform.bob.get("/benchmarks/mf/leaderboard").text


def test_worker_killed_while_scoring_loses_nothing(platform: Platform) -> None:
    api = platform.app_client
    platform.worker.stop()
    slow = Worker(platform.url, slow_s=30).start()
    reply = upload(platform, "alice", "mf", answers_for(platform, "mf", 11), model="killed")
    sid = reply.json()["id"]
    assert wait_status(api, sid, platform.tokens["alice"], want=("scoring",), timeout=60)["status"] == "scoring"
    slow.kill()
    assert api.get(f"/api/submissions/{sid}", headers=platform.api("alice")).json()["status"] == "scoring"
    platform.worker = Worker(platform.url).start()  # same executor id: the queue hands the job back
    body = wait_status(api, sid, platform.tokens["alice"])
    assert body["status"] == "done"
    with platform.sessions() as session:
        assert session.get(Submission, sid).attempts == 2
    twin = upload(platform, "admin", "mf", answers_for(platform, "mf", 11), model="twin")
    twin_body = wait_status(api, twin.json()["id"], platform.tokens["admin"])
    assert twin_body["summary"]["metrics"] == body["summary"]["metrics"]


ROLES = ("anonymous", "alice", "bob", "admin")  # alice owns the private submission; bob is another participant


def _matrix(private: int, public: int, token_id: int) -> list[tuple[str, str, str, Any, tuple[int, int, int, int]]]:
    """(kind, method, url, body, expected status for anonymous, owner, other participant, admin)."""
    endpoint = {"model": "openai:m@http://127.0.0.1:9/v1"}
    bad_file = {"files": {"file": ("a.jsonl", b"nonsense")}, "data": {"model": "m"}}
    mine = (404, 200, 404, 200)
    return [
        ("api", "GET", "/api/benchmarks", None, (200, 200, 200, 200)),
        ("api", "GET", "/api/benchmarks/mf", None, (200, 200, 200, 200)),
        ("api", "GET", "/api/benchmarks/mf/pack.jsonl", None, (200, 200, 200, 200)),
        ("api", "GET", "/api/benchmarks/mf/pack.csv", None, (200, 200, 200, 200)),
        ("api", "GET", "/api/benchmarks/mf/leaderboard", None, (200, 200, 200, 200)),
        ("api", "GET", "/api/benchmarks/mf/leaderboard.csv", None, (200, 200, 200, 200)),
        ("api", "POST", "/api/benchmarks", {"json": {"slug": "x-{role}", "title": "t", "method": "sdak", "size": 1, "include_unmeasured": True}}, (401, 403, 403, 201)),
        ("api", "POST", "/api/benchmarks/mf/submissions", bad_file, (401, 422, 422, 422)),
        ("api", "POST", "/api/benchmarks/mf/runs", {"json": {"endpoint": "nowhere"}}, (401, 403, 403, 404)),
        ("api", "POST", "/api/endpoints", {"json": {"name": "e-{role}", **endpoint}}, (401, 403, 403, 201)),
        ("api", "GET", "/api/submissions", None, (401, 200, 200, 200)),
        ("api", "GET", f"/api/submissions/{private}", None, mine),
        ("api", "GET", f"/api/submissions/{private}/files/summary.json", None, mine),
        ("api", "GET", f"/api/submissions/{private}/results.csv", None, mine),
        ("api", "GET", f"/api/submissions/{private}/rundir.zip", None, mine),
        ("api", "GET", f"/api/submissions/{public}", None, (200, 200, 200, 200)),
        ("api", "GET", f"/api/submissions/{public}/rundir.zip", None, (200, 200, 200, 200)),
        ("api", "GET", f"/api/submissions/{private}/reader-audit.csv", None, (404, 409, 404, 409)),  # SDAK: no option questions
        ("api", "GET", f"/api/submissions/{public}/reader-audit.csv", None, mine),
        ("api", "POST", f"/api/submissions/{private}/leaderboard", {"json": {"public": False}}, (401, 200, 404, 200)),
        ("api", "POST", f"/api/submissions/{public}/leaderboard", {"json": {"public": True}}, (401, 200, 404, 200)),
        ("api", "DELETE", f"/api/tokens/{token_id}", None, (401, 200, 404, 404)),
        ("page", "GET", "/", None, (200, 200, 200, 200)),
        ("page", "GET", "/signup", None, (200, 200, 200, 200)),
        ("page", "GET", "/login", None, (200, 200, 200, 200)),
        ("page", "GET", "/benchmarks/mf", None, (200, 200, 200, 200)),
        ("page", "GET", "/benchmarks/mf/leaderboard", None, (200, 200, 200, 200)),
        ("page", "GET", "/account", None, (401, 200, 200, 200)),
        ("page", "GET", "/submissions", None, (401, 200, 200, 200)),
        ("page", "GET", f"/submissions/{private}", None, mine),
        ("page", "GET", f"/submissions/{public}", None, (200, 200, 200, 200)),
        ("page", "GET", "/admin", None, (401, 403, 403, 200)),
        ("page", "POST", "/account/tokens", {"name": "m"}, (401, 303, 303, 303)),
        ("page", "POST", "/benchmarks/mf/submit", {"model": "m"}, (401, 422, 422, 422)),
        ("page", "POST", f"/submissions/{private}/leaderboard", {}, (401, 303, 404, 303)),
        ("page", "POST", "/admin/benchmarks", {"slug": "p-{role}", "title": "t", "method": "sdak", "size": "1", "include_unmeasured": "on"}, (401, 403, 403, 303)),
        ("page", "POST", "/admin/endpoints", {"name": "pe-{role}", **endpoint}, (401, 403, 403, 303)),
        ("page", "POST", "/admin/runs", {"benchmark": "mf", "endpoint": "nowhere"}, (401, 403, 403, 404)),
    ]


def _fill(value: Any, role: str) -> Any:
    if isinstance(value, str):
        return value.replace("{role}", role)
    if isinstance(value, dict):
        return {k: _fill(v, role) for k, v in value.items()}
    return value


def test_authorisation_matrix(platform: Platform, scored: dict[str, int]) -> None:
    """Every endpoint as anonymous / owner / another participant / admin; the table is printed."""
    throwaway = platform.alice.new_token("to revoke")
    token_id = max(t["id"] for t in _tokens(platform, "alice@example.org"))
    assert throwaway
    browsers = {"anonymous": Browser(platform.app), "alice": platform.alice, "bob": platform.bob, "admin": platform.admin}
    report, wrong = [], []
    for kind, method, url, body, expected in _matrix(scored["sd"], scored["mf"], token_id):
        got = []
        for role in ROLES:
            if kind == "api":
                headers = platform.api(role if role != "anonymous" else None)
                reply = platform.app_client.request(method, url, headers=headers, **_fill(body or {}, role))
            elif method == "GET":
                reply = browsers[role].get(url)
            else:
                reply = browsers[role].post_form("/login", url, _fill(body, role))
            got.append(reply.status_code)
        report.append(f"{method:6} {url:48} " + " ".join(f"{g:>4}" for g in got))
        if tuple(got) != expected:
            wrong.append(f"{method} {url}: expected {expected}, got {tuple(got)}")
    print("\nauthorisation matrix (anonymous, owner, other participant, admin)\n" + "\n".join(report))
    assert not wrong, "\n".join(wrong)
    mine = {s["id"] for s in platform.app_client.get("/api/submissions", headers=platform.api("bob")).json()}
    assert scored["sd"] not in mine


def _oracle_answers(benchmark: Benchmark, known: set[str]) -> bytes:
    """Answers of a model that knows ``known`` only in MCQ form (medprobe.profile.oracle), under the pack's public ids."""
    probe_set = ProbeSet(probes_of(benchmark), GenerationParams(), info=benchmark.build_info)
    replies = oracle_responses([probe_set], points_record(benchmark.build_info["points"]), known, only_mcq=True)
    lines = [json.dumps({"probe_id": public_id(benchmark.id_key, r.probe_id), "sample": 0, "text": r.text}) for r in replies]
    return ("\n".join(lines) + "\n").encode()


def test_model_page_joins_submissions_on_shared_points_into_a_profile(platform: Platform, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    built = []
    monkeypatch.setattr(profiles, "build_profile", lambda joined: built.append(1) or build_profile(joined))
    kb = write_tiny_kb(tmp_path / "kb.jsonl", n=48)
    bad_seed = platform.admin.post_form("/admin", "/admin/profile-benchmarks", {"prefix": "pf", "data": str(kb), "seed": "-1", "size": "6"})
    assert bad_seed.status_code == 422 and "seed" in bad_seed.text
    reply = platform.admin.post_form("/admin", "/admin/profile-benchmarks", {"prefix": "pf", "data": str(kb), "seed": "0", "size": "6"})
    assert reply.status_code == 303, reply.text
    with platform.sessions() as session:
        benchmarks = list(session.scalars(select(Benchmark).where(Benchmark.slug.startswith("pf-"))))
        ids = benchmarks[0].build_info["points"]["ids"]
        known = set(ids[::2])
        answers = {b.slug: _oracle_answers(b, known) for b in benchmarks}
    assert sorted(answers) == ["pf-meddisk", "pf-multicog", "pf-multifacet", "pf-sdak"] and len(ids) == 6
    carol = Browser(platform.app)
    carol.signup("profile-owner@example.org", "Carol")
    token = {"authorization": f"Bearer {carol.new_token()}"}
    submitted = []
    for slug, data in answers.items():
        reply = platform.app_client.post(f"/api/benchmarks/{slug}/submissions", headers=token,
                                         files={"file": ("answers.jsonl", data)}, data={"model": "oracle <mcq>"})
        assert reply.status_code == 201, reply.text
        submitted.append(reply.json()["id"])
    for sid in submitted:
        assert wait_status(platform.app_client, sid, token["authorization"].split()[1])["status"] == "done"

    page = carol.get("/models/oracle%20%3Cmcq%3E")
    assert page.status_code == 200, page.text
    html = page.text
    assert "oracle &lt;mcq&gt;" in html and "<mcq>" not in html
    share = f"{len(known)} ({pct(len(known) / len(ids))} %)"
    assert html.count(f"<td>{share}</td>") == 4  # known as an MCQ, not known each of the four other ways
    assert "<td>0 (0.0 %)</td>" in html and "<svg" in html
    assert CANARY not in html and "scores.jsonl" not in html
    # private submissions: their owner (and admins) see the profile, others do not
    assert platform.bob.get("/models/oracle%20%3Cmcq%3E").status_code == 404
    main = re.compile(r"<main>.*</main>", re.S)
    again = carol.get("/models/oracle%20%3Cmcq%3E").text
    assert len(built) == 1 and main.search(again).group(0) == main.search(html).group(0)  # stored, not recomputed
    admin_page = platform.admin.get("/models/oracle%20%3Cmcq%3E")
    assert admin_page.status_code == 200 and "<h3>Diseases</h3>" in admin_page.text and "<h3>Diseases</h3>" not in html
    for sid in submitted:
        assert platform.app_client.post(f"/api/submissions/{sid}/leaderboard", headers=token, json={"public": True}).status_code == 200
    assert platform.bob.get("/models/oracle%20%3Cmcq%3E").text.count(f"<td>{share}</td>") == 4
    assert Browser(platform.app).get("/models/oracle%20%3Cmcq%3E").status_code == 200 and len(built) == 1  # anonymous: the stored one
    assert platform.app_client.post("/api/benchmarks/pf-sdak/runs", headers=platform.api("admin"), json={"endpoint": "any"}).status_code == 422


def _tables(html: str) -> list[list[list[str]]]:
    """Every table of a page as rows of cell texts (header row first)."""
    found = []
    for table in re.findall(r"<table>(.*?)</table>", html, re.S):
        rows = [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)]
                for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
        found.append([row for row in rows if row])
    return found


def _mcq_cells(html: str) -> dict[tuple[str, ...], str]:
    """What a participant's model page says of the MultiCogEval MCQ way per row that names a point or an
    aspect: ("disease", disease, aspect) or ("aspect", aspect, number of points) -> "✓…" (known) or another cell."""
    mcq = "MultiCogEval low"
    cells = {}
    for table in _tables(html):
        header = table[0]
        column = next((i for i, h in enumerate(header) if h.startswith(mcq)), None)
        for row in table[1:]:
            if len(row) != len(header):
                continue
            if header[:2] == ["disease", "aspect"] and column is not None:
                cells[("disease", row[0], row[1])] = row[column]
            elif header[:2] == ["aspect", "points"] and column is not None:
                cells[("aspect", row[0], row[1])] = row[column]
            elif header[:4] == ["known", "not known", "disease", "aspect"] and mcq in row[0] + row[1]:
                cells[("disease", row[2], row[3])] = "✓" if row[0].startswith(mcq) else "✗"
    return cells


def test_three_uploads_and_the_model_page_reveal_no_gold(platform: Platform, tmp_path: Path) -> None:
    """The attack: answer every MultiCogEval MCQ with A, then B, then C, reading one's own model page
    after each. A row whose MCQ cell reads 'known' under exactly one letter, and that covers one knowledge
    point (a disease's aspect, or an aspect of one point), gives that point's gold: none may."""
    kb = write_tiny_kb(tmp_path / "kb.jsonl", n=48)
    reply = platform.admin.post_form("/admin", "/admin/profile-benchmarks", {"prefix": "atk", "data": str(kb), "seed": "3", "size": "6"})
    assert reply.status_code == 303, reply.text
    eve = Browser(platform.app)
    eve.signup("attacker@example.org", "Eve")
    token = eve.new_token()
    headers = {"authorization": f"Bearer {token}"}

    def send(slug: str, text: str) -> None:
        with platform.sessions() as session:
            benchmark = session.scalar(select(Benchmark).where(Benchmark.slug == slug))
            data = "".join(json.dumps({"probe_id": i, "text": text}) + "\n" for i in pack_ids(benchmark)).encode()
        reply = platform.app_client.post(f"/api/benchmarks/{slug}/submissions", headers=headers,
                                         files={"file": ("answers.jsonl", data)}, data={"model": "eve-model"})
        assert reply.status_code == 201, reply.text
        assert wait_status(platform.app_client, reply.json()["id"], token)["status"] == "done"

    send("atk-multifacet", "A")
    seen: dict[str, dict[tuple[str, ...], str]] = {}
    for letter in "ABC":
        send("atk-multicog", letter)
        page = eve.get("/models/eve-model")
        assert page.status_code == 200, page.text
        seen[letter] = _mcq_cells(page.text)
    assert all(seen.values()), "the model page's rows were not found: the attack would see nothing and prove nothing"

    def known(cell: str) -> bool:
        return cell.startswith(("✓", "100"))

    with platform.sessions() as session:
        benchmark = session.scalar(select(Benchmark).where(Benchmark.slug == "atk-multicog"))
        mcqs = [p for p in probes_of(benchmark) if p.facet == "MCQ"]
    inferred = {}
    for key in set().union(*seen.values()):
        letters = [letter for letter in "ABC" if known(seen[letter].get(key, ""))]
        if (key[0] == "disease" or key[2] == "1") and len(letters) <= 1:
            inferred[key] = letters[0] if letters else "D"
    right = sum(any(p.gold == letter and key[1] in p.prompt.rsplit("Question:", 1)[-1] for p in mcqs)
                for key, letter in inferred.items())
    assert not inferred, f"three uploads and the model page gave {len(inferred)} golds away ({right} of them right): {inferred}"


def test_admin_moderation_hides_deletes_and_unpublishes(platform: Platform, scored: dict[str, int]) -> None:
    api, mf = platform.app_client, scored["mf"]
    page = platform.admin.get("/admin").text
    assert all(part in page for part in ('id="users"', "alice@example.org", f'href="/submissions/{mf}"', 'id="benchmarks"'))

    def board() -> list[str]:
        return [row["submission"] for row in api.get("/api/benchmarks/mf/leaderboard").json()]

    assert platform.bob.post_form("/login", f"/admin/submissions/{mf}/hidden", {"hidden": "on"}).status_code == 403
    assert platform.admin.post_form("/admin", f"/admin/submissions/{mf}/hidden", {"hidden": "on"}).status_code == 303
    assert str(mf) not in board()
    assert platform.bob.get(f"/submissions/{mf}").status_code == 404 and platform.alice.get(f"/submissions/{mf}").status_code == 200
    assert platform.admin.post_form("/admin", f"/admin/submissions/{mf}/hidden", {}).status_code == 303
    assert str(mf) in board()

    reply = upload(platform, "bob", "md", answers_for(platform, "md", 9), model="to delete")
    sid = reply.json()["id"]
    assert wait_status(api, sid, platform.tokens["bob"])["status"] == "done"
    assert platform.bob.post_form("/login", f"/admin/submissions/{sid}/delete", {}).status_code == 403
    assert platform.admin.post_form("/admin", f"/admin/submissions/{sid}/delete", {}).status_code == 303
    assert platform.bob.get(f"/submissions/{sid}").status_code == 404 and platform.admin.get(f"/submissions/{sid}").status_code == 404
    with platform.sessions() as session:
        gone = session.get(Submission, sid)
        assert gone.status == "deleted" and gone.stored_answers is None
        assert not session.scalars(select(ResultFile).where(ResultFile.submission_id == sid)).all()
    # the next submission gets a new id and is scored (SQLite would give the deleted row's id again,
    # which the queue took for the old, finished job)
    after = upload(platform, "bob", "md", answers_for(platform, "md", 9), model="after a deletion")
    assert after.status_code == 201 and after.json()["id"] > sid
    assert wait_status(api, after.json()["id"], platform.tokens["bob"], timeout=60)["status"] == "done"

    assert platform.admin.post_form("/admin", "/admin/benchmarks/md/published", {}).status_code == 303
    try:
        for url in ("/benchmarks/md", "/benchmarks/md/leaderboard", "/api/benchmarks/md", "/api/benchmarks/md/pack.jsonl"):
            assert platform.bob.get(url).status_code == 404 and platform.admin.get(url).status_code == 200, url
        assert "md" not in [b["slug"] for b in api.get("/api/benchmarks").json()]
        assert 'href="/benchmarks/md"' not in platform.bob.get("/").text
        assert upload(platform, "bob", "md", answers_for(platform, "md", 10)).status_code == 404
    finally:
        assert platform.admin.post_form("/admin", "/admin/benchmarks/md/published", {"published": "on"}).status_code == 303
    assert platform.bob.get("/benchmarks/md").status_code == 200


def test_leaderboards_people_browse(platform: Platform, scored: dict[str, int]) -> None:
    """Model metadata at upload, sorting and filtering a benchmark's board, and the overview across benchmarks."""
    api = platform.app_client
    bad = upload(platform, "bob", "mf", answers_for(platform, "mf", 21), model="linked", link="javascript:alert(1)")
    assert bad.status_code == 422 and "http" in bad.json()["error"]
    reply = upload(platform, "bob", "mf", answers_for(platform, "mf", 21), model="Bob 7B", model_size="7B", licence="Apache-2.0",
                   link="https://example.org/bob-7b", public="true")
    assert reply.status_code == 201 and reply.json()["model_size"] == "7B"
    assert wait_status(api, reply.json()["id"], platform.tokens["bob"])["status"] == "done"
    rows = {r["model"]: r for r in api.get("/api/benchmarks/mf/leaderboard").json()}
    assert (rows["Bob 7B"]["size"], rows["Bob 7B"]["licence"], rows["Bob 7B"]["link"]) == ("7B", "Apache-2.0", "https://example.org/bob-7b")
    page = platform.bob.get("/benchmarks/mf/leaderboard?sort=model&order=desc").text
    assert 'href="https://example.org/bob-7b" rel="nofollow noopener noreferrer"' in page and "model ▼" in page
    shown = re.findall(r'<a href="/submissions/\d+">([^<]+)</a>', page)
    assert shown == sorted(shown, key=str.lower, reverse=True) and len(shown) >= 2
    filtered = platform.bob.get("/benchmarks/mf/leaderboard?q=apache").text
    assert re.findall(r'<a href="/submissions/\d+">([^<]+)</a>', filtered) == ["Bob 7B"]
    assert platform.bob.get("/benchmarks/mf/leaderboard?page=0").status_code == 422
    overview = Browser(platform.app).get("/leaderboard").text
    assert 'id="overview"' in overview and "Bob 7B" in overview and "<svg" in overview and ">mf</a>" in overview


def test_a_participant_asks_for_a_run_and_an_admin_approves_it(platform: Platform) -> None:
    """The participant names a model in words; the admin picks a registered endpoint; the run is the
    participant's submission, verified. Nothing is contacted before the admin's approval."""
    with platform.sessions() as session:
        probes = probes_of(session.scalar(select(Benchmark).where(Benchmark.slug == "mf")))
    gold = {probe.prompt: gold_reply(probe) for probe in probes}
    mock = MockOpenAI(reply=lambda body: gold[body["messages"][-1]["content"]])
    api = platform.app_client
    with serve_in_thread(mock) as url:
        assert api.post("/api/endpoints", json={"name": "requested", "model": f"openai:req@{url}"}, headers=platform.api("admin")).status_code == 201
        for model in ("Bob's big model", "declined one"):
            reply = platform.bob.post_form("/benchmarks/mf", "/benchmarks/mf/run-requests", {"model": model, "note": "on a hub"})
            assert reply.status_code == 303
        assert mock.requests == 0
        assert "Bob&#39;s big model" in platform.bob.get("/submissions").text
        admin_page = platform.admin.get("/admin").text
        ids = [int(i) for i in re.findall(r'action="/admin/run-requests/(\d+)"', admin_page)]
        assert len(set(ids)) >= 2
        first, second = sorted(set(ids))[-2:]
        assert platform.bob.post_form("/submissions", f"/admin/run-requests/{first}", {"action": "approve", "endpoint": "requested"}).status_code == 403
        approved = platform.admin.post_form("/admin", f"/admin/run-requests/{first}", {"action": "approve", "endpoint": "requested"})
        assert approved.status_code == 303
        sid = int(approved.headers["location"].rsplit("/", 1)[1])
        body = wait_status(api, sid, platform.tokens["bob"])  # Bob's own submission
        assert body["status"] == "done" and body["model"] == "Bob's big model" and body["summary"]["metrics"]["average"] == 1.0
        assert platform.admin.post_form("/admin", f"/admin/run-requests/{second}", {"action": "decline"}).status_code == 303
        assert platform.admin.post_form("/admin", f"/admin/run-requests/{second}", {"action": "decline"}).status_code == 409
    assert api.post(f"/api/submissions/{sid}/leaderboard", headers=platform.api("bob"), json={"public": True}).status_code == 200
    row = next(r for r in api.get("/api/benchmarks/mf/leaderboard").json() if r["submission"] == str(sid))
    assert row["verified"] == "yes"
    mine = platform.bob.get("/submissions").text
    assert f'<a href="/submissions/{sid}">approved</a>' in mine and "declined" in mine
