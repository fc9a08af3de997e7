"""Debian's chromium, driven by playwright, for the tests that open a page in a browser (the
report, the docs site): where it is, how it starts, and when its tests may be skipped.

Skipped only on a machine without /usr/bin/chromium and outside CI; in CI (``CI`` set) they
must run, and ``.ci/run`` installs chromium first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="no /usr/bin/chromium on this machine (CI installs it: apt-get install chromium)",
)


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """One chromium (a start costs seconds of CPU: a module's tests share one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
