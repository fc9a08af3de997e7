"""How far a load is: its rows through, and a Prefect run's log line each tenth of the way."""

from __future__ import annotations

from emissions_etl.loading.progress import LoadProgress, TenthsLog


def test_a_loads_rows_are_through_once_sent_or_once_the_next_batch_is_read() -> None:
    progress = LoadProgress("w.csv", 50_000)

    progress.add("read", 25_000)
    assert progress.completed == 0  # read, not yet sent
    progress.add("sent", 10_000)
    assert progress.completed == 10_000
    progress.add("read", 25_000)  # the first batch is done, its rejects and unchanged too
    assert progress.completed == 25_000
    progress.add("sent", 20_000)
    assert progress.completed == 30_000


def test_a_validations_rows_are_through_once_read() -> None:
    progress = LoadProgress("w.csv", 50_000, sends=False)

    progress.add("read", 25_000)

    assert progress.completed == 25_000
    assert progress.in_words() == "read 25,000"


def test_a_total_that_was_short_grows_to_the_rows_read() -> None:
    progress = LoadProgress("w.csv", 100)

    progress.add("read", 130)

    assert progress.total == 130


def test_a_prefect_run_logs_a_line_each_tenth_of_the_way() -> None:
    lines: list[str] = []
    advance = TenthsLog(lines.append, lambda label: 1_000)("w.csv")
    assert advance is not None

    advance("read", 1_000)
    for _ in range(20):
        advance("sent", 50)

    assert [line.split(" of ")[0] for line in lines] == [
        f"w.csv: {tenth * 10} %" for tenth in range(1, 11)
    ]
    assert lines[0] == "w.csv: 10 % of about 1,000 rows (read 1,000 · sent 100 · calculated 0)"


def test_a_load_without_a_total_logs_no_tenths() -> None:
    assert TenthsLog(print, lambda label: None)("t") is None
