"""What a run tells, from its files' outcomes: the verdict and its one-line message, the
summary markdown, the rejects table and its note."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS
from emissions_etl.errors import ServerError, UnsupportedSourceError
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.pipeline import LoadSummary
from emissions_etl.orchestration.run_report import (
    MAX_VALUE_CHARS,
    rejects_note,
    rejects_rows,
    report_markdown,
    summary_markdown,
    verdict,
)
from emissions_etl.report import ReportSummary


def loaded(name: str, **values: object) -> FileOutcome:
    summary = LoadSummary(run_id="r", resource="wastes", source=name, outcome="succeeded")
    for key, value in values.items():
        setattr(summary, key, value)
    return FileOutcome(Path(name), "wastes", summary=summary)


def failed(name: str, error: Exception) -> FileOutcome:
    return FileOutcome(Path(name), "wastes", error=error)  # type: ignore[arg-type]


def test_a_run_whose_every_file_met_the_service_down_is_an_outage() -> None:
    down = [failed(f"{n}.xlsx", ServerError(503, "unavailable")) for n in "ab"]
    broken = [*down, failed("c.xlsx", UnsupportedSourceError("c.xlsx", "not an xlsx"))]

    assert verdict(down).outage
    assert not verdict(broken).outage
    assert verdict(broken).message.startswith(
        "a.xlsx: [ServerError] 503: unavailable (and 2 more failed file(s)); 3 files, 3 failed; "
    )


def test_rows_rejected_or_failed_make_a_run_partial() -> None:
    assert verdict([loaded("a.xlsx", rows_read=2, rows_loaded=2)]).state == "completed"
    assert verdict([loaded("a.xlsx", rows_read=2, rows_loaded=2, rows_failed=1)]).state == (
        "partial"
    )


def test_the_summary_keeps_its_table_narrow_and_says_the_words_under_it() -> None:
    outcomes = [
        loaded("a.xlsx", rows_read=83, rows_sent=83, rows_loaded=82, rows_refused=1,
               rows_rejected=1, co2e_kg=10.0, co2e_in_service_kg=10.0),
        failed("b.xlsx", UnsupportedSourceError("b.xlsx", "not an xlsx or csv file")),
    ]  # fmt: skip

    markdown = summary_markdown(outcomes, verdict(outcomes))

    assert "| a.xlsx | wastes | succeeded | 83 | 1 | 0 | 82 | 0 |" in markdown
    assert "| b.xlsx | wastes | failed |  |  |  |  |  |" in markdown
    assert "| a.xlsx | 10.0 | 10.0 |" in markdown  # co2e in a table of its own: both fit
    assert "| b.xlsx |  |  |" in markdown
    assert "| **all files** | **10.0** | **10.0** |" in markdown
    assert "- **b.xlsx**: [UnsupportedSourceError] not an xlsx or csv file" in markdown
    assert "- a.xlsx: sent 83: 82 loaded, 1 refused by the service" in markdown
    assert "nan" not in markdown


def test_the_summary_says_what_to_change_in_the_first_rejected_cells() -> None:
    rejects = pd.DataFrame(
        [["w.xlsx", "Wastes", 7, "Facility", "X", "UNKNOWN_FACILITY", "No facility 'X' here.", ""]],
        columns=list(REJECT_COLUMNS),
    )
    outcome = loaded("w.xlsx", rejects=rejects, rows_read=2, rows_rejected=1, rows_loaded=1)

    markdown = summary_markdown([outcome], verdict([outcome]))

    assert "**Rejected cells** (all 1; all of them in the rejects table):" in markdown
    assert "- w.xlsx, sheet Wastes, row 7, Facility: No facility 'X' here. `UNKNOWN_FACILITY`" in (
        markdown
    )


def test_the_rejects_table_shows_empty_cells_empty_and_cuts_long_values() -> None:
    rejects = pd.DataFrame(
        [["w.xlsx", None, 4, "Facility", float("nan"), "REQUIRED", "x" * 300, ""],
         ["w.xlsx", None, 4, "Unit", "k" * 50, "INVALID_UNIT", "no such unit", ""]],
        columns=list(REJECT_COLUMNS),
    )  # fmt: skip
    outcome = loaded("w.xlsx", rejects=rejects, rows_rejected=1)

    rows, cells, in_rows = rejects_rows([outcome])

    assert (cells, in_rows) == (2, 1)
    assert list(rows[0]) == ["file", "sheet", "row", "column", "value", "code"]
    assert (rows[0]["sheet"], rows[0]["value"]) == ("", "")
    assert len(rows[1]["value"]) == MAX_VALUE_CHARS
    assert rejects_note(len(rows), cells, in_rows, "w.duckdb") == (
        "All 2 rejected cell(s), in 1 rejected row (what to change: the summary)."
    )


def test_the_report_artifact_says_the_inventorys_one_total_and_names_the_rest() -> None:
    report = ReportSummary(
        path=Path("report.html"), bytes=1, records=1_462, co2e_kg=984_299.5,
        first_date=None, last_date=None, runs=16, open_rejects=0, charts=5,
        generated_at=dt.datetime(2026, 7, 1, tzinfo=dt.UTC), total_co2e_kg=736_372.8,
        approach="operational_control",
    )  # fmt: skip

    markdown = report_markdown(report, host="w1", by_resource=pd.DataFrame(), warehouse="w")

    assert "**Total GHG emissions: 736.4 t co2e** (location-based, operational control, every " \
        "year: the GHG inventory's total)" in markdown  # fmt: skip
    assert "all activity co2e 984,299.5 kg (in the inventory or not)" in markdown
    assert "Total co2e" not in markdown
    assert markdown.lower().count("total") == 2  # the total, and whose total it is
