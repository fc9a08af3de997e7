"""Reading files and folders wherever they are: a local file as always, an object streamed in
ranges (a 1 GB csv is never held whole: the readers pull it a chunk at a time) or, for what
needs a file on disk (a workbook: calamine, zipfile and openpyxl seek all over it), fetched once
per process to a temporary file of the same name."""

from __future__ import annotations

import atexit
import hashlib
import io
import shutil
import stat
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

from upath import UPath

from emissions_etl.storage._errors import as_storage_error, store_errors
from emissions_etl.storage._paths import AnyPath

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: Bytes fetched per range request while an object streams (s3fs's default is 50 MB): what a
#: stream holds at most beside the reader's own chunk.
STREAM_BLOCK_BYTES = 8 * 1024 * 1024

_fetched: dict[str, Path] = {}
_fetching = threading.Lock()
_folder: Path | None = None


def open_binary(path: AnyPath) -> BinaryIO:
    """The file's bytes as a stream; an object's read in ranges as they are asked for, any
    failure of its store a StorageError."""
    if isinstance(path, Path):
        return path.open("rb")
    with store_errors(str(path)):
        raw = path.fs.open(path.path, "rb", block_size=STREAM_BLOCK_BYTES, cache_type="readahead")
    return io.BufferedReader(_GuardedStream(raw, str(path)))


def is_file(path: AnyPath) -> bool:
    """Whether ``path`` is a file (an object); a store that cannot be asked is a StorageError,
    not a "no such file"."""
    if isinstance(path, Path):
        return path.is_file()
    return _kind(path) == "file"


def is_folder(path: AnyPath) -> bool:
    """Whether ``path`` is a folder (a prefix holding objects, in a store)."""
    if isinstance(path, Path):
        return path.is_dir()
    return _kind(path) == "directory"


def size(path: AnyPath) -> int:
    """The file's size in bytes."""
    if isinstance(path, Path):
        return path.stat().st_size
    with store_errors(str(path)):
        return int(path.fs.info(path.path).get("size") or 0)


def folder_entries(folder: AnyPath) -> tuple[list[AnyPath], list[AnyPath]]:
    """The files and the folders directly in ``folder``, each by name (one listing of the
    store, not one request per entry)."""
    files, folders = stamped_entries(folder)
    return [path for path, _ in files], folders


def stamped_entries(folder: AnyPath) -> tuple[list[tuple[AnyPath, str]], list[AnyPath]]:
    """``folder_entries`` with each file's stamp: its size and its modification (an object's
    ETag, else its last modified time), which change whenever its bytes do; from the one
    listing, never by reading a file."""
    if isinstance(folder, Path):
        entries = sorted(folder.iterdir())
        files: list[tuple[AnyPath, str]] = []
        for path in entries:
            stamp = _local_stamp(path)
            if stamp is not None:
                files.append((path, stamp))
        return files, [p for p in entries if p.is_dir()]
    with store_errors(str(folder)):
        listed = folder.fs.ls(folder.path, detail=True)
    stamped: list[tuple[AnyPath, str]] = []
    folders: list[AnyPath] = []
    for entry in sorted(listed, key=lambda item: str(item["name"])):
        name = str(entry["name"]).rstrip("/").rsplit("/", 1)[-1]
        if not name:
            continue
        child = folder / name
        if entry.get("type") == "directory":
            folders.append(child)
        else:
            stamped.append((child, _object_stamp(entry)))
    return stamped, folders


def _local_stamp(path: Path) -> str | None:
    """A file's stamp; None for a folder, or a file gone since the folder was listed."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return f"{status.st_size}:{status.st_mtime_ns}" if stat.S_ISREG(status.st_mode) else None


def _object_stamp(entry: Mapping[str, object]) -> str:
    changed = entry.get("ETag") or entry.get("etag") or entry.get("LastModified")
    return f"{entry.get('size')}:{changed or entry.get('mtime') or entry.get('updated') or ''}"


def local_file(path: AnyPath) -> Path:
    """A file on this machine's disk holding ``path``'s bytes: the file itself, or for an
    object a copy fetched once per process (again when the object changed) into a temporary
    folder removed when the process ends, under the object's own name."""
    if isinstance(path, Path):
        return path
    with store_errors(str(path)):
        info = path.fs.info(path.path)
    stamp = f"{path}|{info.get('size')}|{info.get('ETag') or info.get('etag')}|" + str(
        info.get("LastModified") or info.get("mtime") or info.get("updated") or ""
    )
    with _fetching:
        copy = _fetched.get(stamp)
        if copy is not None and copy.is_file():
            return copy
        folder = _cache_folder() / hashlib.sha256(stamp.encode()).hexdigest()[:16]
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / path.name
        partial = folder / f".{path.name}.part"
        with store_errors(str(path)):
            path.fs.get_file(path.path, str(partial))
        partial.replace(copy)
        _fetched[stamp] = copy
        return copy


def _kind(path: UPath) -> str | None:
    with store_errors(str(path)):
        try:
            return str(path.fs.info(path.path).get("type"))
        except FileNotFoundError:
            return None


def _cache_folder() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="emissions-etl-objects-"))
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return _folder


class _StoreFile(Protocol):
    """What is asked of a store's file object (fsspec's have no types)."""

    def read(self, size: int, /) -> bytes: ...

    def seek(self, offset: int, whence: int, /) -> int: ...

    def tell(self) -> int: ...

    def close(self) -> None: ...


class _GuardedStream(io.RawIOBase):
    """A store's file object whose failures while reading are StorageErrors."""

    def __init__(self, raw: _StoreFile, where: str) -> None:
        super().__init__()
        self._raw = raw
        self._where = where

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        try:
            return bytes(self._raw.read(-1 if size is None else size))
        except Exception as error:  # noqa: BLE001 - the store's boundary
            raise as_storage_error(self._where, error) from None

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self.read(len(view))
        view[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        try:
            return int(self._raw.seek(offset, whence))
        except Exception as error:  # noqa: BLE001 - the store's boundary
            raise as_storage_error(self._where, error) from None

    def tell(self) -> int:
        return int(self._raw.tell())

    def close(self) -> None:
        if not self.closed:
            try:
                self._raw.close()
            finally:
                super().close()
