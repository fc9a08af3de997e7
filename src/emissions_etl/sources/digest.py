"""The SHA-256 of a file as it is loaded, so an auditor can tell that a document is the one a
figure came from (``sha256sum FILE`` gives the same). Streamed in blocks: a large workbook is
never held in memory for it, and its pages are in the system's cache for the reader after; an
object of a store is read once more for it, in ranges."""

from __future__ import annotations

import hashlib

from emissions_etl.errors import InputError
from emissions_etl.storage import AnyPath, open_binary

_BLOCK_BYTES = 1024 * 1024


def file_sha256(path: AnyPath) -> str | None:
    """The hex SHA-256 of the file at ``path``; None when it cannot be read (the reader then
    says why, in its own words)."""
    digest = hashlib.sha256()
    try:
        with open_binary(path) as handle:
            while block := handle.read(_BLOCK_BYTES):
                digest.update(block)
    except (OSError, InputError):
        return None
    return digest.hexdigest()
