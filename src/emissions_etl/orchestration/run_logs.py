"""Logs a person reads: Prefect's own lines that repeat what our lines already say, quieted.

A run logs one INFO line per file and one per stage of the run (``run_report.log_outcome``);
a run that fails says why in one line, its end state's message. Prefect adds, where we have no
setting to turn it off:

- ``Finished in state ...`` for every task run: moved to DEBUG (a file's task logs its own
  line, at ERROR when the file failed);
- when a deployment's run ends Failed, ``Engine execution exited with unexpected exception``
  and some 40 lines of traceback ending in ``FailedRun`` (or in one of our typed errors),
  repeating what the run already logged: moved to DEBUG;
- the traceback under a line about one of our own typed errors (``EmissionsEtlError``: a
  missing setting, a service outage): the line stays, the traceback moves to DEBUG;
- ``NoneType: None`` under a failed task's line (a traceback asked for where there is none):
  dropped.

"Moved to DEBUG" means the record is handled as if it had been logged at DEBUG: shown and sent
to the API only when Prefect's logging level is DEBUG (``PREFECT_LOGGING_LEVEL``). Any other
error keeps its traceback at ERROR: that is a bug to see.

Every line, and its traceback, is scrubbed of credentials (``scrubbing``) before any handler
shows it or sends it to the server (``ScrubbedRunLogs``).
"""

from __future__ import annotations

import logging

from emissions_etl.scrubbing import scrub

#: The loggers of flow and task runs: what the run's page in the UI shows.
RUN_LOGGERS = ("prefect.flow_runs", "prefect.task_runs")


class QuietRunLogs(logging.Filter):
    """Moves Prefect's repeated lines and our typed errors' tracebacks to DEBUG (see the
    module's docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info is not None and record.exc_info[0] is None:
            record.exc_info = None  # "NoneType: None": a traceback of nothing
        if _repeats_a_state(record) or _repeats_the_end(record):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return _debug_enabled(record)
        if _traceback_of_a_typed_error(record):
            exc_info, record.exc_info, record.exc_text = record.exc_info, None, None
            if _debug_enabled(record):
                logging.getLogger(record.name).debug(
                    "traceback of: %s", record.getMessage(), exc_info=exc_info,
                    extra={k: v for k, v in vars(record).items() if k in _RUN_FIELDS},
                )  # fmt: skip
        return True


#: What Prefect's run loggers add to a record (the API handler files it under its run).
_RUN_FIELDS = frozenset(
    {"flow_run_id", "flow_run_name", "flow_name", "task_run_id", "task_run_name", "task_name",
     "send_to_api"}
)  # fmt: skip


class ScrubbedRunLogs(logging.Filter):
    """Masks every credential in a record's message and traceback (formatted here, so what a
    handler formats later is the scrubbed text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = scrub(record.getMessage()), ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = scrub(_FORMATTER.formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = scrub(record.exc_text)
        return True


_FORMATTER = logging.Formatter()


def quiet_run_logs() -> None:
    """Install ``QuietRunLogs``, then ``ScrubbedRunLogs``, on the run loggers (once; later
    calls change nothing)."""
    for name in RUN_LOGGERS:
        logger = logging.getLogger(name)
        for kind in (QuietRunLogs, ScrubbedRunLogs):
            if not any(isinstance(f, kind) for f in logger.filters):
                logger.addFilter(kind())


def _debug_enabled(record: logging.LogRecord) -> bool:
    return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def _repeats_a_state(record: logging.LogRecord) -> bool:
    """A task run's ``Finished in state ...``: the task's own line said it."""
    return record.name == "prefect.task_runs" and str(record.msg).startswith("Finished in state")


def _repeats_the_end(record: logging.LogRecord) -> bool:
    """The engine's last word on a run whose end state says why: a traceback of ``FailedRun``
    (the Failed state's message raised again) or of one of our typed errors."""
    if record.levelno < logging.WARNING or not record.exc_info:
        return False
    from prefect.exceptions import FailedRun

    error = record.exc_info[1]
    return isinstance(error, FailedRun) or (
        str(record.msg).startswith("Engine execution") and _is_typed(error)
    )


def _traceback_of_a_typed_error(record: logging.LogRecord) -> bool:
    return (
        record.levelno >= logging.WARNING
        and record.exc_info is not None
        and _is_typed(record.exc_info[1])
    )


def _is_typed(error: BaseException | None) -> bool:
    from emissions_etl.errors import EmissionsEtlError

    return isinstance(error, EmissionsEtlError)
