"""What a flow run tells: one log line per file, the end state's message, the summary markdown,
the rejects table (complete, or saying what it omits and where the rest is) and the report's
artifact. The figures and their words are ``loading.figures``'s, the same as the command line's.
Only counts, file names, codes and co2e go in here; no setting or key ever does."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from emissions_etl.errors import StrictModeError
from emissions_etl.loading.figures import (
    CO2E_COLUMNS,
    LEGEND,
    ROW_COLUMNS,
    Figures,
    count,
    file_line,
    kg,
    sent_explained,
)
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.pipeline import rejected_rows

if TYPE_CHECKING:
    from emissions_etl.report import ReportSummary

#: At most this many rejects go into a table artifact; the warehouse keeps them all.
MAX_REJECTS_IN_ARTIFACT = 500
#: Longer cell texts are cut in the rejects table, so it fits a laptop's screen (the
#: warehouse's ``rejects_latest`` and ``--rejects`` files hold them whole).
MAX_VALUE_CHARS = 40
MAX_MESSAGE_CHARS = 110


@dataclass(frozen=True)
class RunVerdict:
    """How a run of several files ends: ``failed`` (a file failed or nothing loaded),
    ``partial`` (rows rejected or not calculated) or ``completed``; with a one-line message.
    ``outage``: every file failed on an error that may pass (the service down): worth a retry.
    """

    state: str
    message: str
    outage: bool = False


def verdict(outcomes: Sequence[FileOutcome]) -> RunVerdict:
    """The run's end state from its files' outcomes."""
    if not outcomes:
        return RunVerdict("failed", "no loadable file in the inbox")
    figures = Figures.of(outcomes)
    counts = f"{figures.files_text()}; rows {figures.rows_text()}; {figures.co2e_text()}"
    failed = [o for o in outcomes if o.outcome == "failed"]
    if failed:
        first = failed[0]
        more = f" (and {len(failed) - 1} more failed file(s))" if len(failed) > 1 else ""
        outage = all(o.error is not None and o.error.transient for o in outcomes)
        return RunVerdict("failed", f"{counts}; {first.path.name}: {first.reason}{more}", outage)
    if figures.rows_in_service == 0:
        return RunVerdict("failed", f"nothing could be loaded: {counts}")
    if figures.rows_rejected or figures.rows_failed or any(
        o.outcome in ("partial", "rejected") for o in outcomes
    ):
        return RunVerdict("partial", counts)
    return RunVerdict("completed", counts)


def log_outcome(logger: logging.Logger | logging.LoggerAdapter[Any], outcome: FileOutcome) -> None:
    """One INFO line per file (its outcome, figures and co2e), its notes as warnings and its
    stage timings at DEBUG; or one ERROR line with the stable code, the traceback at DEBUG."""
    s = outcome.summary
    if s is None:
        logger.error("%s", file_line(outcome))
        logger.debug("traceback of %s", outcome.path.name, exc_info=outcome.error)
        return
    logger.info("%s", file_line(outcome))
    for note in s.notes:
        logger.warning("%s: %s", outcome.path.name, note)
    stages = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in s.seconds.items())
    logger.debug("%s stages: %s", outcome.path.name, stages or "-")


def summary_markdown(outcomes: Sequence[FileOutcome], run: RunVerdict) -> str:
    """The run's verdict, every file with its figures, then why files failed, where sent rows
    went, the notes, and what the columns mean. Narrow columns: the words go under the table."""
    headers = ("file", "resource", "outcome", *ROW_COLUMNS, *CO2E_COLUMNS)
    lines = [
        "# Load summary",
        "",
        f"**Run:** {run.state}: {_escape(run.message)}",
        "",
        "| " + " | ".join(headers) + " |",
        "|---|---|---|" + "---:|" * (len(headers) - 3),
    ]
    for o in outcomes:
        s = o.summary
        cells: tuple[str, ...] = ("",) * (len(headers) - 3)
        if s is not None:
            cells = (
                *(count(n) for n in (s.rows_read, s.rows_rejected, s.rows_unchanged,
                                     s.rows_loaded, s.rows_failed)),
                kg(s.co2e_loaded_kg),
                kg(s.co2e_in_service_kg),
            )  # fmt: skip
        lines.append(
            f"| {_escape(o.path.name)} | {o.resource} | {o.outcome} | " + " | ".join(cells) + " |"
        )
    remarks = [f"- **{_escape(o.path.name)}**: {_escape(o.reason)}" for o in outcomes if o.error]
    for o in outcomes:
        if o.summary is None:
            continue
        sent = sent_explained(o.summary)
        remarks += [f"- {_escape(o.path.name)}: {_escape(sent)}"] if sent else []
        remarks += [f"- {_escape(o.path.name)}: {_escape(note)}" for note in o.summary.notes]
        if o.summary.is_aggregate:
            remarks.append(
                f"- {_escape(o.path.name)}: {o.resource} carry the sum of other records' co2e: "
                "not added"
            )
    if remarks:
        lines += ["", *remarks]
    lines += ["", f"*{LEGEND}*"]
    return "\n".join(lines)


def report_markdown(report: ReportSummary, *, host: str, by_resource: pd.DataFrame) -> str:
    """The report's headline and where its HTML is (a path on the worker that wrote it)."""
    path = report.path.resolve()
    period = (
        f", dated {report.first_date} to {report.last_date}"
        if report.first_date and report.last_date
        else ""
    )
    lines = [
        "# Emissions report",
        "",
        f"**{report.records:,} activity records** in the warehouse, **{kg(report.co2e_kg)} kg "
        f"co2e**{period}; {report.runs:,} load runs, {report.open_rejects:,} rejected cells "
        "still to fix.",
        "",
    ]
    if not by_resource.empty:
        lines += ["| resource | records | co2e (kg) |", "|---|---:|---:|"]
        lines += [
            f"| {row['resource']} | {count(int(row['records']))} | {kg(float(row['co2e_kg']))} |"
            for row in by_resource.to_dict("records")
        ]
        lines.append("")
    lines += [
        f"The HTML report (charts by month and facility, the runs, the rejects) is on the "
        f"worker **{_escape(host)}**: [{_escape(path.name)}]({path.as_uri()}) at "
        f"`{path}` (the link opens on that machine). `emissions-etl report` writes it again "
        "wherever the warehouse is.",
        "",
        "*co2e of activity records only: facilities, hubs, vehicles and employees carry sums of "
        "other records and are not added.*",
    ]
    return "\n".join(lines)


