"""One set of figures for a load: rows that reconcile, co2e of activity records only, this
run's co2e beside what the file's records hold in the service, and words that name them."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.loading.figures import Figures, co2e_of, file_line, sent_explained
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.pipeline import LoadSummary, load_file
from emissions_etl.resources import resource_spec

from .tenancy import Tenant, waste_row, write_wastes_xlsx


def summary(**values: object) -> LoadSummary:
    return LoadSummary(run_id="r", resource="wastes", source="w.xlsx", **values)  # type: ignore[arg-type]


def outcome(name: str, s: LoadSummary | None = None, error: Exception | None = None) -> FileOutcome:
    return FileOutcome(Path(name), "wastes", summary=s, error=error)  # type: ignore[arg-type]


def test_a_runs_co2e_adds_activity_records_only() -> None:
    wastes = summary(rows_read=3, rows_loaded=3, co2e_kg=30.0, co2e_in_service_kg=30.0)
    hubs = summary(rows_read=2, rows_loaded=2, co2e_kg=500.0, is_aggregate=True)

    figures = Figures.of([outcome("w.xlsx", wastes), outcome("h.xlsx", hubs)])

    assert (figures.co2e_loaded_kg, figures.co2e_in_service_kg) == (30.0, 30.0)
    assert figures.rows_loaded == 5
    assert co2e_of(hubs) == "co2e not added (these records carry the sum of other records')"


def test_an_unchanged_reload_loads_no_co2e_and_still_holds_it_all() -> None:
    again = summary(rows_read=4, rows_unchanged=4, co2e_kg=0.0, co2e_in_service_kg=41.25)

    line = file_line(outcome("w.xlsx", again))

    assert line == (
        "w.xlsx (wastes): running; rows read 4, rejected 0, unchanged 4, loaded 0, failed 0; "
        "co2e 0.0 kg loaded by this run, 41.2 kg in the service for these rows"
    )


def test_failed_counts_rows_and_a_failed_file_is_named_as_one() -> None:
    broken = outcome("x.xlsx", error=UnsupportedSourceError("x.xlsx", "not an xlsx or csv file"))
    loaded = outcome("w.xlsx", summary(rows_read=2, rows_loaded=2, rows_failed=1))

    figures = Figures.of([broken, loaded])

    assert figures.files_text() == "2 files, 1 failed"
    assert figures.rows_text() == "read 2, rejected 0, unchanged 0, loaded 2, failed 1"
    assert file_line(broken) == (
        "x.xlsx (wastes): failed [UnsupportedSourceError] not an xlsx or csv file"
    )


def test_every_row_sent_is_explained() -> None:
    s = summary(rows_sent=83, rows_loaded=82, rows_failed=2, rows_refused=1)

    assert sent_explained(s) == (
        "sent 83: 82 loaded (2 of them not calculated: the service failed to), 1 refused by "
        "the service (among the rejected)"
    )
    busy = summary(rows_sent=5, rows_loaded=3, rows_failed=1, rows_busy=1, rows_not_landed=1)
    assert sent_explained(busy) == (
        "sent 5: 3 loaded, 1 not changed (the service holds the record in a state that may not "
        "change; sent again by the next run), 1 still calculating (the next run lands them)"
    )
    assert sent_explained(summary(rows_sent=4, rows_loaded=4)) == ""


def test_a_loads_summary_holds_the_co2e_its_rows_records_hold_in_the_service(
    tenant: Tenant,
) -> None:
    path = write_wastes_xlsx(tenant.workdir / "w.xlsx", [waste_row(n) for n in range(4)])
    spec = resource_spec("wastes")
    with tenant.client() as client:
        first = load_file(path, api=client, warehouse=tenant.warehouse, spec=spec)
        again = load_file(path, api=client, warehouse=tenant.warehouse, spec=spec)

    held = tenant.warehouse.query(
        "SELECT sum(co2e_kg) AS kg FROM emissions WHERE source_file = 'w.xlsx'"
    )["kg"][0]
    assert held > 0
    assert first.co2e_in_service_kg == pytest.approx(held)
    assert first.co2e_loaded_kg == pytest.approx(held)
    assert (again.rows_unchanged, again.rows_loaded, again.co2e_kg) == (4, 0, 0.0)
    assert again.co2e_in_service_kg == pytest.approx(held)
    assert (first.rows_sent, first.rows_not_landed, first.is_aggregate) == (4, 0, False)
