"""What a flow run tells: one log line per file and stage, the final state's name and message,
the summary markdown (a workbook's sheets each with their resource, and the sheets not loaded
with why), and the rejects table (complete, or saying what it omits and where the rest is).
Only counts, file names, codes and co2e go in here; no setting or key ever does."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from emissions_etl.errors import StrictModeError
from emissions_etl.loading.file_loads import FileOutcome

#: At most this many rejects go into a table artifact; the warehouse keeps them all.
MAX_REJECTS_IN_ARTIFACT = 500


@dataclass(frozen=True)
class RunVerdict:
    """How a run of several files ends: ``failed`` (a file failed or nothing loaded),
    ``partial`` (rows rejected or not calculated) or ``completed``; with a one-line message."""

    state: str
    message: str


def verdict(outcomes: Sequence[FileOutcome]) -> RunVerdict:
    """The run's end state from its files' outcomes (a sheet skipped is none: neither a
    failure nor a load)."""
    failed = [o for o in outcomes if o.outcome == "failed"]
    loaded = sum(o.summary.rows_loaded + o.summary.rows_unchanged for o in _done(outcomes))
    rejected = sum(o.summary.rows_rejected for o in _done(outcomes))
    co2e = sum(o.summary.co2e_kg for o in _done(outcomes))
    skipped = sum(1 for o in outcomes if o.skipped)
    counts = (
        f"{len({o.path for o in outcomes})} file(s), {len(failed)} failed, {loaded} row(s) in "
        f"the service, {rejected} rejected, {co2e:,.1f} kg co2e loaded"
        + (f", {skipped} sheet(s) not loaded" if skipped else "")
    )
    if not outcomes or skipped == len(outcomes):
        return RunVerdict("failed", "no loadable file in the inbox")
    if failed:
        first = failed[0]
        return RunVerdict("failed", f"{counts}; {first.label}: {first.reason}")
    if loaded == 0:
        return RunVerdict("failed", f"nothing could be loaded: {counts}")
    if rejected or any(o.outcome in ("partial", "rejected") for o in outcomes):
        return RunVerdict("partial", counts)
    return RunVerdict("completed", counts)


def _done(outcomes: Sequence[FileOutcome]) -> list[Any]:
    return [o for o in outcomes if o.summary is not None]


def log_outcome(logger: logging.Logger | logging.LoggerAdapter[Any], outcome: FileOutcome) -> None:
    """One INFO line per file (and stage timings), or one ERROR line with the stable code; the
    traceback only at DEBUG."""
    s = outcome.summary
    if outcome.skipped:
        logger.info("%s: %s", outcome.label, outcome.skipped)
        return
    if s is None:
        logger.error("%s (%s): %s %s", outcome.label, outcome.resource, outcome.outcome,
                     outcome.reason)  # fmt: skip
        logger.debug("traceback of %s", outcome.label, exc_info=outcome.error)
        return
    logger.info(
        "%s (%s, source %s): %s; read %d, rejected %d, unchanged %d, found in the service %d, "
        "sent %d, loaded %d, deleted %d, failed %d, recovered %d; co2e %.1f kg",
        outcome.label, s.resource, s.source_name, s.outcome, s.rows_read, s.rows_rejected,
        s.rows_unchanged, s.rows_adopted, s.rows_sent, s.rows_loaded, s.rows_deleted,
        s.rows_failed, s.rows_recovered, s.co2e_kg,
    )  # fmt: skip
    for note in s.notes:
        logger.warning("%s: %s", outcome.label, note)
    stages = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in s.seconds.items())
    logger.info("%s stages: %s", outcome.label, stages or "-")


def summary_markdown(outcomes: Sequence[FileOutcome], report_path: str | None = None) -> str:
    """Every file (a workbook's sheets by resource) with its outcome (loaded, partial, rejected,
    failed, skipped) and why."""
    lines = [
        "# Load summary",
        "",
        "| file | resource | outcome | read | rejected | unchanged | sent | loaded | co2e (kg) "
        "| why |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for o in outcomes:
        s = o.summary
        numbers = (
            f"{s.rows_read} | {s.rows_rejected} | {s.rows_unchanged} | {s.rows_sent} | "
            f"{s.rows_loaded} | {s.co2e_kg:,.3f}"
            if s is not None
            else " | | | | | "
        )
        why = _escape(o.reason)
        lines.append(f"| {_escape(o.label)} | {o.resource} | {o.outcome} | {numbers} | {why} |")
    notes = [
        f"- {_escape(o.label)}: {_escape(note)}"
        for o in _done(outcomes)
        for note in o.summary.notes
    ]
    if notes:
        lines += ["", "**Notes:**", *notes]
    run = verdict(outcomes)
    lines += ["", f"**Run:** {run.state} — {_escape(run.message)}"]
    if report_path:
        lines.append(f"**Report:** `{report_path}`")
    return "\n".join(lines)


def rejects_rows(outcomes: Sequence[FileOutcome]) -> tuple[list[dict[str, Any]], int]:
    """Rejects as table rows (capped) and how many there are in all."""
    frames = [o.summary.rejects for o in _done(outcomes) if not o.summary.rejects.empty]
    frames += [
        o.error.rejects
        for o in outcomes
        if isinstance(o.error, StrictModeError) and o.error.rejects is not None
    ]
    if not frames:
        return [], 0
    rejects = pd.concat(frames, ignore_index=True)
    rows = rejects.head(MAX_REJECTS_IN_ARTIFACT).fillna("").astype(str).to_dict("records")
    return [{str(k): v for k, v in row.items()} for row in rows], len(rejects)


def rejects_note(shown: int, total: int, warehouse: str) -> str:
    """What the rejects table holds, and where the full list is when it is cut."""
    if total <= shown:
        return f"All {total} rejected cell(s)."
    return (
        f"Showing {shown} of {total} rejected cells ({total - shown} omitted). All of them are in "
        f"the warehouse {warehouse}: `SELECT * FROM rejects_latest`."
    )


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
