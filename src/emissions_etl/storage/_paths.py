"""What a user names as a file or a folder: a local path, or an object-store URL.

``s3://bucket/inbox/`` (S3 and S3-compatible stores: MinIO, R2...), ``gs://`` (Google Cloud
Storage), ``az://container/...`` (Azure Blob Storage) and ``file://`` URLs are taken wherever a
path is. A local path stays a ``pathlib.Path``, so everything local works as it always did; an
object is a ``UPath`` (universal-pathlib over fsspec), which speaks the same words: ``name``,
``parent``, ``suffix``, ``iterdir``, ``open``. An object's ``parent.name`` is its folder, so an
object's source is its folder or its name, as a file's is (``inbox/<resource>/<source>/``).
"""

from __future__ import annotations

import re
from importlib.util import find_spec
from pathlib import Path
from typing import TypeAlias, TypedDict
from urllib.parse import unquote, urlsplit

from upath import UPath

from emissions_etl.errors import ConfigurationError

#: A file or a folder, on this machine's disk or in an object store.
AnyPath: TypeAlias = Path | UPath

_URL = re.compile(r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*)://")
#: Scheme -> (the fsspec package serving it, the extra that installs it).
STORES = {
    "s3": ("s3fs", ""),
    "s3a": ("s3fs", ""),
    "gs": ("gcsfs", "gcs"),
    "gcs": ("gcsfs", "gcs"),
    "az": ("adlfs", "azure"),
    "abfs": ("adlfs", "azure"),
    "abfss": ("adlfs", "azure"),
}
#: Every scheme a user may write.
SCHEMES = ("file", *STORES)


class _StoreOptions(TypedDict, total=False):
    """The options a store's client is given (fsspec's storage options)."""

    use_listings_cache: bool


def is_url(value: object) -> bool:
    """True for an object-store URL (``s3://``, ``gs://``, ``az://``...), or an object."""
    if isinstance(value, Path):
        return False
    if isinstance(value, UPath):
        return True
    found = _URL.match(str(value))
    return found is not None and found["scheme"].lower() != "file"


def as_path(value: str | Path | UPath) -> AnyPath:
    """``value`` as a path: a local path (``file://`` URLs too) as a ``Path``, an object-store
    URL as a ``UPath`` of its store. An unknown scheme, or a store whose client is not
    installed, is a ConfigurationError saying what to install."""
    if isinstance(value, Path | UPath):
        return value
    text = str(value)
    found = _URL.match(text)
    if found is None:
        return Path(text).expanduser()
    scheme = found["scheme"].lower()
    if scheme == "file":
        parts = urlsplit(text)
        if parts.netloc not in ("", "localhost"):
            raise ConfigurationError(f"{text}: a file:// URL names this machine's files only")
        return Path(unquote(parts.path))
    if scheme not in STORES:
        known = ", ".join(f"{name}://" for name in SCHEMES)
        raise ConfigurationError(f"{text}: unknown kind of location {scheme}:// (use {known})")
    package, extra = STORES[scheme]
    if find_spec(package) is None:
        install = f"emissions-etl[{extra}]" if extra else package
        raise ConfigurationError(f"{text}: {scheme}:// needs {package}: pip install '{install}'")
    store: UPath = UPath(text, **_options(scheme))
    return store


def _options(scheme: str) -> _StoreOptions:
    """The store client's options: none but what keeps a listing fresh (a folder is listed
    again at each plan, never from an earlier listing of this process). Credentials and
    endpoints come from each store's own chain (``AWS_*`` variables and ``AWS_ENDPOINT_URL``,
    profiles, instance roles; ``GOOGLE_APPLICATION_CREDENTIALS``; ``AZURE_STORAGE_*``)."""
    if STORES[scheme][0] == "s3fs":
        return {"use_listings_cache": False}
    return {}
