"""DuckDB extensions from the installed packages, never downloaded at run time: the
warehouse's (ducklake, postgres_scanner, httpfs, aws) and the table sources' readers
(``emissions_etl.tables``: postgres_scanner, mysql_scanner, sqlite_scanner, iceberg, delta).

DuckDB fetches an extension from its own server on ``INSTALL`` or first use, which fails on a
machine without that network (and is a supply-chain step a nightly load should not take).
The registry packages the binaries per DuckDB version (``duckdb-extension-ducklake``,
``duckdb-extension-postgres-scanner``, ...: ``extensions/v<version>/<name>.duckdb_extension``);
they are loaded from there, and automatic installs are switched off.

A connection that loads them skips DuckDB's check of their signature
(``LOAD_WITHOUT_SIGNATURE_CHECK``): the check hashes the whole binary at every ``LOAD``, and a
lake's every connection paid it again (a lake command opens several). The signature
guards binaries fetched from a network; these come from wheels ``uv.lock`` pins by hash,
checked at install like DuckDB's own library and every Python module beside them. Such a
connection would also load another unsigned binary a statement names: only ours and the
``sql`` command's statements run on it, from whoever runs the command.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import duckdb

from emissions_etl.errors import EmissionsEtlError, WarehouseError

#: The start-up setting of a connection that loads packaged extensions (see above).
LOAD_WITHOUT_SIGNATURE_CHECK = {"allow_unsigned_extensions": True}


def load_packaged(
    con: duckdb.DuckDBPyConnection,
    name: str,
    error: Callable[[str], EmissionsEtlError] = WarehouseError,
) -> None:
    """LOAD extension ``name`` from its package (``duckdb_extension_<name>``); ``error``
    makes the error of a package not installed (the warehouse's, a table source's)."""
    package = f"duckdb-extension-{name.replace('_', '-')}"
    try:
        module = import_module(f"duckdb_extension_{name}")
    except ImportError:
        raise error(
            f"the DuckDB extension {name} is not installed: install {package}=={duckdb.__version__}"
        ) from None
    folder = Path(str(module.__file__)).parent / "extensions" / f"v{duckdb.__version__}"
    binary = folder / f"{name}.duckdb_extension"
    if not binary.is_file():
        raise error(
            f"{package} holds no {name} extension for DuckDB {duckdb.__version__} "
            f"(looked in {folder}): install the version of the package that matches DuckDB's"
        )
    con.execute(f"LOAD '{_quoted(str(binary))}'")


def forbid_downloads(con: duckdb.DuckDBPyConnection) -> None:
    """No extension is fetched from the network behind our back."""
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")


def _quoted(text: str) -> str:
    return text.replace("'", "''")
