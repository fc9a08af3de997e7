"""Mapping tables: small CSV files (``tables/<name>.csv``) turning an export's values into the
values a resource takes (``Diesel e+`` -> ``diesel``, material group -> NAICS sector).

The first column, ``source``, is the value as exports write it, matched ignoring case and
repeated spaces; the other columns are what it becomes. An empty result with a ``reason``
says the row is not an activity of the resource (``AdBlue`` is no fuel) and is left out with
that reason. Lines starting with ``#`` are comments. A person's own file (``--sector-map``)
extends a table and wins where both name a value.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from emissions_etl.errors import SourceNotFoundError, UnsupportedSourceError

#: Column of a table that says why a value is left out.
REASON = "reason"
_SPACES = re.compile(r"\s+")


def table_key(text: str) -> str:
    """How a value is matched: ``  Diesel  E+`` and ``diesel e+`` are the same key."""
    return _SPACES.sub(" ", text.strip()).casefold()


@dataclass(frozen=True)
class Table:
    """A mapping table: key -> {column: value}, and the keys as the table writes them."""

    name: str
    columns: tuple[str, ...]
    rows: Mapping[str, Mapping[str, str]]
    written: Mapping[str, str]

    def column(self, take: str | None) -> str:
        """The result column: ``take``, else the first column after ``source``."""
        outputs = [c for c in self.columns if c != REASON]
        chosen = take or (outputs[0] if outputs else "")
        if chosen not in self.columns:
            raise ValueError(f"table {self.name} has no column {chosen!r}")
        return chosen

    def values(self, take: str | None) -> dict[str, str]:
        """key -> result (``""`` for a value left out); keys without the column are absent."""
        column = self.column(take)
        return {key: row[column] for key, row in self.rows.items() if column in row}

    def reasons(self) -> dict[str, str]:
        return {key: row.get(REASON, "") for key, row in self.rows.items()}

    def known(self) -> list[str]:
        """The values as written, for messages."""
        return sorted(self.written.values(), key=str.casefold)

    def extended(self, other: Table) -> Table:
        """This table with ``other``'s rows added; on the same key, ``other``'s columns win and
        the columns it lacks keep this table's values."""
        columns = tuple(dict.fromkeys((*self.columns, *other.columns)))
        rows = dict(self.rows)
        for key, row in other.rows.items():
            rows[key] = MappingProxyType({**rows.get(key, {}), **row})
        written = {**self.written, **other.written}
        return Table(self.name, columns, MappingProxyType(rows), MappingProxyType(written))


@cache
def shipped_table(name: str) -> Table:
    """The table ``tables/<name>.csv`` of this package."""
    folder = resources.files(__package__) / "tables"
    entry = folder / f"{name}.csv"
    if not entry.is_file():
        raise ValueError(f"no mapping table {name!r} (tables/{name}.csv)")
    return _parse(name, entry.read_text(encoding="utf-8"), delimiter=",", where=f"{name}.csv")


def user_table(name: str, path: Path, take: str) -> Table:
    """A person's CSV (``,`` ``;`` or tab separated, UTF-8 or Windows-1252) as a table: its first
    column is the value, its column named ``take`` (else its second one) the result; other
    columns named like the shipped table's (``expense_type``) count too."""
    path = Path(path)
    if not path.is_file():
        raise SourceNotFoundError(str(path), "no such file (the mapping table given)")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise UnsupportedSourceError(str(path), "the mapping table is empty")
    delimiter = max(",;\t", key=lines[0].count)
    header = next(csv.reader([lines[0]], delimiter=delimiter))
    names = [cell.strip() for cell in header]
    if len(names) < 2:
        raise UnsupportedSourceError(
            str(path), f"a mapping table needs two columns: the value and its {take}"
        )
    result = take if take in names else names[1]
    renamed = ["source", *(take if n == result else n for n in names[1:])]
    body = "\n".join([delimiter.join(renamed), *lines[1:]])
    return _parse(name, body, delimiter=delimiter, where=str(path))


def _parse(name: str, text: str, *, delimiter: str, where: str) -> Table:
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    fields = [f.strip() for f in reader.fieldnames or ()]
    if not fields or fields[0] != "source":
        raise ValueError(f"{where}: the first column must be 'source'")
    rows: dict[str, Mapping[str, str]] = {}
    written: dict[str, str] = {}
    for record in reader:
        cells = {k.strip(): (v or "").strip() for k, v in record.items() if k is not None}
        source = cells.pop("source", "")
        if not source:
            continue
        rows[table_key(source)] = MappingProxyType(cells)
        written[table_key(source)] = source
    return Table(name, tuple(fields[1:]), MappingProxyType(rows), MappingProxyType(written))


__all__ = ["REASON", "Table", "shipped_table", "table_key", "user_table"]
