"""The SHA-256 of a file as it is loaded, so an auditor can tell that a document is the one a
figure came from (``sha256sum FILE`` gives the same). Streamed in blocks: a large workbook is
never held in memory for it, and its pages are in the system's cache for the reader after."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_sha256(path: Path) -> str | None:
    """The hex SHA-256 of the file at ``path``; None when it cannot be read (the reader then
    says why, in its own words)."""
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
