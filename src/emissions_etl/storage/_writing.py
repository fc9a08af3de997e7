"""Writing a file wherever it goes: a local one in place, an object written to a temporary file
first (openpyxl, plotly and the csv writer write files) and put in the store when it is whole,
so a reader never finds half an object."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from emissions_etl.storage._errors import store_errors
from emissions_etl.storage._paths import AnyPath


@contextmanager
def written(target: AnyPath) -> Iterator[Path]:
    """A local file to write ``target``'s content to: ``target`` itself, or for an object a
    temporary file put in the store when the block ends without an error."""
    if isinstance(target, Path):
        yield target
        return
    folder = Path(tempfile.mkdtemp(prefix="emissions-etl-out-"))
    try:
        local = folder / target.name
        yield local
        if local.exists():
            with store_errors(str(target)):
                target.fs.put_file(str(local), target.path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_text(target: AnyPath, text: str) -> None:
    """``text`` as UTF-8 into ``target``."""
    with written(target) as local:
        local.write_text(text, encoding="utf-8")


def ensure_folder(folder: AnyPath) -> None:
    """Create a local folder (and its parents); a store has no folders to create."""
    if isinstance(folder, Path):
        folder.mkdir(parents=True, exist_ok=True)


def remove(target: AnyPath) -> bool:
    """Delete the file if it is there; True when it was."""
    if isinstance(target, Path):
        if not target.exists():
            return False
        target.unlink()
        return True
    with store_errors(str(target)):
        if not target.fs.exists(target.path):
            return False
        target.fs.rm_file(target.path)
    return True


__all__ = ["ensure_folder", "remove", "write_text", "written"]
