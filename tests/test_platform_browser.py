"""The platform in a real browser: Playwright drives Debian's Chromium through a live ``medprobe
serve`` on 127.0.0.1 — sign up, create an API token, download the probe pack, upload answers with
the web form, watch the status turn from queued to done, see the results and their charts, opt
into the leaderboard and find the row there; then the overview of every benchmark, sorting a
leaderboard, a password change, and an admin hiding the submission. A screenshot (PNG) of each
page goes to the folder the test prints ($MEDPROBE_SCREENSHOTS, else a temporary one).

It runs on SQLite and on a throwaway PostgreSQL cluster, with screenshots in a folder per database.
``serve`` runs without its own worker (``--workers 0``) and the test starts ``medprobe worker``
once the page shows "queued", so the status change is seen on the page itself, reloading on its
own, whatever the machine's speed.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from testing.platform_helpers import Worker, free_port, postgres_cluster

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is missing; `scripts/setup.sh dev` installs it")
CHROMIUM = Path("/usr/bin/chromium")
#: as root Chromium needs --no-sandbox; the rest keeps it off the network and quiet
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-proxy-server",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DEMO = "demo-multifacet-en"
WAIT_MS = 120_000


@contextlib.contextmanager
def live_server(folder: Path, database: str) -> Iterator[tuple[str, str]]:
    """``medprobe serve`` on a free loopback port with a fresh database (a SQLite file, or a throwaway
    PostgreSQL cluster); yields (address, database URL)."""
    with postgres_cluster() if database == "postgresql" else contextlib.nullcontext(f"sqlite:///{folder / 'platform.sqlite'}") as db:
        yield from _serve(folder, db)


def _serve(folder: Path, db: str) -> Iterator[tuple[str, str]]:
    port = free_port()
    log = (folder / "serve.log").open("w")
    env = {**os.environ, "MEDPROBE_ADMIN_PASSWORD": "admin password"}
    proc = subprocess.Popen([sys.executable, "-m", "medprobe", "serve", "--db", db, "--host", "127.0.0.1", "--port", str(port),
                             # the demo on builtin:en is gated (medprobe.gating); this test must not depend on shipped readings
                             "--workers", "0", "--include-unmeasured"], stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not _answers(base):
            assert proc.poll() is None and time.monotonic() < deadline, "medprobe serve did not start:\n" + (folder / "serve.log").read_text()
            time.sleep(0.3)
        yield base, db
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _answers(base: str) -> bool:
    try:
        return httpx.get(base + "/", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def answers_for(pack: list[dict]) -> str:
    """One answer per probe in its expected shape: the first option, or a verdict."""
    return "".join(json.dumps({"probe_id": row["id"], "sample": 0, "text": (row["answer_format"]["options"] or ["true"])[0]}) + "\n"
                   for row in pack)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("MEDPROBE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {folder}")
    return folder


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not CHROMIUM.exists():
        pytest.skip(f"Debian's Chromium ({CHROMIUM}) is missing; `scripts/setup.sh dev` installs it with apt-get as root")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=60_000)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_whole_flow_in_chromium(browser, shots: Path, tmp_path: Path, database: str) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    shots = shots / database
    shots.mkdir(exist_ok=True)
    with live_server(tmp_path, database) as (base, db):
        page = browser.new_context(base_url=base, accept_downloads=True, viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(30_000)

        def shot_of(on, name: str) -> None:  # type: ignore[no-untyped-def]
            on.screenshot(path=str(shots / f"{name}.png"), full_page=True)

        def shot(name: str) -> None:
            shot_of(page, name)

        page.goto("/")
        expect(page.locator("h1")).to_have_text("Benchmarks")
        shot("01-home")

        page.click("header >> text=Sign up")
        page.fill("input[name=email]", "ada@example.org")
        page.fill("input[name=name]", "Ada")
        page.fill("input[name=organisation]", "Analytical Lab")
        page.fill("input[name=password]", "a long enough password")
        shot("02-signup")
        page.click("button:has-text('Create account')")
        expect(page).to_have_url(f"{base}/account")

        page.fill("input[name=name]", "laptop")
        page.click("button:has-text('Create a token')")
        token = page.locator("#new-token").inner_text()
        assert token.startswith("mpt_")
        expect(page.locator("table")).to_contain_text("laptop")
        shot("03-account-token")
        mine = page.request.get("/api/submissions", headers={"authorization": f"Bearer {token}"})
        assert mine.status == 200 and mine.json() == []

        page.goto("/")
        page.click(f"a[href='/benchmarks/{DEMO}']")
        shot("04-benchmark")
        with page.expect_download() as download:
            page.click("#pack-jsonl")
        pack = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]
        assert len(pack) == page.request.get(f"/api/benchmarks/{DEMO}").json()["probes"] == 200
        assert all(set(row) == {"id", "facet", "language", "samples", "system", "prompt", "answer_format", "generation"} for row in pack)
        with page.expect_download() as download:
            page.click("#pack-csv")
        assert Path(download.value.path()).read_text().startswith("id,facet,language,samples,answer_kind")

        answers = tmp_path / "answers.jsonl"
        answers.write_text(answers_for(pack))
        page.set_input_files("input[name=file]", str(answers))
        page.fill("input[name=model]", "browser-model")
        shot("05-upload-form")
        page.click("button:has-text('Submit')")
        expect(page).to_have_url(f"{base}/submissions/1")
        expect(page.locator("#status")).to_have_text("queued")
        shot("06-submission-queued")

        worker = Worker(db).start()
        try:
            expect(page.locator("#status")).to_have_text("done", timeout=WAIT_MS)  # the page reloads itself
        finally:
            worker.stop()
        expect(page.locator("#headline")).to_contain_text("browser-model")
        charts = page.locator(".charts img")
        assert charts.count() >= 2
        for i in range(charts.count()):
            assert charts.nth(i).evaluate("img => img.complete && img.naturalWidth > 0"), charts.nth(i).get_attribute("src")
            svg = page.request.get(charts.nth(i).get_attribute("src"))
            assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text().startswith("<svg")
        assert page.locator("#report table").count() >= 1
        shot("07-results")

        assert page.request.get(f"/api/benchmarks/{DEMO}/leaderboard").json() == []
        page.check("input[name=public]")
        page.click("#save-visibility")
        expect(page.locator("input[name=public]")).to_be_checked()
        page.goto("/")
        page.click(f"a[href='/benchmarks/{DEMO}/leaderboard']")
        row = page.locator("#leaderboard tr", has_text="browser-model")
        expect(row).to_contain_text("Analytical Lab")
        expect(row.locator("a")).to_have_attribute("href", "/submissions/1")
        shot("08-leaderboard")

        page.click("header >> text=My submissions")
        expect(page.locator("table")).to_contain_text("shown")
        shot("09-submissions")

        page.click("header >> text=Leaderboards")
        expect(page.locator("#overview")).to_contain_text("browser-model")
        assert page.locator(".charts svg").count() >= 1
        shot("10-overview")
        page.click(f"#overview a[href='/leaderboard?sort={DEMO}']")
        expect(page).to_have_url(f"{base}/leaderboard?sort={DEMO}")

        page.goto(f"/benchmarks/{DEMO}/leaderboard")
        page.click("#leaderboard th a:text-is('model')")
        expect(page.locator("#leaderboard th", has_text="model ▲")).to_have_count(1)

        page.goto("/account")
        page.fill("input[name=current]", "a long enough password")
        page.fill("input[name=new]", "an even longer password")
        page.click("button:has-text('Change the password')")
        expect(page.locator("#password-message")).to_contain_text("password changed")
        shot("11-password")

        admin = browser.new_context(base_url=base).new_page()
        admin.goto("/login")
        admin.fill("input[name=email]", "admin@localhost")
        admin.fill("input[name=password]", "admin password")
        admin.click("main button:has-text('Log in')")
        admin.goto("/admin")
        expect(admin.locator("#users + table")).to_contain_text("ada@example.org")
        admin.locator("form[action='/admin/submissions/1/hidden'] button").click()
        expect(admin.locator("form[action='/admin/submissions/1/hidden'] button")).to_have_text("Show")
        shot_of(admin, "12-admin")
        assert page.request.get(f"/api/benchmarks/{DEMO}/leaderboard").json() == []  # hidden: off the leaderboard
    assert sorted(p.name for p in shots.glob("*.png")) == [f"{n}.png" for n in (
        "01-home", "02-signup", "03-account-token", "04-benchmark", "05-upload-form", "06-submission-queued", "07-results",
        "08-leaderboard", "09-submissions", "10-overview", "11-password", "12-admin")]
