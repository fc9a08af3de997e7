"""The error tree of emissions-etl: every failure the pipeline raises is one of these.

Callers decide what to do from the class and its data (status, stable code, ``transient``),
never from message text. User-facing commands turn any of them into one clear line.

    EmissionsEtlError
    ├── ConfigurationError          settings missing or invalid (no URL, no key, bad CA file)
    │   └── ListenPortTakenError    the webhook receiver's port is held by another process
    ├── InputError                  an input file cannot be used at all (exit code 2)
    │   ├── SourceNotFoundError     the path does not exist
    │   ├── UnsupportedSourceError  not an xlsx/csv, or unreadable, or no header row found
    │   │   ├── CorruptSourceError      truncated or damaged file (bad zip, bad XML, bad csv)
    │   │   ├── EncryptedSourceError    a password-protected workbook
    │   │   ├── SourceTooLargeError     over a documented cap (sheet size, zip bomb, long cell)
    │   │   ├── SourceEncodingError     text in no single encoding (mixed UTF-8 and Latin-1)
    │   │   ├── DuplicateColumnError    two header cells mean the same column
    │   │   └── AmbiguousSourceError    a header that fits two resources equally, or a sheet
    │   │                               whose name says one resource and header another
    │   ├── SheetNotFoundError      the named sheet is not in the workbook
    │   ├── EmptySourceError        a header but no data rows
    │   ├── StorageError            the object store holding a file or folder cannot be reached
    │   │                           or refuses access (s3://, gs://, az://)
    │   ├── MirrorRefusedError      ``--mirror`` would delete too much, or the file is not whole
    │   └── TableSourceError        a table source cannot be read: a database it cannot attach,
    │                               a query DuckDB refuses, a key column the query lacks
    ├── ApiError                    the service answered, or could not be reached
    │   ├── TransportError          connection refused, reset, TLS or timeout (transient)
    │   └── ApiStatusError          an HTTP error status; carries status, code, problem details
    │       ├── AuthenticationError 401
    │       ├── PermissionDeniedError 403
    │       ├── NotFoundError       404
    │       ├── ConflictError       409
    │       ├── ValidationFailedError 422 (``errors`` lists the rejected records)
    │       ├── RateLimitedError    429 (transient; ``retry_after`` in seconds when sent)
    │       └── ServerError         5xx (transient)
    ├── IngestJobError              an ingest job ended ``failed`` or was not finished in time
    ├── StrictModeError             ``--strict`` and at least one row was rejected
    ├── AlreadyLoadedError          the file's content was loaded before (its run key): not
    │                               loaded again, and not a failure (the file is skipped)
    ├── WarehouseError              the DuckDB file is locked by another writer or unusable
    │   └── WarehouseMemoryError    DuckDB met its memory limit, or filled the disk it spills
    │                               to: names the setting to raise
    └── ServiceOutageError          every file of a run failed on errors that pass (the service
                                    down): the run is tried again later
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from emissions_etl.json_values import JsonValue

if TYPE_CHECKING:
    import pandas as pd


class EmissionsEtlError(Exception):
    """Root of every error raised by emissions-etl."""

    #: True when the same call may succeed if simply tried again later.
    transient: bool = False


class ConfigurationError(EmissionsEtlError):
    """Settings are missing or invalid."""


class ListenPortTakenError(ConfigurationError):
    """The webhook receiver's ``host:port`` is already bound (another load on this machine)."""

    def __init__(self, listen: str, port: int) -> None:
        super().__init__(f"webhook receiver cannot listen on {listen}: the port is taken")
        self.listen = listen
        self.port = port


class InputError(EmissionsEtlError):
    """An input file cannot be used at all (as opposed to bad cells, which become rejects)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class SourceNotFoundError(InputError):
    """The input path does not exist."""


class UnsupportedSourceError(InputError):
    """The file is not a readable xlsx or csv, or has no recognisable header row."""


class CorruptSourceError(UnsupportedSourceError):
    """The file is truncated or damaged: a bad zip, malformed XML, an unterminated quote."""


class EncryptedSourceError(UnsupportedSourceError):
    """The workbook is password-protected (an encrypted OLE container), so it cannot be read."""


class SourceTooLargeError(UnsupportedSourceError):
    """The file exceeds a documented cap of ``emissions_etl.sources.limits`` (a sheet's used
    range, a zip member's size or compression ratio, shared strings, a cell's length)."""


class SourceEncodingError(UnsupportedSourceError):
    """The text cannot be decoded in one encoding (a file mixing UTF-8 and Latin-1 lines)."""


class DuplicateColumnError(UnsupportedSourceError):
    """Two header cells stand for the same canonical column, so a row would hold two values."""


class AmbiguousSourceError(UnsupportedSourceError):
    """A file's or sheet's header fits two resources equally, or a sheet's name says one
    resource while its header fits another better: it is refused rather than guessed."""


class SheetNotFoundError(InputError):
    """The requested sheet is not in the workbook."""


class EmptySourceError(InputError):
    """The file has a header but no data rows: nothing to load."""


class StorageError(InputError):
    """The object store holding a file or folder (``s3://``, ``gs://``, ``az://``) cannot be
    reached, refuses our credentials, or failed while the file was read or written."""


class MirrorRefusedError(InputError):
    """``--mirror`` deletes nothing: it would delete more than a bounded share of the source's
    records (``--allow-mass-delete`` lifts that), or rows of the file were rejected (a file
    with rejected rows is not the whole truth). What the file loaded stays loaded."""

    def __init__(self, path: str, reason: str, *, gone: int, held: int) -> None:
        super().__init__(path, reason)
        self.gone = gone
        self.held = held


class TableSourceError(InputError):
    """A table source (``load --from-sql``, a sources file) cannot be read: a database named by
    ``--attach`` that cannot be attached, a query DuckDB refuses, a ``--key`` column its
    result lacks, a sources file that cannot be used. ``path`` is the source's name."""


class ApiError(EmissionsEtlError):
    """The service could not be reached or answered with an error."""

    def __init__(self, message: str, *, method: str | None = None, url: str | None = None) -> None:
        super().__init__(message)
        self.method = method
        # Always a URL without credentials: query strings are never logged with secrets here,
        # because credentials travel in headers only.
        self.url = url


class TransportError(ApiError):
    """Connection refused or reset, TLS failure or timeout."""

    transient = True


class ApiStatusError(ApiError):
    """The service answered with an HTTP error status.

    ``code`` is the service's stable error code (v1 ``code`` or v2 problem ``code``) when it sent
    one; ``errors`` is the v2 problem's ``errors`` list or the v1 validation ``detail`` list.
    """

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        code: str | None = None,
        errors: Sequence[Mapping[str, JsonValue]] = (),
        problem: Mapping[str, JsonValue] | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
        method: str | None = None,
        url: str | None = None,
    ) -> None:
        label = f"{status} {code}" if code else str(status)
        where = f" ({method} {url})" if method and url else ""
        super().__init__(f"{label}: {detail}{where}", method=method, url=url)
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = list(errors)
        self.problem = dict(problem or {})
        self.retry_after = retry_after
        self.request_id = request_id


