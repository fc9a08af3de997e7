"""A table source: the rows of one query, of one resource, each identified by its key.

What ``load --from-sql`` and each entry of a sources file are, parsed once at the edge and
passed whole: the query (DuckDB SQL over the attached databases and DuckDB's own readers,
``read_parquet``, ``iceberg_scan``, ``delta_scan``), the resource its columns are, the key
columns, the databases it reads, and the source's name (default: the query's first table).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import duckdb

from emissions_etl.errors import TableSourceError
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.tables.attachments import Attachment

_GLOB = re.compile(r"[*?\[{]")


@dataclass(frozen=True)
class TableSource:
    """One query of one resource, identified by ``key`` (columns of its result)."""

    query: str
    resource: str
    key: tuple[str, ...]
    attachments: tuple[Attachment, ...] = ()
    #: The data set the rows belong to (what a mirror deletes within); None: the query's
    #: first table.
    name: str | None = None
    #: Where the definition came from, for messages (``--from-sql``, a sources file's entry).
    defined_in: str = field(default="--from-sql", compare=False)

    def __post_init__(self) -> None:
        if not self.query.strip():
            raise TableSourceError(self.defined_in, "the query is empty")
        if not self.key or not all(column.strip() for column in self.key):
            raise TableSourceError(
                self.defined_in,
                "no key: name the column (or columns) that identify a row, --key txn_id "
                "(--key company,doc_no for several)",
            )

    @property
    def source_name(self) -> str:
        """The source's name: given, else the query's first table (``fuel_card`` of
        ``erp.public.fuel_card``, ``fuel`` of ``read_parquet('lake/fuel/*.parquet')``)."""
        if self.name:
            return self.name
        found = first_table(self.query)
        if not found:
            raise TableSourceError(
                self.defined_in, "the query reads no table to name the source by: give --source"
            )
        return found

    @property
    def key_text(self) -> str:
        return ",".join(self.key)

    def parameters(self) -> JsonObject:
        """What a run records of it: never a password (``Attachment.described``)."""
        return {
            "query": self.query,
            "key": list(self.key),
            "attach": [attachment.described for attachment in self.attachments],
            "source": self.source_name,
        }


def first_table(query: str) -> str | None:
    """The first table ``query`` reads (DuckDB's own parser), or the file or folder of the
    first table function reading a path; None when it reads none (or does not parse)."""
    try:
        with duckdb.connect() as con:
            [(serialized,)] = con.execute(
                "SELECT json_serialize_sql(?::VARCHAR)", [query]
            ).fetchall()
    except duckdb.Error:
        return None
    tree: JsonValue = json.loads(serialized)
    if not isinstance(tree, dict) or tree.get("error"):
        return None
    statements = tree.get("statements")
    if not isinstance(statements, list) or not statements:
        return None
    return _first_table(statements[0])


def _first_table(node: JsonValue) -> str | None:
    children: Iterable[JsonValue]
    if isinstance(node, dict):
        if node.get("type") == "BASE_TABLE" and node.get("table_name"):
            return str(node["table_name"])
        if node.get("type") == "TABLE_FUNCTION":
            function = node.get("function")
            path = _first_text(function.get("children") if isinstance(function, dict) else None)
            if path:
                return _named_by_path(path)
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for child in children:
        found = _first_table(child)
        if found:
            return found
    return None


def _first_text(children: JsonValue) -> str | None:
    """The first text constant among a table function's arguments (its path)."""
    for child in children if isinstance(children, list) else ():
        value = child.get("value") if isinstance(child, dict) else None
        if isinstance(value, dict) and isinstance(value.get("value"), str):
            return str(value["value"])
    return None


def _named_by_path(path: str) -> str:
    """``lake/fuel/*.parquet`` -> ``fuel``; ``s3://bucket/fuel.parquet`` -> ``fuel``."""
    parts = [part for part in re.split(r"[/\\]", path.rstrip("/\\")) if part]
    while len(parts) > 1 and _GLOB.search(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    return last.split(".")[0] or last
