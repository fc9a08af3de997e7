"""Run logs a person reads: Prefect's repeated lines at DEBUG, our typed errors in one line."""

from __future__ import annotations

import logging
import sys

import pytest
from prefect.exceptions import FailedRun

from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.run_logs import QuietRunLogs


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=0)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def run_logger() -> logging.Logger:
    """A logger set up as Prefect's run loggers are: INFO, with the filter."""
    logger = logging.getLogger("prefect.flow_runs.test-quiet")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.handlers = [Capture()]
    logger.filters = [QuietRunLogs()]
    return logger


def captured(logger: logging.Logger) -> list[logging.LogRecord]:
    handler = logger.handlers[0]
    assert isinstance(handler, Capture)
    return handler.records


def exc_info(error: BaseException) -> tuple[type[BaseException], BaseException, object]:
    try:
        raise error
    except BaseException:
        kind, value, traceback = sys.exc_info()
        assert kind is not None
        assert value is not None
        return kind, value, traceback


def test_the_engines_traceback_of_a_failed_run_is_left_to_debug(run_logger: logging.Logger) -> None:
    run_logger.error(
        "Engine execution exited with unexpected exception", exc_info=exc_info(FailedRun("why"))
    )

    assert captured(run_logger) == []


def test_a_typed_error_keeps_its_line_and_loses_its_traceback(run_logger: logging.Logger) -> None:
    run_logger.error(
        "Encountered exception during execution: %r",
        ConfigurationError("no inbox folder"),
        exc_info=exc_info(ConfigurationError("no inbox folder")),
    )

    [record] = captured(run_logger)
    assert record.levelno == logging.ERROR
    assert record.exc_info is None
    assert "no inbox folder" in record.getMessage()


def test_an_unexpected_error_keeps_its_traceback(run_logger: logging.Logger) -> None:
    run_logger.error("Encountered exception", exc_info=exc_info(KeyError("bug")))

    [record] = captured(run_logger)
    assert record.exc_info is not None


def test_a_traceback_of_nothing_is_dropped(run_logger: logging.Logger) -> None:
    run_logger.error("Task run failed with state: Failed('x')", exc_info=True)

    [record] = captured(run_logger)
    assert record.exc_info is None


def test_a_task_runs_finished_line_is_left_to_debug() -> None:
    logger = logging.getLogger("prefect.task_runs")
    record = logger.makeRecord(logger.name, logging.INFO, __file__, 1,
                               "Finished in state Completed()", (), None)  # fmt: skip
    kept = QuietRunLogs().filter(record)

    assert record.levelno == logging.DEBUG
    assert kept is logger.isEnabledFor(logging.DEBUG)
