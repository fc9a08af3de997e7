"""The docs site built with ``mkdocs build --strict`` and opened in chromium: the home page, a
how-to, the command-line reference and the search (offline, in the page) work, with no console
error and no request leaving loopback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser import NEEDS_CHROMIUM, launched_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PROJECT = Path(__file__).resolve().parents[2]
LOAD_TIMEOUT_MS = 30_000

pytestmark = [
    pytest.mark.slow,  # a site build and a browser: left out of the fast run
    pytest.mark.xdist_group("browser"),  # beside the report's browser tests, on one worker
    NEEDS_CHROMIUM,
]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        """Requests are not logged (the test's output is the browser's)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built into a temporary folder and served on loopback; its base URL."""
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=PROJECT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_chromium() as launched:
        yield launched


@dataclass
class Visit:
    """A page of the site in its own browser context, and what went wrong meanwhile."""

    page: Page
    problems: list[str] = field(default_factory=list)
    away: list[str] = field(default_factory=list)


@pytest.fixture
def visit(browser: Browser, site: str) -> Iterator[Visit]:
    """A browser context that lets requests reach the site only (others are aborted and
    noted), and notes every console error or warning and page error."""
    from playwright.sync_api import Route

    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    seen = Visit(page)

    def only_the_site(route: Route) -> None:
        if route.request.url.startswith(site):
            route.continue_()
        else:
            seen.away.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    page.on("websocket", lambda socket: seen.away.append(socket.url))
    page.on("pageerror", lambda error: seen.problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            seen.problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    try:
        yield seen
    finally:
        context.close()


def test_the_home_page_opens_with_its_navigation(visit: Visit, site: str) -> None:
    visit.page.goto(site, timeout=LOAD_TIMEOUT_MS)

    assert visit.page.title().endswith("emissions-etl")
    assert visit.page.locator("article h1").count() == 1
    sections = visit.page.locator("nav.md-nav--primary").inner_text()
    for section in ("Tutorials", "How-to guides", "Reference", "Explanation"):
        assert section in sections
    assert visit.problems == []
    assert visit.away == []


def test_a_how_to_page_opens_from_the_navigation(visit: Visit, site: str) -> None:
    visit.page.goto(site, timeout=LOAD_TIMEOUT_MS)

    visit.page.locator("nav.md-nav--primary a[href$='how-to/upkeep/']").first.click()
    visit.page.wait_for_url(f"{site}how-to/upkeep/", timeout=LOAD_TIMEOUT_MS)

    assert visit.page.locator("article h1").count() == 1
    assert visit.problems == []
    assert visit.away == []


def test_the_command_line_reference_shows_each_command_and_its_options(
    visit: Visit, site: str
) -> None:
    visit.page.goto(f"{site}reference/cli/#load", timeout=LOAD_TIMEOUT_MS)

    heading = visit.page.locator("article h2#load")
    options = visit.page.locator("xpath=//h2[@id='load']/following::table[1]").inner_text()

    assert heading.is_visible()
    assert "--mirror / --no-mirror" in options
    assert "EMISSIONS_WAREHOUSE" in options
    link = visit.page.locator("article a[href='../variables/#emissions_warehouse']").first
    link.click()
    visit.page.wait_for_url("**/reference/variables/#emissions_warehouse")
    assert visit.page.locator("article h2#emissions_warehouse").is_visible()
    assert visit.problems == []
    assert visit.away == []


def test_the_search_finds_a_word_offline(visit: Visit, site: str) -> None:
    visit.page.goto(site, timeout=LOAD_TIMEOUT_MS)

    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("mirror")  # as a person types: the search answers each key
    results = visit.page.locator("li.md-search-result__item")
    results.first.wait_for(timeout=LOAD_TIMEOUT_MS)
    links = [
        link.get_attribute("href") or ""
        for link in visit.page.locator("li.md-search-result__item a").all()
    ]

    assert any("reference/cli/" in href for href in links), links
    assert visit.problems == []
    assert visit.away == []
