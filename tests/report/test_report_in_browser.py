"""The report in a real browser (Debian's chromium, ``tests.browser``): charts drawn, nothing
fetched, text literal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from emissions_etl.report import write_report
from emissions_etl.warehouse import Warehouse
from tests.browser import NEEDS_CHROMIUM, launched_chromium

from .conftest import AWKWARD_FILE, HOSTILE, hostile_warehouse

if TYPE_CHECKING:
    from playwright.sync_api import Browser

RENDER_TIMEOUT_MS = 60_000

pytestmark = [
    pytest.mark.slow,  # a browser: left out of the fast run
    pytest.mark.xdist_group("browser"),  # one chromium for the module's tests, on one worker
    NEEDS_CHROMIUM,
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One chromium for the module (each test has a context of its own): a start costs 5 s of
    CPU."""
    with launched_chromium() as launched:
        yield launched


def test_the_report_renders_offline_in_chromium(
    browser: Browser, sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    from playwright.sync_api import Route

    summary = write_report(sample_warehouse, tmp_path / "report.html")
    network: list[str] = []
    problems: list[str] = []

    def only_files(route: Route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            network.append(route.request.url)
            route.abort()

    context = browser.new_context(viewport={"width": 1300, "height": 900})
    try:
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
        assert f"{summary.total_co2e_kg:,.1f} kg" in total  # the inventory's total
        # Data text shows literally, in tables and in chart labels, and runs nothing.
        files = page.locator("table.runs td:nth-child(3)").all_inner_texts()
        assert Path(AWKWARD_FILE).name in files
        labels = page.locator("#chart-top-sources .ytick text").all_text_contents()
        assert Path(AWKWARD_FILE).name in labels
        assert "<b>No</b> such fuel." in page.locator("table.rejects").inner_text()

        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    finally:
        context.close()

    assert network == []
    assert problems == []
    assert (tmp_path / "report.png").stat().st_size > 50_000


def test_the_headline_total_is_the_inventorys_and_the_legend_leaves_the_bars_alone(
    browser: Browser, tmp_path: Path
) -> None:
    """At a laptop's 1366 px: the first card's total is the inventory's (not every activity
    record's: an own-fleet leg is outside it), and the facility chart's legend of seven
    resources sits above its six bars, which keep their thickness (the chart grows with the
    legend instead of squeezing the bars under it)."""
    import datetime as dt

    from emissions_etl.inventory import read_inventory
    from emissions_etl.report.charts import BAR_ROW_HEIGHT
    from tests.inventory.conftest import _land, build_two_years_warehouse

    warehouse = build_two_years_warehouse(tmp_path / "warehouse.duckdb")
    with warehouse.writer() as writer:  # six facilities' bars, a seventh resource
        _land(
            writer,
            "wastes",
            [
                ("wastes", f"w-{site}", dt.date(2026, 5, 31), f"fac-{site}", 50.0 * n, "active", {})
                for n, site in enumerate(("vlc", "svq", "bio"), start=1)
            ],
        )
        _land(writer, "commuting_periods", [("commuting_periods", "cp-1", dt.date(2026, 6, 30),
                                             None, 40.0, "active", {})])  # fmt: skip
    inventory = read_inventory(warehouse)
    assert inventory.total_kg != inventory.activity_kg  # what the card must not show
    summary = write_report(warehouse, tmp_path / "report.html")

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(summary.path.resolve().as_uri())
        page.wait_for_selector("#chart-by-facility .bars path", timeout=RENDER_TIMEOUT_MS)

        shown = float(page.locator("#total-co2e [data-kg]").get_attribute("data-kg") or "")
        in_table = page.locator("table.inventory tr.line-total_location td").nth(1).inner_text()
        headline = page.locator("#headline").inner_text()
        legend = page.locator("#chart-by-facility .legend").bounding_box()
        paths = page.locator("#chart-by-facility .bars path")
        bars = [box for n in range(paths.count())
                if (box := paths.nth(n).bounding_box()) and box["height"] > 0]  # fmt: skip
        page.locator("#by-facility").screenshot(path=str(tmp_path / "by-facility.png"))
    finally:
        context.close()

    assert shown == inventory.total_kg
    assert in_table == f"{inventory.total_kg / 1000:,.1f}"  # the inventory's own total line
    total, activity = headline.split("ALL ACTIVITY CO2E")
    assert f"{inventory.total_kg:,.1f} kg" in total
    assert f"{inventory.activity_kg:,.1f} kg" in activity.split("RECORDS")[0]  # its own name
    assert legend is not None
    assert len({box["y"] for box in bars}) == 6
    assert legend["y"] + legend["height"] <= min(box["y"] for box in bars)
    # A bar is as thick as its row's share of the plot (less the gap between bars) says.
    assert min(box["height"] for box in bars) >= 0.9 * BAR_ROW_HEIGHT * 0.75


def test_html_and_script_in_the_data_show_as_text_and_run_nothing(
    browser: Browser, tmp_path: Path
) -> None:
    summary = write_report(hostile_warehouse(tmp_path / "w.duckdb"), tmp_path / "report.html")
    problems: list[str] = []

    context = browser.new_context(viewport={"width": 1300, "height": 900})
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))
        page.goto(summary.path.resolve().as_uri())
        page.wait_for_selector("#chart-by-facility .bars path", timeout=RENDER_TIMEOUT_MS)

        records = page.locator("table.records").inner_text()
        rejects = page.locator("table.rejects").inner_text()
        runs = page.locator("table.runs").inner_text()
        labels = page.locator("#chart-by-facility .ytick text").all_text_contents()
        images = page.locator("main img").count()
    finally:
        context.close()

    assert problems == []  # no alert ran, nothing broke the page's scripts
    assert images == 0
    assert HOSTILE in records  # the facility's name, as it was written
    assert HOSTILE in rejects  # the value and the message
    assert HOSTILE in runs  # the failed run's error
    assert "<img src=x onerror=alert(2)>.xlsx" in runs
    assert HOSTILE in labels
