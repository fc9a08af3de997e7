"""The demo's summary ends with its coverage: by resource, then each entity's gaps."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from emissions_etl.cli.demo import print_coverage
from tests.coverage.conftest import AS_OF, build_gaps_warehouse


def test_the_demo_prints_the_coverage_by_resource_and_each_entitys_gaps(tmp_path: Path) -> None:
    console = Console(record=True, width=200)
    print_coverage(build_gaps_warehouse(tmp_path / "w.duckdb"), console, as_of=AS_OF)
    text = console.export_text()
    lines = [" ".join(line.replace("│", " ").split()) for line in text.splitlines()]

    assert "Coverage of 2025 as of 2026-01-05" in lines
    assert "vehicle_consumptions 4 42 21 21 19 1.7" in lines  # entities, expected ... estimated
    assert "business_travels 1 11 10 1 1 1.0" in lines
    assert (
        "vehicle_consumptions 1111AAA: 2025-03 missing (1 overdue); estimated 0.10 t" in lines
    )
    assert lines[-1] == (
        "coverage of 2025 as of 2026-01-05: 101 periods expected, 76 received, 25 missing "
        "(23 overdue, 2 not yet due); 3.0 t co2e estimated"
    )
