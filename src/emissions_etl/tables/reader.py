"""A table source's rows, streamed: its query run on a DuckDB of its own (in memory, never the
warehouse's), its result read in Arrow batches and handed out as the batches a file's reader
gives, with an origin that names the source and the key (``txn_id=T-0101``).

The result is ordered by the key, with each key's count of rows beside it, so a key held by
several rows is known however far apart they are, and the rows keep the same number from one
run to the next; DuckDB sorts within its memory limit, spilling the rest to a folder of its own
(removed when the reader closes). Python holds one batch at a time.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

from emissions_etl.duckdb_extensions import (
    LOAD_WITHOUT_SIGNATURE_CHECK,
    forbid_downloads,
    load_packaged,
)
from emissions_etl.errors import TableSourceError
from emissions_etl.scrubbing import scrub
from emissions_etl.sources.frames import KEY_ROWS_COLUMN, ROW_KEY_COLUMN, build_batch
from emissions_etl.sources.headers import ColumnNamer, HeaderMatch
from emissions_etl.storage import s3_secret_options
from emissions_etl.tables.source import TableSource

#: Extensions every reading connection loads: DuckDB's readers of lakes and object stores.
LAKE_EXTENSIONS = ("httpfs", "avro", "iceberg", "delta")
#: DuckDB's memory for the sort; what does not fit spills to the reader's own folder (a
#: 3,000,000-row result peaked at 0.6 GB with this, 1.2 GB with 1 GB).
MEMORY_LIMIT = "256MB"
#: The secret through which the query reads S3 (its keys stay in the AWS chain).
S3_SECRET = "emissions_table_store"
_KEY_LABEL = "__emissions_key"
_KEY_ROWS = "__emissions_key_rows"


class TableReader:
    """The rows of ``source``'s query; a context manager (the connection, its attachments and
    its spill folder live as long as it does)."""

    def __init__(self, source: TableSource) -> None:
        self.source = source
        self._spill = Path(tempfile.mkdtemp(prefix="emissions-table-"))
        self._con = duckdb.connect(":memory:", config={**LOAD_WITHOUT_SIGNATURE_CHECK})
        try:
            self._prepare()
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> TableReader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._con.close()
        shutil.rmtree(self._spill, ignore_errors=True)

    def _prepare(self) -> None:
        con, name = self._con, self.source.source_name
        forbid_downloads(con)
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        con.execute(f"SET temp_directory = '{_literal(str(self._spill))}'")
        con.execute("SET preserve_insertion_order = false")
        fail = lambda reason: TableSourceError(name, reason)  # noqa: E731
        for extension in LAKE_EXTENSIONS:
            load_packaged(con, extension, fail)
        if _reads_s3(self.source):
            load_packaged(con, "aws", fail)
            try:
                con.execute(f"CREATE SECRET {S3_SECRET} ({', '.join(s3_secret_options())})")
            except duckdb.Error as error:
                raise TableSourceError(
                    name,
                    f"no S3 secret ({_reason(error)}); credentials come from the AWS "
                    "chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an "
                    "instance role",
                ) from None
        for attachment in self.source.attachments:
            if attachment.extension is not None:
                load_packaged(con, attachment.extension, fail)
            try:
                con.execute(attachment.attach_sql())
            except duckdb.Error as error:
                raise TableSourceError(
                    name, f"cannot attach {attachment.described}: {_reason(error)}"
                ) from None

    @property
    def columns(self) -> list[str]:
        """The names of the query's columns, in its order."""
        try:
            described = self._con.execute(f"DESCRIBE SELECT * FROM ({self.source.query})")
            names = [str(row[0]) for row in described.fetchall()]
        except duckdb.Error as error:
            raise TableSourceError(
                self.source.source_name, f"the query: {_reason(error)}"
            ) from None
        missing = [column for column in self.source.key if column not in names]
        if missing:
            raise TableSourceError(
                self.source.source_name,
                f"--key {', '.join(missing)}: not a column of the query's result "
                f"(its columns: {', '.join(names)})",
            )
        return names

    def batches(self, namer: ColumnNamer, batch_rows: int) -> Iterator[pd.DataFrame]:
        """The result, ``batch_rows`` rows at a time, named by ``namer`` as a header row is;
        each row with ``_file`` (the source's name), ``_sheet`` (""), ``_row`` (its place in
        the key's order, from 1), ``_key`` (``txn_id=T-0101``, missing when a key column is
        empty) and ``_key_rows``."""
        names = self.columns
        header = namer.name_row(0, names, source=self.source.source_name, where="the query")
        try:
            result = self._con.execute(_ordered(self.source.query, self.source.key, names))
            reader = result.to_arrow_reader(batch_rows)
        except duckdb.Error as error:
            raise TableSourceError(
                self.source.source_name, f"the query: {_reason(error)}"
            ) from None
        first = 1
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                return
            except (duckdb.Error, pa.ArrowException) as error:
                raise TableSourceError(
                    self.source.source_name, f"reading the result: {_reason(error)}"
                ) from None
            yield _frame(batch, header, self.source.source_name, first)
            first += batch.num_rows


def _reads_s3(source: TableSource) -> bool:
    """The query, or a database it attaches, is in S3 (credentials from the AWS chain)."""
    texts = [source.query, *(attachment.target for attachment in source.attachments)]
    return any(scheme in text.lower() for text in texts for scheme in ("s3://", "s3a://"))


def _ordered(query: str, key: Sequence[str], names: Sequence[str]) -> str:
    """The query's columns, its key as a person reads it and the rows of each key, by key."""
    keys = ", ".join(_quoted(column) for column in key)
    label = " || ', ' || ".join(
        f"'{_literal(column)}=' || CAST(q.{_quoted(column)} AS VARCHAR)" for column in key
    )
    columns = ", ".join(f"q.{_quoted(name)}" for name in names)
    return (
        f"SELECT {columns}, {label} AS {_KEY_LABEL}, "
        f"count(*) OVER (PARTITION BY {keys}) AS {_KEY_ROWS} "
        f"FROM ({query}) AS q ORDER BY {keys}"
    )


def _frame(batch: pa.RecordBatch, header: HeaderMatch, source: str, first: int) -> pd.DataFrame:
    """One Arrow batch as a canonical batch of the file readers' shape."""
    width = len(header.names)
    cells = pa.Table.from_batches([batch]).select(list(range(width)))
    values = _plain(cells).to_pandas(date_as_object=False)
    rows = np.arange(first, first + batch.num_rows, dtype="int64")
    frame = build_batch(values, rows, header, file=source, sheet="", keep_empty=True)
    frame[ROW_KEY_COLUMN] = batch.column(width).to_pandas().to_numpy(dtype=object)
    frame[KEY_ROWS_COLUMN] = batch.column(width + 1).to_numpy(zero_copy_only=False)
    return frame


def _plain(table: pa.Table) -> pa.Table:
    """Types a cell reader knows: decimals as floats, times of day as text, bytes as text when
    they are UTF-8 (SQLite's columns declared without a type), the rest as they are."""
    columns = []
    for column in table.columns:
        kind = column.type
        if pa.types.is_decimal(kind):
            column = column.cast(pa.float64())
        elif pa.types.is_time(kind):
            column = column.cast(pa.string())
        elif pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
            # not text: the cell shows what it holds, and is rejected if it matters
            with contextlib.suppress(pa.ArrowInvalid):
                column = column.cast(pa.string())
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def _quoted(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return text.replace("'", "''")


def _reason(error: BaseException) -> str:
    """DuckDB's message in one line, every credential masked (it may quote a conninfo)."""
    return scrub(" ".join(str(error).split()))