class AuthenticationError(ApiStatusError):
    """401: the key or token is missing, invalid, revoked or expired."""


class PermissionDeniedError(ApiStatusError):
    """403: the user or organization may not do this."""


class NotFoundError(ApiStatusError):
    """404: the resource does not exist in this organization."""


class ConflictError(ApiStatusError):
    """409: the resource is in a state that forbids the operation."""


class ValidationFailedError(ApiStatusError):
    """422: the request was rejected whole; ``errors`` says which records and why."""


class RateLimitedError(ApiStatusError):
    """429: over a rate or concurrency limit."""

    transient = True


class ServerError(ApiStatusError):
    """5xx: the service failed."""

    transient = True


class IngestJobError(EmissionsEtlError):
    """An ingest job ended ``failed`` or did not finish within the allowed time."""

    def __init__(
        self, job_id: str, reason: str, *, job: Mapping[str, JsonValue] | None = None
    ) -> None:
        super().__init__(f"ingest job {job_id}: {reason}")
        self.job_id = job_id
        self.reason = reason
        self.job = dict(job or {})


class StrictModeError(EmissionsEtlError):
    """The load ran with ``strict`` and some rows were rejected, so nothing was sent."""

    def __init__(self, rejected_rows: int, rejects: pd.DataFrame | None = None) -> None:
        super().__init__(f"{rejected_rows} row(s) rejected and strict mode is on: nothing loaded")
        self.rejected_rows = rejected_rows
        #: The rejects frame (file, sheet, row, column, value, code, message), for the person
        #: who fixes the file.
        self.rejects = rejects


class AlreadyLoadedError(EmissionsEtlError):
    """The file's content was loaded before (``loading.run_keys``): it is skipped, saying where
    and when its content was loaded (``already loaded as wastes/enero.csv on 2026-12-01``)."""

    def __init__(self, loaded_as: str, loaded_on: str) -> None:
        super().__init__(f"already loaded as {loaded_as} on {loaded_on}")
        self.loaded_as = loaded_as
        self.loaded_on = loaded_on


class WarehouseError(EmissionsEtlError):
    """The DuckDB warehouse cannot be opened or written."""


class WarehouseMemoryError(WarehouseError):
    """DuckDB met its memory limit, or filled the disk it spills to; what a load landed before
    stays landed. The message is one line naming the setting to raise (or the folder to
    move)."""

    def __init__(self, warehouse: str, reason: str, *, limit: str, spill_root: str) -> None:
        self.disk_full = "No space left" in reason or "max_temp_directory_size" in reason
        if self.disk_full:
            advice = (
                f"the disk DuckDB spills to ({spill_root}) is full: free space there, or move "
                "it with EMISSIONS_WAREHOUSE_TEMP (--warehouse-temp)"
            )
        else:
            advice = f"raise EMISSIONS_WAREHOUSE_MEMORY (--warehouse-memory), now {limit}"
        super().__init__(f"{warehouse}: {reason}; {advice}")
        self.warehouse = warehouse
        self.reason = reason
        self.limit = limit
        self.spill_root = spill_root


class ServiceOutageError(EmissionsEtlError):
    """Every file of a run failed on an error that may pass (5xx, 429, no connection): the
    service looks down, so the whole run is worth trying again later (the flows' retries)."""

    transient = True


_STATUS_ERRORS: dict[int, type[ApiStatusError]] = {
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationFailedError,
    429: RateLimitedError,
}


def status_error_class(status: int) -> type[ApiStatusError]:
    """The most specific ApiStatusError subclass for an HTTP status."""
    if status >= 500:
        return ServerError
    return _STATUS_ERRORS.get(status, ApiStatusError)
