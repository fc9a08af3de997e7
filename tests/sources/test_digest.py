"""The SHA-256 of a file as it is loaded: what ``sha256sum`` says, streamed."""

from __future__ import annotations

import hashlib
from pathlib import Path

from emissions_etl.sources.digest import file_sha256


def test_the_digest_is_the_files_sha256(tmp_path: Path) -> None:
    path = tmp_path / "wastes.xlsx"
    path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 5_000)

    assert file_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_that_cannot_be_read_has_none(tmp_path: Path) -> None:
    assert file_sha256(tmp_path / "gone.xlsx") is None
