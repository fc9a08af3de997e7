"""duckdb's own deprecation warning (its ``df()`` calls ``DataFrame.drop(inplace=True)``) never
reaches a person, whatever threads fetch at once; the same warning from anyone else's code still
does.

In a process of its own whose Pandas4Warnings are errors: the filter under test is the
process's, set once at import, and ``warnings.catch_warnings`` is what let the warning through
before (it swaps the process's filters, and a read-ahead thread fetching meanwhile saw none).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

DRIVER = textwrap.dedent(
    """
    import threading
    import warnings

    import duckdb
    import pandas as pd
    from pandas.errors import Pandas4Warning

    warnings.simplefilter("error", Pandas4Warning)  # before ours is imported, as a user's would be
    from emissions_etl.warehouse._connection import fetch_chunk, fetch_frame

    SQL = "SELECT TIMESTAMPTZ '2026-11-27 10:00:00+00' + INTERVAL (i) HOUR AS at FROM range(3) t(i)"
    escaped = []

    def fetch(times):
        con = duckdb.connect()
        try:
            for _ in range(times):
                assert len(fetch_frame(con.execute(SQL))) == 3
                assert len(fetch_chunk(con.execute(SQL), 1)) == 3
        except Exception as error:  # a warning turned error
            escaped.append(error)

    def swap_filters(times):  # what a library's catch_warnings does on another thread
        for _ in range(times):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)

    threads = [threading.Thread(target=fetch, args=(300,)) for _ in range(2)]
    threads.append(threading.Thread(target=swap_filters, args=(3000,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("escaped", len(escaped), escaped[:1])

    try:
        pd.DataFrame({"a": [1], "b": [2]}).drop(columns="b", inplace=True)
    except Warning as warning:
        print("others still warned:", type(warning).__name__)
    """
)


def test_duckdbs_own_warning_is_ignored_on_every_thread_and_nobody_elses_is() -> None:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr[-3000:]
    assert "escaped 0 []" in done.stdout, done.stdout
    assert "others still warned: Pandas4Warning" in done.stdout, done.stdout
