"""The documentation site builds strictly and no internal link or anchor in it is broken; the README
stays short and its links lead into the site; the generated CLI reference lists every command.

The site is built in-process with MkDocs (a dev dependency); where MkDocs is not installed the build
tests skip and say so."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the README says what medprobe is and how to start; everything else lives in docs/
README_MAX_LINES = 200


class _Links(HTMLParser):
    """The ids a page defines and the hrefs / srcs it points at."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag in ("a", "link") and found.get("href"):
            self.links.append(str(found["href"]))
        if tag in ("img", "script") and found.get("src"):
            self.links.append(str(found["src"]))


def parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def broken_links(site: Path) -> list[str]:
    """Every internal link of the built site that names a missing file or a missing anchor. The 404 page
    is left out: it is served at whatever path was missing, so its links start at the site's root."""
    site = site.resolve()
    pages = {page: parse(page) for page in site.rglob("*.html") if page.name != "404.html"}
    broken = []
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("mailto:"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(site)} -> {link}"
            if not target.is_file():
                broken.append(f"{where}: no such file")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where}: no such anchor")
    return broken


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `make test` builds it: strict, so a warning (a broken relative link, an unknown
    anchor, a page missing from the navigation) fails the build."""
    pytest.importorskip("mkdocs", reason="MkDocs is a dev dependency: scripts/setup.sh dev installs it")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    out = tmp_path_factory.mktemp("site")
    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(out), strict=True)
    build(config)
    return out


def test_the_site_builds_strictly_and_every_internal_link_resolves(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert broken_links(site) == []


def test_the_link_check_finds_a_missing_page_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">x</h2><a href="#here">ok</a>', encoding="utf-8")
    (tmp_path / "index.html").write_text(
        '<a href="a/">ok</a><a href="a/#here">ok</a><a href="a/#gone">bad</a><a href="b/">bad</a>'
        '<a href="https://example.org/x">external</a>', encoding="utf-8")
    assert broken_links(tmp_path) == ["index.html -> a/#gone: no such anchor", "index.html -> b/: no such file"]


def test_the_cli_reference_lists_every_command(site: Path) -> None:
    """The reference is generated from the Typer app, so a new command appears without editing a page."""
    import typer

    from medprobe.cli import app

    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="medprobe")
    page = (site / "cli" / "index.html").read_text(encoding="utf-8")
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        assert f"medprobe {name}" in page
        sub_ctx = command.context_class(command, info_name=name, parent=ctx)
        for sub in getattr(command, "list_commands", lambda _: [])(sub_ctx):
            assert f"medprobe {name} {sub}" in page


def test_the_precision_page_shows_what_kb_precision_prints(site: Path) -> None:
    from medprobe.precision import table_rows

    page = (site / "precision" / "index.html").read_text(encoding="utf-8")
    rows = table_rows("en") + table_rows("zh")
    assert rows, "the shipped readings measure at least one cell"
    for row in rows:
        assert f"{row['read'] - row['bad']}/{row['read']}" in page


def test_the_readme_is_short_and_its_links_lead_into_the_docs() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if "://" not in t]
    assert any(t.startswith("docs/") for t in local)
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []


def test_no_page_holds_text_that_markdown_would_take_for_an_html_tag() -> None:
    """Outside code, "<organ>" is read as an HTML tag and vanishes from the page: write &lt;organ&gt;."""
    tag = re.compile(r"<[A-Za-z/][^>]*>")
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        in_fence = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                in_fence = not in_fence
            prose = re.sub(r"`[^`]*`", "", line)
            if not in_fence and tag.search(prose):
                found.append(f"{page.relative_to(ROOT)}:{number}: {tag.search(prose).group()}")
    assert found == []
