"""The one place where what a store client raises becomes ours: a StorageError (or
SourceNotFoundError), one line naming the object, its credentials scrubbed from the store's
words."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from emissions_etl.errors import EmissionsEtlError, SourceNotFoundError, StorageError
from emissions_etl.scrubbing import scrub


@contextmanager
def store_errors(where: str) -> Iterator[None]:
    """Inside, anything a store client raises leaves as our error about ``where``."""
    try:
        yield
    except EmissionsEtlError:
        raise
    except FileNotFoundError:
        raise SourceNotFoundError(where, "no such file or folder in the store") from None
    except Exception as error:  # noqa: BLE001 - the store's boundary: nothing foreign passes
        raise as_storage_error(where, error) from None


def as_storage_error(where: str, error: BaseException) -> StorageError:
    """The StorageError a store client's ``error`` about ``where`` stands for."""
    if isinstance(error, PermissionError):
        why = "the store refuses access (check its credentials)"
    else:
        why = "the store cannot be reached or failed"
    detail = scrub(" ".join(str(error).split())) or type(error).__name__
    return StorageError(where, f"{why}: {type(error).__name__}: {detail}")
