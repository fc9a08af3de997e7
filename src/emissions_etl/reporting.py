"""Human summaries of load runs: markdown for Prefect artifacts, rows for tables and the CLI.

Only counts, file names and co2e figures go in here; no setting, header or key ever does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from emissions_etl.pipeline import LoadSummary
from emissions_etl.warehouse import Warehouse

#: At most this many rejects go into a table artifact; the warehouse keeps them all.
MAX_REJECTS_IN_ARTIFACT = 500

CO2E_BY_MONTH_AND_FACILITY = """
    SELECT strftime(activity_date, '%Y-%m') AS month,
           coalesce(facility_name, facility_id, '(unknown)') AS facility,
           count(*) AS records,
           round(sum(co2e_kg), 3) AS co2e_kg
    FROM emissions
    WHERE resource = ?
    GROUP BY ALL
    ORDER BY month, facility
"""


def run_markdown(summaries: Sequence[LoadSummary]) -> str:
    """A markdown report of one or more file loads (a Prefect markdown artifact)."""
    lines = [
        "# Load summary",
        "",
        "| file | outcome | read | rejected | unchanged | sent | loaded | co2e (kg) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lines.append(
            f"| {_file_name(s.source)} | {s.outcome} | {s.rows_read} | {s.rows_rejected} | "
            f"{s.rows_unchanged} | {s.rows_sent} | {s.rows_loaded} | {s.co2e_kg:,.3f} |"
        )
    total = sum(s.co2e_kg for s in summaries)
    rejected = sum(s.rows_rejected for s in summaries)
    lines += ["", f"**co2e loaded this run:** {total:,.3f} kg"]
    if rejected:
        lines.append(f"**Rows rejected:** {rejected} (see the rejects table artifact)")
    return "\n".join(lines)


def rejects_table(summaries: Sequence[LoadSummary]) -> list[dict[str, Any]]:
    """Rejects as rows for a Prefect table artifact (capped; the warehouse has them all)."""
    frames = [s.rejects for s in summaries if not s.rejects.empty]
    if not frames:
        return []
    rejects = pd.concat(frames, ignore_index=True).head(MAX_REJECTS_IN_ARTIFACT)
    return [
        {str(key): value for key, value in row.items()}
        for row in rejects.fillna("").astype(str).to_dict("records")
    ]


def co2e_by_month_and_facility(warehouse: Warehouse, resource: str = "wastes") -> pd.DataFrame:
    """co2e of the records that exist in the service now, by activity month and facility."""
    return warehouse.query(CO2E_BY_MONTH_AND_FACILITY, [resource])


def _file_name(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1]
