"""The report in a real browser (Debian's chromium): charts drawn, nothing fetched, text literal.

Skipped only on a machine without /usr/bin/chromium and outside CI; in CI (``CI`` set) it must
run, and ``.ci/run`` installs chromium first.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse

from .conftest import AWKWARD_FILE

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
RENDER_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="no /usr/bin/chromium on this machine (CI installs it: apt-get install chromium)",
)


def test_the_report_renders_offline_in_chromium(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    from playwright.sync_api import Route, sync_playwright

    summary = write_report(sample_warehouse, tmp_path / "report.html")
    network: list[str] = []
    problems: list[str] = []

    def only_files(route: Route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            network.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1300, "height": 900})
            context.route("**/*", only_files)
            page = context.new_page()
            page.on("websocket", lambda socket: network.append(socket.url))
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))
            page.on(
                "console",
                lambda message: (
                    problems.append(f"console: {message.text}")
                    if message.type in ("error", "warning")
                    else None
                ),
            )
            page.goto(summary.path.resolve().as_uri())
            page.wait_for_function(
                """count => {
                    const plots = document.querySelectorAll('.js-plotly-plot');
                    return plots.length === count && [...plots].every(
                        plot => plot.querySelector('.main-svg .bars path'));
                }""",
                arg=summary.charts,
                timeout=RENDER_TIMEOUT_MS,
            )

            plots = page.locator(".js-plotly-plot")
            assert plots.count() == summary.charts == 5
            for index in range(plots.count()):
                plot = plots.nth(index)
                assert plot.locator(".main-svg").count() > 0
                assert plot.locator(".bars path").count() > 0
            assert page.title().startswith("Emissions report")
            assert page.locator("h1").inner_text() == "Emissions report"
            total = page.locator("#total-co2e").inner_text()
            assert f"{summary.co2e_kg:,.1f} kg" in total
            # Data text shows literally, in tables and in chart labels, and runs nothing.
            files = page.locator("table.runs td:nth-child(3)").all_inner_texts()
            assert Path(AWKWARD_FILE).name in files
            labels = page.locator("#chart-top-sources .ytick text").all_text_contents()
            assert Path(AWKWARD_FILE).name in labels
            assert "<b>No</b> such fuel." in page.locator("table.rejects").inner_text()

            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()

    assert network == []
    assert problems == []
    assert (tmp_path / "report.png").stat().st_size > 50_000
