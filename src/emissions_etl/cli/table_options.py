"""The options of ``load`` and ``validate`` that name table sources instead of files: a query
(``--from-sql``, ``--key``, ``--attach``) or a file of them (``--sources``), each turned into
one ``TableSource`` at the edge and passed whole."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from emissions_etl.loading.table_loads import PlannedTable

FromSqlOption = Annotated[
    str | None,
    typer.Option(
        "--from-sql",
        help="Load the rows of this query instead of files (DuckDB SQL over the databases "
        "--attach names, or read_parquet(...), iceberg_scan(...), delta_scan(...) of local "
        "paths or s3:// URLs); needs --resource and --key. The source's name (--source) "
        "defaults to the query's first table.",
    ),
]
KeyOption = Annotated[
    str | None,
    typer.Option(
        "--key",
        help="With --from-sql: the column (COL, or COL,COL...) identifying a row of the query: "
        "the same key is the same record (changed values update it), a key gone is deleted "
        "with --mirror.",
    ),
]
AttachOption = Annotated[
    list[str] | None,
    typer.Option(
        "--attach",
        help="With --from-sql: a database the query reads, as NAME=URI: "
        "erp=postgres:<libpq conninfo>, crm=mysql:<connection string>, legacy=sqlite:<path>, "
        "or a DuckDB file; repeat it for several. Attached read-only; passwords from the "
        "conninfo, PGPASSWORD or .pgpass, never shown nor stored.",
    ),
]
SourcesOption = Annotated[
    Path | None,
    typer.Option(
        "--sources",
        envvar="EMISSIONS_SOURCES",
        show_envvar=True,
        help="TOML file of table sources (name, resource, query, key, databases to attach): "
        "load each of them, as the nightly syncs them after its inbox.",
    ),
]


def planned_tables(
    files: list[str] | None,
    *,
    from_sql: str | None,
    resource: str | None,
    key: str | None,
    attach: list[str] | None,
    source: str | None,
    sources: Path | None,
    organization: str | None = None,
) -> list[PlannedTable]:
    """The table sources the options name (none: the command loads files); of a sources file,
    those of ``organization`` (None: those that name none). Files given win over a sources
    file (``EMISSIONS_SOURCES`` may be set for the nightly where files are loaded by hand);
    ValueError for files with a query, TableSourceError for a source that cannot be used."""
    from emissions_etl.loading.table_loads import PlannedTable
    from emissions_etl.tables import TableSource, parse_attachments
    from emissions_etl.tables.sources_file import read_sources_file

    if from_sql is None and (sources is None or files):
        if key or attach:
            raise ValueError("--key and --attach name a query's: give --from-sql QUERY")
        return []
    if files:
        raise ValueError("give files, or --from-sql QUERY: one at a time")
    if sources is not None:
        if from_sql is not None:
            raise ValueError("give --from-sql QUERY or --sources FILE, not both")
        entries = read_sources_file(sources)
        return [PlannedTable.of(e.source) for e in entries if e.organization == organization]
    if not resource:
        raise ValueError("--from-sql needs --resource: the resource the query's rows are")
    columns = tuple(column.strip() for column in (key or "").split(",") if column.strip())
    table = TableSource(
        query=from_sql or "",
        resource=resource,
        key=columns,
        attachments=parse_attachments(attach or []),
        name=source,
    )
    return [PlannedTable.of(table)]
