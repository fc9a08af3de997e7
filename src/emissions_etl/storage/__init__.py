"""Files and folders wherever they are: this machine's disk or an object store (``s3://``,
``gs://``, ``az://``, ``file://``), through fsspec. The readers, the inbox and the commands
that write files speak ``AnyPath``; only this package knows a store, and what a store client
raises leaves it as a StorageError (or SourceNotFoundError) with credentials scrubbed.
"""

from __future__ import annotations

from emissions_etl.storage._errors import as_storage_error, store_errors
from emissions_etl.storage._paths import SCHEMES, STORES, AnyPath, as_path, is_url
from emissions_etl.storage._queue import CreatedObject, Received, delete_received, receive_created
from emissions_etl.storage._reading import (
    STREAM_BLOCK_BYTES,
    folder_entries,
    is_file,
    is_folder,
    local_file,
    open_binary,
    size,
    stamped_entries,
)
from emissions_etl.storage._s3 import S3Endpoint, s3_endpoint, s3_secret_options
from emissions_etl.storage._writing import ensure_folder, remove, write_text, written

__all__ = [
    "SCHEMES",
    "STORES",
    "STREAM_BLOCK_BYTES",
    "AnyPath",
    "CreatedObject",
    "Received",
    "S3Endpoint",
    "as_path",
    "as_storage_error",
    "delete_received",
    "ensure_folder",
    "folder_entries",
    "is_file",
    "is_folder",
    "is_url",
    "local_file",
    "open_binary",
    "receive_created",
    "remove",
    "s3_endpoint",
    "s3_secret_options",
    "size",
    "stamped_entries",
    "store_errors",
    "write_text",
    "written",
]
