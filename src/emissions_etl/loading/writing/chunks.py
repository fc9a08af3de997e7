"""A batch cut into the chunks a request carries (the interface's records per request, or a
strategy's own chunk size)."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd


def iter_chunks(frame: pd.DataFrame, size: int) -> Iterator[pd.DataFrame]:
    """Consecutive slices of at most ``size`` rows."""
    for start in range(0, len(frame), size):
        yield frame.iloc[start : start + size].reset_index(drop=True)
