"""What the nightly says of the inventory's coverage once its files have loaded: of the twelve
months ended by the run's day, what arrived (periods the run's files brought records for), what
is missing and what is overdue (``coverage``, with the expectations and due day of the
settings). A run that finds an overdue gap is tagged ``overdue`` and emits ``OVERDUE_EVENT``
(``run_states``), which ``prefect-setup --notify-overdue`` alerts on.

Only names of entities, months, counts and co2e go in here; no setting or key ever does.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from emissions_etl.coverage import Coverage, CoverageRequest, period_label, read_coverage, today
from emissions_etl.coverage.matrix import ORGANIZATION_ROW, period_months, shift_month
from emissions_etl.errors import EmissionsEtlError
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.orchestration.artifacts import publish_markdown
from emissions_etl.orchestration.run_names import artifact_key
from emissions_etl.orchestration.run_report import RunVerdict
from emissions_etl.settings import Settings
from emissions_etl.warehouse import Warehouse

#: The months the nightly looks back on: a gap older than a year no longer alerts every night.
WINDOW_MONTHS = 12
#: Gaps the artifact lists one a row (overdue first); the view ``coverage`` holds them all.
MAX_GAPS_LISTED = 50
#: The months each record a run landed covers, by resource and entity.
LANDED_MONTHS = """
    SELECT DISTINCT c.resource, coalesce(c.entity_id, '') AS entity_key,
           CAST(unnest(generate_series(date_trunc('month', c.covers_from),
                                       date_trunc('month', c.covers_until),
                                       INTERVAL 1 MONTH)) AS DATE) AS month
    FROM coverage_records AS c
    JOIN source_rows AS s ON s.organization_id IS NOT DISTINCT FROM c.organization_id
        AND s.resource = c.resource AND s.source_key = c.source_key
    WHERE list_contains(?, s.run_id) AND c.organization_id IS NOT DISTINCT FROM ?
"""


@dataclass(frozen=True)
class LateData:
    """The coverage of the months the nightly looks back on, and what its run brought."""

    coverage: Coverage
    first_month: dt.date
    last_month: dt.date
    #: The received periods the run's files brought records for (rows of ``coverage``).
    arrived: pd.DataFrame

    @property
    def overdue(self) -> int:
        return len(self.coverage.overdue)

    def in_words(self) -> str:
        """``12 arrived, 30 missing (20 overdue) in the twelve months to 2026-11``."""
        missing = len(self.coverage.gaps)
        return (
            f"{len(self.arrived):,} period(s) arrived, {missing:,} missing ({self.overdue:,} "
            f"overdue) in the twelve months to {self.last_month:%Y-%m}"
        )


def report_late_data(
    warehouse: Warehouse,
    settings: Settings,
    outcomes: Sequence[FileOutcome],
    run: RunVerdict,
    logger: logging.Logger | logging.LoggerAdapter[logging.Logger],
    organization: str | None = None,
) -> RunVerdict:
    """The coverage after the run's loads as the artifact ``emissions-<deployment>-coverage``
    and one log line; ``run`` with its overdue gaps. A coverage that cannot be read is a
    warning, never the run's failure."""
    run_ids = [o.summary.run_id for o in outcomes if o.summary is not None]
    try:
        late = late_data(warehouse, settings, run_ids)
    except EmissionsEtlError as error:
        logger.warning("the coverage was not read: %s", error)
        return run
    publish_markdown(
        key=artifact_key("coverage", organization),
        markdown=late_data_markdown(late, organization=organization),
        description=f"Coverage: {late.in_words()}",
    )
    (logger.warning if late.overdue else logger.info)("coverage: %s", late.in_words())
    return replace(run, overdue=late.overdue, late=late.in_words()) if late.overdue else run


