"""Table sources: the tables where ERP data already lands (PostgreSQL, MySQL, SQLite, a DuckDB
file; Parquet, Iceberg and Delta files, locally or in object storage), read by a query into the
batches a file's reader gives, each row named by its source and its key.

``TableSource`` is what a command or a sources file describes; ``TableReader`` runs its query on
a DuckDB of its own (extensions from their packages, every database attached read-only) and
streams the result; ``read_sources_file`` reads a file of sources.

Floor: on the sources' layer (it names columns as their headers are named). May import
``sources``, ``storage``, ``duckdb_extensions``, ``scrubbing`` and ``errors``; never the client,
the warehouse or anything above.
"""

from __future__ import annotations

from emissions_etl.tables.attachments import Attachment, parse_attachment, parse_attachments
from emissions_etl.tables.reader import TableReader
from emissions_etl.tables.source import TableSource, first_table
from emissions_etl.tables.sources_file import SourceEntry, read_sources_file

__all__ = [
    "Attachment",
    "SourceEntry",
    "TableReader",
    "TableSource",
    "first_table",
    "parse_attachment",
    "parse_attachments",
    "read_sources_file",
]
