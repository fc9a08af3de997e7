"""Where an ERP's waste register lands, made for a test: a table in PostgreSQL, SQLite or a
DuckDB file, a folder of Parquet files, a Delta table, an Iceberg table. Each row is keyed by
its ``doc_id``; its columns are the wastes resource's own names, as a data team's model has
them."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

COLUMNS = (
    "doc_id",
    "facility",
    "identification_name",
    "start_date",
    "end_date",
    "base_quantity",
    "unit",
    "ler_code",
    "rd_code",
    "destination",
)
Row = tuple[object, ...]
SCHEMA = pa.schema(
    [
        ("doc_id", pa.string()),
        ("facility", pa.string()),
        ("identification_name", pa.string()),
        ("start_date", pa.date32()),
        ("end_date", pa.date32()),
        ("base_quantity", pa.float64()),
        ("unit", pa.string()),
        ("ler_code", pa.string()),
        ("rd_code", pa.string()),
        ("destination", pa.string()),
    ]
)


def erp_row(n: int, *, quantity: object = None, doc_id: str | None = None) -> Row:
    """A valid waste of the register: ``D-<n>``, in the month ``n`` names."""
    month = n % 12 + 1
    return (
        doc_id or f"D-{n:04d}",
        "Madrid Warehouse",
        f"INV-{n:05d}",
        dt.date(2026, month, 1),
        dt.date(2026, month, 28),
        100.0 + n if quantity is None else quantity,
        "kg",
        "20 01 01",
        "R3",
        "Plant",
    )


def erp_rows(count: int) -> list[Row]:
    return [erp_row(n) for n in range(count)]


def arrow_table(rows: Sequence[Row]) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [[] for _ in COLUMNS]
    return pa.table([pa.array(list(c), type=SCHEMA.field(i).type) for i, c in enumerate(columns)],
                    schema=SCHEMA)  # fmt: skip


def sqlite_table(path: Path, rows: Sequence[Row]) -> Path:
    """The rows in the table ``wastes`` of a SQLite file (written anew)."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as con:
        con.execute(
            "CREATE TABLE wastes (doc_id TEXT, facility TEXT, identification_name TEXT, "
            "start_date DATE, end_date DATE, base_quantity REAL, unit TEXT, ler_code TEXT, "
            "rd_code TEXT, destination TEXT)"
        )
        con.executemany(
            f"INSERT INTO wastes VALUES ({', '.join('?' * len(COLUMNS))})",
            [tuple(str(v) if isinstance(v, dt.date) else v for v in row) for row in rows],
        )
    return path


def parquet_folder(folder: Path, rows: Sequence[Row], files: int = 2) -> Path:
    """The rows in ``files`` Parquet files of ``folder`` (written anew), as a lake lands them."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.parquet"):
        old.unlink()
    size = -(-len(rows) // files) if rows else 0
    for part in range(files):
        chunk = rows[part * size : (part + 1) * size]
        pq.write_table(arrow_table(chunk), folder / f"part-{part}.parquet")
    return folder


def postgres_table(conninfo: str, rows: Sequence[Row], table: str = "wastes") -> None:
    """The rows in ``public.<table>`` of the PostgreSQL database (written anew)."""
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as con:
        con.execute(f"DROP TABLE IF EXISTS {table}")
        con.execute(
            f"CREATE TABLE {table} (doc_id TEXT, facility TEXT, identification_name TEXT, "
            "start_date DATE, end_date DATE, base_quantity NUMERIC(12, 2), unit TEXT, "
            "ler_code TEXT, rd_code TEXT, destination TEXT)"
        )
        with con.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {table} VALUES ({', '.join(['%s'] * len(COLUMNS))})", rows
            )


def postgres_execute(conninfo: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as con:
        con.execute(statement)  # type: ignore[arg-type]