def late_data(warehouse: Warehouse, settings: Settings, run_ids: Sequence[str]) -> LateData:
    """The coverage of the twelve months ended today for the settings' organization, with
    the expectations file they name stored first; what ``run_ids`` landed in it."""
    as_of = today()
    last = shift_month(as_of, -1)
    first = shift_month(as_of, -WINDOW_MONTHS)
    request = CoverageRequest(as_of=as_of, due_day=settings.due_day,
                              organization=settings.organization_id,
                              expectations=settings.expectations)  # fmt: skip
    coverage = read_coverage(warehouse, request)
    months = pd.to_datetime(coverage.rows["month"]).dt.date
    rows = coverage.rows[(months >= first).to_numpy()].reset_index(drop=True)
    with warehouse.reading():
        landed = warehouse.query(LANDED_MONTHS, [list(run_ids), coverage.organization])
    window = Coverage(rows, as_of, None, coverage.organization, coverage.uncovered)
    return LateData(window, first, last, _arrived(rows, landed))


def _arrived(rows: pd.DataFrame, landed: pd.DataFrame) -> pd.DataFrame:
    """The received rows one of whose months a landed record covers."""
    received = rows[rows["status"] == "received"]
    covered: list[list[dt.date]] = [
        period_months(pd.Timestamp(month).date(), str(cadence))
        for month, cadence in zip(received["month"], received["cadence"], strict=True)
    ]
    received = received.assign(
        entity_key=received["entity_id"].fillna(""),
        covered=pd.Series(covered, index=received.index, dtype=object),
    )
    each = received.explode("covered").assign(covered=lambda r: pd.to_datetime(r["covered"]))
    touched = landed.assign(covered=pd.to_datetime(landed["month"]))[
        ["resource", "entity_key", "covered"]]  # fmt: skip
    hit = each.merge(touched, on=["resource", "entity_key", "covered"])
    keys = hit[["resource", "entity_key", "month"]].drop_duplicates()
    return received.merge(keys, on=["resource", "entity_key", "month"])[list(rows.columns)]


def late_data_markdown(late: LateData, *, organization: str | None = None) -> str:
    """What arrived, what is missing and what is overdue, the gaps one a row."""
    coverage = late.coverage
    of = f" of {_escape(organization)}" if organization else ""
    lines = [
        f"# Coverage{of}: the twelve months to {late.last_month:%Y-%m}",
        "",
        f"As of {coverage.as_of:%Y-%m-%d}: **{len(late.arrived):,} period(s) arrived** with this "
        f"run, **{len(coverage.gaps):,} missing**, of which **{late.overdue:,} overdue**.",
        "",
    ]
    if not late.arrived.empty:
        lines += ["**Arrived:** " + ", ".join(_named(r) for r in late.arrived.to_dict("records")
                                              [:MAX_GAPS_LISTED]), ""]  # fmt: skip
    gaps = coverage.gaps.sort_values("overdue", ascending=False, kind="stable")
    if not gaps.empty:
        lines += ["| resource | entity | period | due | | estimate (kg) |",
                  "|---|---|---|---|---|---:|"]  # fmt: skip
        lines += [_gap_row(gap) for gap in gaps.head(MAX_GAPS_LISTED).to_dict("records")]
        if len(gaps) > MAX_GAPS_LISTED:
            lines += ["", f"... and {len(gaps) - MAX_GAPS_LISTED:,} more: `SELECT * FROM "
                      "coverage WHERE status = 'missing'`."]  # fmt: skip
        lines.append("")
    lines.append("*`emissions-etl coverage --year YEAR` prints the matrix of entities by months; "
                 "estimates stay in the warehouse, never sent to the service.*")  # fmt: skip
    return "\n".join(lines)


def _named(row: Mapping[Hashable, object]) -> str:
    entity = str(row["entity"]) or ORGANIZATION_ROW
    return _escape(f"{row['resource']} {entity} {period_label(row['month'], str(row['cadence']))}")


# Any: a record of pandas-stubs' to_dict, whose cells float() and pd.Timestamp() take as they are
def _gap_row(gap: Mapping[Hashable, Any]) -> str:
    estimate = gap["estimate_kg"]
    shown = (
        ""
        if estimate is None or pd.isna(estimate)
        else (f"{float(estimate):,.1f} ({gap['estimate_method']})")
    )
    cells = [str(gap["resource"]), str(gap["entity"]) or ORGANIZATION_ROW,
             period_label(gap["month"], str(gap["cadence"])),
             f"{pd.Timestamp(gap['due_date']):%Y-%m-%d}",
             "**overdue**" if gap["overdue"] else "not yet due", shown]  # fmt: skip
    return "| " + " | ".join(_escape(cell) for cell in cells) + " |"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
