"""``write_report``: one self-contained page whose figures are the warehouse's own."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from markupsafe import escape

from emissions_etl.errors import SourceNotFoundError, WarehouseError
from emissions_etl.report import write_report
from emissions_etl.report.charts import plot_text
from emissions_etl.report.colours import OUTCOME_COLOURS, resource_colour
from emissions_etl.warehouse import Warehouse

from .conftest import (
    AGGREGATES,
    AWKWARD_FILE,
    HOSTILE,
    SAMPLE_RUNS,
    Record,
    Reject,
    Run,
    element_text,
    hostile_warehouse,
    land_runs,
    plotted_traces,
)

CHART_IDS = {
    "chart-scopes-by-month",
    "chart-by-month",
    "chart-by-facility",
    "chart-top-sources",
    "chart-rejects-by-code",
}


def test_the_page_inlines_plotly_once_and_loads_nothing_from_the_network(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    from plotly.offline import get_plotlyjs

    summary = write_report(sample_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert summary.bytes == (tmp_path / "report.html").stat().st_size
    assert page.count(get_plotlyjs()) == 1
    assert '<script src="http' not in page
    # one <script> for plotly.js, one per chart, none of them loading a file; no <link>
    script_tags = re.findall(r"<script\b[^>]*>", page)
    assert len(script_tags) == 1 + len(CHART_IDS)
    assert not [tag for tag in script_tags if "src" in tag]
    assert "<link" not in page
    assert set(plotted_traces(page)) == CHART_IDS
    assert summary.charts == len(CHART_IDS)


def test_the_headline_matches_a_sql_sum_over_the_warehouse(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    expected = sample_warehouse.query(
        "SELECT sum(co2e_kg) AS kg, count(*) AS records, min(activity_date) AS first, "
        "max(activity_date) AS last FROM emissions WHERE NOT is_aggregate"
    ).iloc[0]
    landed = [r for run in SAMPLE_RUNS if run.resource not in AGGREGATES for r in run.records]
    assert expected["kg"] == pytest.approx(sum(r.co2e_kg or 0.0 for r in landed))

    summary = write_report(sample_warehouse.path, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    activity = element_text(page, "activity-co2e")
    assert f"{expected['kg']:,.1f} kg" in activity  # 52,600.8 kg
    assert f"{expected['kg'] / 1000:,.2f} t" in activity  # 52.60 t
    assert "All activity co2e" in activity
    assert element_text(page, "records").startswith(f"Records {expected['records']:,}")
    first, last = (pd.Timestamp(expected[k]).strftime("%Y-%m-%d") for k in ("first", "last"))
    assert f"{first} \u2192 {last}" in element_text(page, "date-range")
    assert summary.co2e_kg == pytest.approx(expected["kg"])
    assert (summary.records, summary.first_date, summary.last_date) == (
        expected["records"],
        pd.Timestamp(expected["first"]).date(),
        pd.Timestamp(expected["last"]).date(),
    )
    assert element_text(page, "generated-at").endswith("UTC")


def test_the_headline_total_is_the_inventorys_under_the_approach_in_force(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    in_scopes = sample_warehouse.query(
        "SELECT sum(co2e_kg) AS kg FROM ghg_inventory_under('equity_share') "
        "WHERE scope IS NOT NULL"
    ).iloc[0]["kg"]

    summary = write_report(sample_warehouse, tmp_path / "report.html", consolidation="equity_share")

    total = element_text((tmp_path / "report.html").read_text(encoding="utf-8"), "total-co2e")
    assert total.startswith("Total GHG emissions")
    assert f"{in_scopes:,.1f} kg" in total
    assert "equity share" in total
    assert summary.total_co2e_kg == pytest.approx(in_scopes)


def test_the_monthly_chart_adds_up_to_the_warehouse_by_resource(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    write_report(sample_warehouse, tmp_path / "report.html")

    traces = plotted_traces((tmp_path / "report.html").read_text(encoding="utf-8"))
    by_resource = sample_warehouse.query(
        "SELECT resource, sum(co2e_kg) / 1000 AS t FROM emissions "
        "WHERE activity_date IS NOT NULL AND NOT is_aggregate GROUP BY resource"
    )
    charted = {trace["name"]: sum(trace["y"]) for trace in traces["chart-by-month"]}
    assert charted == pytest.approx(
        {r.replace("_", " "): t for r, t in by_resource.itertuples(index=False)}
    )


def test_each_resource_has_one_colour_in_every_chart(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    write_report(sample_warehouse, tmp_path / "report.html")

    traces = plotted_traces((tmp_path / "report.html").read_text(encoding="utf-8"))
    colours: dict[str, set[str]] = {}
    for chart in traces.values():
        for trace in chart:
            colours.setdefault(trace["name"], set()).add(trace["marker"]["color"])
    assert colours["wastes"] == {resource_colour("wastes")}
    assert colours["vehicle consumptions"] == {resource_colour("vehicle_consumptions")}
    assert len({colour for (colour,) in colours.values()}) == len(colours)


def test_aggregate_records_are_left_out_of_every_figure(
    sample_warehouse: Warehouse, tmp_path: Path
) -> None:
    every_row = sample_warehouse.query("SELECT sum(co2e_kg) AS kg FROM emissions")["kg"].iloc[0]
    vehicles = sample_warehouse.query(
        "SELECT count(*) AS n, sum(co2e_kg) AS kg FROM emissions WHERE resource = 'vehicles'"
    ).iloc[0]
    assert vehicles["n"] == 1

    summary = write_report(sample_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert summary.co2e_kg == pytest.approx(every_row - vehicles["kg"])
    charted = {trace["name"] for chart in plotted_traces(page).values() for trace in chart}
    assert "vehicles" not in charted
    assert "vehicles.xlsx" not in element_text(page, "top-records")
    assert "1 aggregate records not added" in element_text(page, "records")


def test_text_from_the_data_is_escaped(sample_warehouse: Warehouse, tmp_path: Path) -> None:
    write_report(sample_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    for raw in (AWKWARD_FILE, "fleet <Q1>", "<b>No</b> such fuel.", "Fuel <type>", "Sevilla <Hub>"):
        assert raw not in page
    # The runs and rejects tables, as the templates' autoescape writes them.
    assert str(escape("fleet <Q1> & \"fuel\" 'v2'.xlsx")) in page
    assert str(escape("<b>No</b> such fuel.")) in page
    assert "&lt;b&gt;No&lt;/b&gt; such fuel." in page
    # plotly.js reads "<b>" in a label as markup: labels carry entities it turns back into text
    labels = [y for t in plotted_traces(page)["chart-top-sources"] for y in t["y"]]
    assert "fleet &lt;Q1&gt; &amp; \"fuel\" 'v2'.xlsx" in labels


def test_html_and_script_in_names_and_messages_show_escaped_and_never_leave_their_script(
    tmp_path: Path,
) -> None:
    write_report(hostile_warehouse(tmp_path / "w.duckdb"), tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert HOSTILE not in page
    assert "<img src=x" not in page
    # Each script element closes where the page closes it: none by a name in a chart's data.
    assert page.count("<script>") == page.count("</script>")
    # What a person reads: the text as it was, in the tables and the chart's labels.
    assert HOSTILE in element_text(page, "top-records")  # the facility
    assert "<img src=x onerror=alert(2)>.xlsx" in element_text(page, "last-runs")
    assert HOSTILE in element_text(page, "latest-rejects")
    labels = [y for trace in plotted_traces(page)["chart-by-facility"] for y in trace["y"]]
    assert plot_text(HOSTILE) in labels  # entities plotly.js shows as the characters


def test_only_the_latest_run_of_a_file_counts_its_rejects(tmp_path: Path) -> None:
    wrong = Reject(4, "Unit", "kgs", "INVALID_UNIT", "Use one of: kg, t.")
    still_wrong = Reject(5, "Facility", "?", "UNKNOWN_FACILITY", "No facility of that name.")
    warehouse = land_runs(
        Warehouse(tmp_path / "w.duckdb"),
        [
            Run("wastes", "wastes.xlsx", "partial", rejects=[wrong, still_wrong]),
            Run("wastes", "wastes.xlsx", "partial", rejects=[still_wrong]),
        ],
    )

    summary = write_report(warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert summary.open_rejects == 1
    assert element_text(page, "open-rejects").startswith("Rejected cells 1 ")
    codes = [y for t in plotted_traces(page)["chart-rejects-by-code"] for y in t["y"]]
    assert codes == ["UNKNOWN_FACILITY"]


def test_facilities_past_the_top_fifteen_are_summed_into_one_bar(tmp_path: Path) -> None:
    records = [
        Record(f"k{i}", pd.Timestamp("2026-01-15").date(), f"site-{i:02d}", 100.0 + i)
        for i in range(20)
    ]
    warehouse = land_runs(
        Warehouse(tmp_path / "w.duckdb"),
        [Run("wastes", "wastes.xlsx", "succeeded", records=records)],
        facilities=False,
    )

    write_report(warehouse, tmp_path / "report.html")

    (trace,) = plotted_traces((tmp_path / "report.html").read_text())["chart-by-facility"]
    assert len(trace["y"]) == 16
    assert trace["y"][0] == "site-19"  # the largest first
    assert trace["y"][-1] == "other (5 facilities)"
    assert trace["x"][-1] == pytest.approx(sum(100.0 + i for i in range(5)))
    assert sum(trace["x"]) == pytest.approx(sum(r.co2e_kg or 0 for r in records))


def test_the_runs_table_colours_every_outcome(sample_warehouse: Warehouse, tmp_path: Path) -> None:
    write_report(sample_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    for outcome in {run.outcome for run in SAMPLE_RUNS}:
        colour = OUTCOME_COLOURS[outcome]
        assert f'data-outcome="{outcome}" style="background:{colour}"' in page
        assert f'style="border-left-color:{colour}"' in page
    assert "ApiError: 503 from the service" in page


def test_an_empty_warehouse_gives_a_page_saying_nothing_is_loaded(
    empty_warehouse: Warehouse, tmp_path: Path
) -> None:
    summary = write_report(empty_warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert summary.empty
    assert summary.charts == 0
    assert "Nothing is loaded yet" in element_text(page, "nothing-loaded")
    assert "Plotly.newPlot" not in page
    assert len(page) < 20_000  # no plotly bundle for a page without charts


def test_a_duckdb_file_with_no_tables_reads_as_empty(tmp_path: Path) -> None:
    duckdb.connect(str(tmp_path / "blank.duckdb")).close()

    summary = write_report(tmp_path / "blank.duckdb", tmp_path / "report.html")

    assert summary.empty
    assert "Nothing is loaded yet" in (tmp_path / "report.html").read_text()


def test_runs_without_records_show_runs_and_rejects_but_no_co2e_charts(tmp_path: Path) -> None:
    bad = Reject(4, "Unit", "kgs", "INVALID_UNIT", "Use one of: kg, t.")
    warehouse = land_runs(
        Warehouse(tmp_path / "w.duckdb"), [Run("wastes", "w.xlsx", "partial", rejects=[bad])]
    )

    summary = write_report(warehouse, tmp_path / "report.html")

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert not summary.empty
    assert set(plotted_traces(page)) == {"chart-rejects-by-code"}
    assert "No record has a calculated co2e yet." in page
    assert f"{0:,.1f} kg" in element_text(page, "total-co2e")


def test_a_missing_warehouse_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError, match="no warehouse file"):
        write_report(tmp_path / "nowhere.duckdb", tmp_path / "report.html")
    assert not (tmp_path / "report.html").exists()


def test_a_file_that_is_not_duckdb_is_a_warehouse_error(tmp_path: Path) -> None:
    (tmp_path / "notes.duckdb").write_text("not a database\n" * 100)
    with pytest.raises(WarehouseError):
        write_report(tmp_path / "notes.duckdb", tmp_path / "report.html")


def test_a_report_of_one_organization_counts_its_records_alone(tmp_path: Path) -> None:
    path = tmp_path / "shared.duckdb"
    land_runs(Warehouse(path, organization_id="org-a"), SAMPLE_RUNS)
    land_runs(Warehouse(path, organization_id="org-b"), SAMPLE_RUNS[:1])
    activity = [r for run in SAMPLE_RUNS if run.resource not in AGGREGATES for r in run.records]
    first_run = [r for r in SAMPLE_RUNS[0].records if SAMPLE_RUNS[0].resource not in AGGREGATES]

    everyone = write_report(path, tmp_path / "all.html")
    only_a = write_report(path, tmp_path / "a.html", organization="org-a")
    only_b = write_report(path, tmp_path / "b.html", organization="org-b")

    assert only_a.records == len(activity)
    assert only_b.records == len(first_run)
    assert everyone.records == only_a.records + only_b.records
    assert round(everyone.co2e_kg, 6) == round(only_a.co2e_kg + only_b.co2e_kg, 6)
    assert only_b.runs == 1
