"""A pytest plugin for ``bench_suite --ids``: runs only the tests whose ids ``BENCH_SELECT_IDS``
(a file) lists, one per line, deselecting the others as ``-m`` does.

An id is compared without the ``@group`` pytest-xdist appends, so one list serves commits
whose groups differ. Loaded by name (``-p bench_select_ids``) from a copy ``bench_suite`` puts on
PYTHONPATH: the commit measured may be older than this file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(Path(os.environ["BENCH_SELECT_IDS"]).read_text().splitlines())
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        (kept if item.nodeid.split("@")[0] in wanted else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
