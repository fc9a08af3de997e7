"""The one place where what the libraries under the readers raise becomes an InputError.

calamine, zipfile, zlib, expat, lxml, the csv module, codecs and pandas' parser each raise
their own exceptions on a damaged or hostile file; callers of ``sources`` only ever see the
InputError tree (one line, exit code 2), whatever the file holds and whenever it fails: while
the reader is set up or while batches are read. A panic in calamine's Rust code, which pyo3
raises as a ``BaseException`` (``PanicException``), is a damaged file too: the packages check
what they know would panic, and this is the net under what they do not. A workbook in a store
is read from a local copy: what its readers say names the object, not the copy.
"""

from __future__ import annotations

import csv
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar
from xml.parsers import expat

import pandas as pd
from lxml import etree
from python_calamine import CalamineError, PasswordError

from emissions_etl.errors import (
    CorruptSourceError,
    EncryptedSourceError,
    InputError,
    SourceEncodingError,
    SourceTooLargeError,
    UnsupportedSourceError,
)
from emissions_etl.storage import AnyPath, is_url

P = ParamSpec("P")
T = TypeVar("T")

#: Exceptions of the parsing libraries that mean "this file is damaged".
_DAMAGED = (
    CalamineError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    expat.ExpatError,
    csv.Error,
    pd.errors.ParserError,
    struct.error,
    EOFError,
    etree.LxmlError,
)


def as_input_error(path: AnyPath, error: Exception) -> InputError:
    """The InputError a foreign ``error`` raised while reading ``path`` stands for."""
    where = str(path)
    if isinstance(error, InputError):
        return _naming(error, where) if is_url(path) else error
    detail = f"{type(error).__name__}: {error}".strip()
    if isinstance(error, PasswordError) or (
        "password" in str(error).lower() and isinstance(error, CalamineError)
    ):
        return EncryptedSourceError(where, "the workbook is password-protected")
    if isinstance(error, UnicodeError):
        return SourceEncodingError(where, f"the text cannot be decoded ({error})")
    if isinstance(error, LookupError):
        return UnsupportedSourceError(where, f"unknown encoding ({error})")
    if isinstance(error, MemoryError):
        return SourceTooLargeError(where, "not enough memory to read it")
    if isinstance(error, _DAMAGED):
        return CorruptSourceError(where, f"the file is damaged or unreadable ({detail})")
    if isinstance(error, OSError):
        reason = error.strerror or detail
        return UnsupportedSourceError(where, f"the file cannot be read ({reason})")
    return CorruptSourceError(where, f"the file cannot be read ({detail})")


def is_panic(error: BaseException) -> bool:
    """A panic of Rust code (calamine) as pyo3 raises it."""
    return type(error).__name__ == "PanicException"


def _naming(error: InputError, where: str) -> InputError:
    """``error`` naming ``where`` (the object) instead of the local copy it was read from."""
    if error.path == where:
        return error
    renamed = type(error).__new__(type(error))  # its class and data, its words about ``where``
    renamed.__dict__.update(vars(error), path=where)
    renamed.args = (f"{where}: {error.reason}",)
    return renamed


def guarded(path: AnyPath, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` with any exception turned into an InputError."""
    try:
        return call(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the boundary: nothing foreign passes
        raise as_input_error(path, error) from None
    except BaseException as error:
        if is_panic(error):
            raise _panicked(path) from None
        raise


def guarded_batches(path: AnyPath, batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """``batches`` with any exception raised while iterating turned into an InputError."""
    try:
        yield from batches
    except Exception as error:  # noqa: BLE001 - the boundary: nothing foreign passes
        raise as_input_error(path, error) from None
    except BaseException as error:
        if is_panic(error):
            raise _panicked(path) from None
        raise


def _panicked(path: AnyPath) -> CorruptSourceError:
    return CorruptSourceError(
        str(path), "the file is damaged (the workbook reader failed on it): save it again"
    )