#: co2e by resource for the report artifact: activity records only.
CO2E_BY_RESOURCE = """
    SELECT resource, count(*) AS records, coalesce(sum(co2e_kg), 0) AS co2e_kg
    FROM emissions WHERE NOT is_aggregate GROUP BY resource ORDER BY co2e_kg DESC, resource
"""


def rejects_rows(outcomes: Sequence[FileOutcome]) -> tuple[list[dict[str, Any]], int, int]:
    """Rejects as table rows (capped, long texts cut, empty cells empty), how many rejected
    cells there are in all, and in how many rows."""
    frames = [o.summary.rejects for o in outcomes if o.summary and not o.summary.rejects.empty]
    frames += [
        o.error.rejects
        for o in outcomes
        if isinstance(o.error, StrictModeError) and o.error.rejects is not None
    ]
    if not frames:
        return [], 0, 0
    rejects = pd.concat(frames, ignore_index=True)
    shown = rejects.head(MAX_REJECTS_IN_ARTIFACT)
    rows = [
        {
            "file": _text(r["file"]),
            "sheet": _text(r["sheet"]),
            "row": _text(r["row"]),
            "column": _text(r["column"]),
            "value": _cut(_text(r["value"]), MAX_VALUE_CHARS),
            "code": _text(r["code"]),
            "message": _cut(_text(r["message"]), MAX_MESSAGE_CHARS),
        }
        for r in shown.to_dict("records")
    ]
    return rows, len(rejects), rejected_rows(rejects)


def rejects_note(shown: int, cells: int, rows: int, warehouse: str) -> str:
    """What the rejects table holds (cells, and the rows they are in), and where the full list
    is when it is cut."""
    of_rows = f"in {rows:,} rejected row{'' if rows == 1 else 's'}"
    if cells <= shown:
        return f"All {cells:,} rejected cell(s), {of_rows}."
    return (
        f"Showing {shown:,} of {cells:,} rejected cells ({cells - shown:,} omitted), {of_rows}. "
        f"All of them are in the warehouse {warehouse}: `SELECT * FROM rejects_latest`."
    )


def _text(value: object) -> str:
    """A cell as text; an empty cell (None, NaN) as empty, never ``nan``."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    return str(value)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
