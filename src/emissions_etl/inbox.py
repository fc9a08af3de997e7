"""Which files of an inbox folder are loadable inputs."""

from __future__ import annotations

from pathlib import Path

LOADABLE_SUFFIXES = (".xlsx", ".xlsm", ".csv")


def inbox_files(inbox: Path) -> list[Path]:
    """xlsx and csv files directly in ``inbox``, by name; Excel lock files (``~$``) skipped."""
    return sorted(
        path
        for path in inbox.iterdir()
        if path.is_file()
        and path.suffix.lower() in LOADABLE_SUFFIXES
        and not path.name.startswith(("~$", "."))
    )
