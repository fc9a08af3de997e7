"""What a flow run tells: one log line per file, the end state's message, the summary markdown (a
workbook's sheets each with their resource, and the sheets not loaded with why), the rejects
table (complete, or saying what it omits and where the rest is) and the report's artifact. The
figures and their words are ``loading.figures``'s, the same as the command line's. Only counts,
file names, codes and co2e go in here; no setting or key ever does."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
from emissions_etl.loading.pipeline import LoadSummary, rejected_rows
from emissions_etl.resources import aggregates_in_words

if TYPE_CHECKING:
    from emissions_etl.report import ReportSummary

#: At most this many rejects go into a table artifact; the warehouse keeps them all.
MAX_REJECTS_IN_ARTIFACT = 500
#: Rejected cells the summary lists with what to change.
MAX_REJECTS_IN_SUMMARY = 10
#: Longer texts are cut in the rejects table, so its six columns fit a laptop's screen beside
#: the UI's panels (the warehouse's ``rejects_latest`` and ``--rejects`` files hold them whole).
MAX_FILE_CHARS = 28
MAX_VALUE_CHARS = 20


@dataclass(frozen=True)
class RunVerdict:
    """How a run of several files ends: ``failed`` (a file failed or nothing loaded),
    ``partial`` (rows rejected or not calculated) or ``completed``; with a one-line message.
    ``outage``: every file failed on an error that may pass (the service down): worth a retry.
    ``late``: what the nightly found of the coverage, in words, when gaps are overdue (its
    ``overdue`` gaps): the run is tagged and alerts on it (``run_states``).
    """

    state: str
    message: str
    outage: bool = False
    overdue: int = 0
    late: str = ""


def verdict(outcomes: Sequence[FileOutcome]) -> RunVerdict:
    """The run's end state from its files' outcomes (a sheet skipped is none: neither a
    failure nor a load; a file whose content was loaded before completes the run)."""
    if all(o.skipped for o in outcomes):
        again = [o for o in outcomes if o.already_loaded]
        if again:  # a file sent again: nothing to do is the right outcome
            more = f" (and {len(again) - 1} more)" if len(again) > 1 else ""
            return RunVerdict("completed", f"{again[0].label}: {again[0].skipped}{more}")
        return RunVerdict("failed", "no loadable file in the inbox")
    figures = Figures.of(outcomes)
    counts = f"{figures.files_text()}; rows {figures.rows_text()}; {figures.co2e_text()}"
    failed = [o for o in outcomes if o.outcome == "failed"]
    if failed:
        first = failed[0]
        more = f" (and {len(failed) - 1} more failed file(s))" if len(failed) > 1 else ""
        outage = all(o.error is not None and o.error.transient for o in outcomes)
        return RunVerdict("failed", f"{first.label}: {first.reason}{more}; {counts}", outage)
    if figures.rows_in_service == 0:
        return RunVerdict("failed", f"nothing could be loaded: {counts}")
    if (
        figures.rows_rejected
        or figures.rows_failed
        or any(o.outcome in ("partial", "rejected") for o in outcomes)
    ):
        return RunVerdict("partial", counts)
    return RunVerdict("completed", counts)


def log_outcome(
    logger: logging.Logger | logging.LoggerAdapter[logging.Logger], outcome: FileOutcome
) -> None:
    """One INFO line per file (its outcome, figures and co2e), its notes as warnings and its
    stage timings at DEBUG; or one ERROR line with the stable code, the traceback at DEBUG."""
    s = outcome.summary
    if outcome.skipped:
        logger.info("%s: %s", outcome.label, outcome.skipped)
        return
    if s is None:
        logger.error("%s", file_line(outcome))
        logger.debug("traceback of %s", outcome.label, exc_info=outcome.error)
        return
    logger.info("%s", file_line(outcome))
    for note in s.notes:
        logger.warning("%s: %s", outcome.label, note)
    stages = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in s.seconds.items())
    logger.debug("%s stages: %s", outcome.label, stages or "-")


def summary_markdown(
    outcomes: Sequence[FileOutcome], run: RunVerdict, *, organization: str | None = None
) -> str:
    """The run's verdict; every file's rows, then its co2e (two narrow tables: a table's cells
    do not wrap in the UI; a workbook's sheets each a line, with their resource); then why files
    failed or sheets were not loaded, where sent rows went, the notes, the first rejected cells
    with what to change, and what the columns mean."""
    title = f"# Load summary of {_escape(organization)}" if organization else "# Load summary"
    lines = [title, "", f"**Run:** {run.state}: {_escape(run.message)}", ""]
    rows = [(o.label, o.resource, o.outcome, *_row_counts(o.summary)) for o in outcomes]
    lines += _table(("file", "resource", "outcome", *ROW_COLUMNS), rows, numeric_from=3)
    figures = Figures.of(outcomes)
    co2e = [(o.label, *_co2e_cells(o.summary)) for o in outcomes if not o.skipped]
    co2e.append(("**all files**", f"**{kg(figures.co2e_loaded_kg)}**",
                 f"**{kg(figures.co2e_in_service_kg)}**"))  # fmt: skip
    lines += ["", *_table(("file", *CO2E_COLUMNS), co2e, numeric_from=1)]
    remarks = [
        f"- **{_escape(o.label)}**: {_escape(o.reason)}" for o in outcomes if o.error or o.skipped
    ]
    for o in outcomes:
        if o.summary is None:
            continue
        sent = sent_explained(o.summary)
        remarks += [f"- {_escape(o.label)}: {_escape(sent)}"] if sent else []
        remarks += [f"- {_escape(o.label)}: {_escape(note)}" for note in o.summary.notes]
    if remarks:
        lines += ["", *remarks]
    rejects = _rejects(outcomes)
    if not rejects.empty:
        shown = rejects.head(MAX_REJECTS_IN_SUMMARY)
        lines += ["", f"**Rejected cells** ({_first(len(shown), len(rejects))}; all of them in "
                  "the rejects table):", ""]  # fmt: skip
        lines += [
            f"- {_escape(_text(r['file']))}{_sheet(r['sheet'])} {_row(r)}, "
            f"{_escape(_text(r['column']))}: {_escape(_text(r['message']))} "
            f"`{_text(r['code'])}`"
            for r in shown.to_dict("records")
        ]
    lines += ["", f"*{LEGEND}*"]
    return "\n".join(lines)


def _row_counts(s: LoadSummary | None) -> tuple[str, ...]:
    if s is None:
        return ("",) * len(ROW_COLUMNS)
    return tuple(count(n) for n in (s.rows_read, s.rows_rejected, s.rows_unchanged,
                                     s.rows_loaded, s.rows_failed))  # fmt: skip


def _co2e_cells(s: LoadSummary | None) -> tuple[str, str]:
    if s is None:
        return "", ""
    if s.is_aggregate:
        return "not added: sums of other records", ""
    return kg(s.co2e_loaded_kg), kg(s.co2e_in_service_kg)


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, numeric_from: int
) -> list[str]:
    aligns = ["---" if i < numeric_from else "---:" for i in range(len(headers))]
    return [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join(aligns) + "|",
        *("| " + " | ".join(_escape(cell) for cell in row) + " |" for row in rows),
    ]


def _first(shown: int, total: int) -> str:
    return f"all {total:,}" if shown == total else f"the first {shown:,} of {total:,}"


def _row(reject: Mapping[Hashable, object]) -> str:
    """A reject's row as a person finds it: a table source's by its key, a file's by number."""
    key = _text(reject.get("key"))
    return _escape(key) if key else f"row {_text(reject['row'])}"


def _sheet(sheet: object) -> str:
    text = _text(sheet)
    return f", sheet {_escape(text)}," if text else ","


def upkeep_markdown(lines: Sequence[str], warehouse: str) -> str:
    """What the warehouse's upkeep did (``Upkeep.lines``), a bullet a step."""
    return f"### Upkeep of {warehouse}\n\n" + "\n".join(f"- {line}" for line in lines)


def report_markdown(
    report: ReportSummary, *, host: str, by_resource: pd.DataFrame, warehouse: str
) -> str:
    """The report's headline and where its HTML is (a path on the worker that wrote it)."""
    path = report.path.resolve()
    period = (
        f", dated {report.first_date} to {report.last_date}"
        if report.first_date and report.last_date
        else ""
    )
    total = (
        "No GHG inventory on the report (it says why)."
        if report.total_co2e_kg is None
        else f"**Total GHG emissions: {kg(report.total_co2e_kg / 1000)} t co2e** (location-based, "
        f"{report.approach.replace('_', ' ')}, "
        f"{report.year if report.year is not None else 'every year'}: the GHG inventory's total)."
    )
    lines = [
        "# Emissions report",
        "",
        total,
        "",
        f"{report.records:,} activity records in the warehouse, all activity co2e "
        f"{kg(report.co2e_kg)} kg{period} (in the inventory or not); "
        f"{_plural(report.runs, 'load run')}, "
        f"{_plural(report.open_rejects, 'rejected cell')} still to fix.",
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
        f"`{path}` (the link opens on that machine). `emissions-etl report --warehouse "
        f"{warehouse} --out report.html` writes it again wherever the warehouse is.",
        "",
        f"*co2e of activity records only: {aggregates_in_words()} carry sums of other records "
        "and are not added.*",
    ]
    return "\n".join(lines)


#: co2e by resource for the report artifact: activity records only.
CO2E_BY_RESOURCE = """
    SELECT resource, count(*) AS records, coalesce(sum(co2e_kg), 0) AS co2e_kg
    FROM emissions WHERE NOT is_aggregate GROUP BY resource ORDER BY co2e_kg DESC, resource
"""


def _rejects(outcomes: Sequence[FileOutcome]) -> pd.DataFrame:
    frames = [o.summary.rejects for o in outcomes if o.summary and not o.summary.rejects.empty]
    frames += [
        o.error.rejects
        for o in outcomes
        if isinstance(o.error, StrictModeError) and o.error.rejects is not None
    ]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def rejects_rows(outcomes: Sequence[FileOutcome]) -> tuple[list[dict[str, str]], int, int]:
    """Rejects as table rows (capped; no sentence: a table's cells do not wrap in the UI, so
    the summary says what to change), how many rejected cells there are in all, and in how
    many rows."""
    rejects = _rejects(outcomes)
    if rejects.empty:
        return [], 0, 0
    keyed = "key" in rejects.columns and bool(rejects["key"].fillna("").astype(str).ne("").any())
    rows = [
        {
            "file": _cut(_text(r["file"]), MAX_FILE_CHARS),
            "sheet": _cut(_text(r["sheet"]), MAX_VALUE_CHARS),
            "row": _text(r["row"]),
            "column": _cut(_text(r["column"]), MAX_VALUE_CHARS),
            "value": _cut(_text(r["value"]), MAX_VALUE_CHARS),
            "code": _text(r["code"]),
            **({"key": _cut(_text(r.get("key")), MAX_VALUE_CHARS)} if keyed else {}),
        }
        for r in rejects.head(MAX_REJECTS_IN_ARTIFACT).to_dict("records")
    ]
    return rows, len(rejects), rejected_rows(rejects)


def rejects_note(shown: int, cells: int, rows: int, warehouse: str) -> str:
    """What the rejects table holds (cells, and the rows they are in), and where the full list
    is when it is cut."""
    of_rows = f"in {rows:,} rejected row{'' if rows == 1 else 's'}"
    if cells <= shown:
        return f"All {cells:,} rejected cell(s), {of_rows} (what to change: the summary)."
    return (
        f"Showing {shown:,} of {cells:,} rejected cells ({cells - shown:,} omitted), {of_rows}. "
        f"All of them, with what to change, are in the warehouse {warehouse}: "
        "`SELECT * FROM rejects_latest`."
    )


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _text(value: object) -> str:
    """A cell as text; an empty cell (None, NaN) as empty, never ``nan``."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    return str(value)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
