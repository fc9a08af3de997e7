"""The HTML report: one self-contained page of co2e, load runs and rejects from the warehouse.

    from emissions_etl.report import write_report
    summary = write_report(Path("warehouse.duckdb"), Path("report.html"))

Reads the warehouse only through ``Warehouse.query`` and its documented views and tables.
``write_report`` is imported on first use, so ``emissions_etl.cli.report_command`` (and with it
the CLI) starts without loading plotly.

Floor: with ``templates``, below the orchestration. May import the load engine and every floor
below it (inventory, the warehouse...); never the templates beside it, the orchestration or the
command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emissions_etl.report.write import ReportSummary, write_report

__all__ = ["ReportSummary", "write_report"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from emissions_etl.report import write

        return getattr(write, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
