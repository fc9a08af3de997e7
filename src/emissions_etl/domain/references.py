"""Reference lists fetched from the service once per load, to turn the names people write into
the ids the service wants (facility names, fuels, units, vehicles by plate, employees by e-mail).

A resource declares the lists it needs (``ReferenceList``); the loader fetches them through the
client and hands the resource a ``References`` to resolve with. A name that does not resolve
becomes a reject saying what is known instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

import numpy as np
import pandas as pd

from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.json_values import JsonObject, JsonValue

_KNOWN_SHOWN = 6

#: The query of a reference list: scalars, such as a fuel list's ``{"region": "GLO"}`` (the
#: client takes more, but this layer sits below it and needs no more).
ListParams: TypeAlias = Mapping[str, str | int | float | bool | None]


class ListingApi(Protocol):
    """The client call reference lists need."""

    def iter_items(self, path: str, params: ListParams | None = None) -> Iterator[JsonObject]: ...


@dataclass(frozen=True)
class Directory:
    """Listed items a warehouse keeps a table of beside the records (the organization's
    facilities, whose names label every report): each item as one row of ``columns``
    (table column -> field of the item; a field the item lacks is left empty)."""

    columns: Mapping[str, str]

    def rows(self, items: Iterable[Mapping[str, JsonValue]]) -> pd.DataFrame:
        """``items`` as rows of the table."""
        rows = [
            {column: item[name] for column, name in self.columns.items() if name in item}
            for item in items
        ]
        return pd.DataFrame(rows, columns=list(self.columns))


@dataclass(frozen=True)
class ReferenceList:
    """A list endpoint whose items are matched by any of ``keys`` (case-insensitive).

    ``keys`` are item fields; the item's ``id`` always matches itself. ``scope`` names an item
    field that qualifies the match (a fuel's ``country``): ``resolve(..., scope=...)`` then
    prefers the item of that scope and falls back to ``fallback_scope``.
    """

    name: str
    path: str
    keys: tuple[str, ...] = ("name",)
    params: ListParams = field(default_factory=dict)
    scope: str | None = None
    fallback_scope: str | None = None
    #: Plain words for messages: "facility", "vehicle fuel".
    label: str = ""
    #: The input column whose names this list resolves (its dropdown in templates).
    column: str | None = None
    #: Names a template offers for ``column`` when no service is configured to list the
    #: organization's own (the ones the interface documents).
    offline_names: tuple[str, ...] = ()
    #: The items are a directory the warehouse keeps (the organization's facilities, landed in
    #: its ``facilities`` table at each load whose resource looks them up); None: they are not.
    directory: Directory | None = None


@dataclass
class ReferenceTable:
    """The fetched items of one ``ReferenceList`` and their lookup keys."""

    spec: ReferenceList
    items: list[JsonObject]
    _lookup: dict[tuple[str, str], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for item in self.items:
            item_id = str(item["id"])
            scope = self._scope_of(item)
            self._lookup[(scope, _norm(item_id))] = item_id
            for key in self.spec.keys:
                value = item.get(key)
                if value not in (None, ""):
                    self._lookup.setdefault((scope, _norm(value)), item_id)

    def _scope_of(self, item: Mapping[str, JsonValue]) -> str:
        return _norm(item.get(self.spec.scope, "")) if self.spec.scope else ""

    def resolve(self, values: pd.Series, scope: pd.Series | None = None) -> pd.Series:
        """Ids for ``values`` (NA where unknown or empty), preferring the row's ``scope``.

        Each distinct (value, scope) is looked up once: a column names a few facilities or
        units thousands of times."""
        keys, key_values = pd.factorize(values.astype("str").fillna(""))
        scopes, scope_values = (
            pd.factorize(scope.astype("str").fillna(""))
            if scope is not None and self.spec.scope
            else (np.zeros(len(values), dtype=np.int64), np.array([""], dtype=object))
        )
        width = max(len(scope_values), 1)
        codes, distinct = pd.factorize(keys.astype(np.int64) * width + scopes)
        fallback = _norm(self.spec.fallback_scope or "")
        found = []
        for pair in distinct.tolist():
            key, in_scope = _norm(key_values[pair // width]), _norm(scope_values[pair % width])
            found.append(
                self._lookup.get((in_scope, key)) or self._lookup.get((fallback, key))
                if key
                else None
            )
        ids = np.array(found, dtype=object)[codes]
        return pd.Series(ids, index=values.index, dtype="str")

    def known_names(self) -> list[str]:
        """The names people may write (first key of each item), sorted."""
        if not self.spec.keys:
            return []
        key = self.spec.keys[0]
        return sorted({str(item.get(key)) for item in self.items if item.get(key)})

    def field_of(self, item_id: str, name: str) -> JsonValue:
        """A field of the item with ``item_id`` (None when unknown)."""
        for item in self.items:
            if str(item["id"]) == item_id:
                return item.get(name)
        return None


class References(Mapping[str, ReferenceTable]):
    """The reference tables of one load, by ``ReferenceList.name``."""

    def __init__(self, tables: Iterable[ReferenceTable] = ()) -> None:
        self._tables = {table.spec.name: table for table in tables}

    def __getitem__(self, name: str) -> ReferenceTable:
        return self._tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)


def fetch_references(api: ListingApi, lists: Sequence[ReferenceList]) -> References:
    """Every declared list, read once from the service."""
    return References(
        ReferenceTable(spec, list(api.iter_items(spec.path, dict(spec.params)))) for spec in lists
    )


def unknown_rejects(
    rows: pd.DataFrame,
    *,
    column: str,
    headers: Mapping[str, str],
    table: ReferenceTable,
    code: RejectCode = RejectCode.UNKNOWN_REFERENCE,
    hint: str = "",
) -> pd.DataFrame:
    """A reject per row whose ``column`` names nothing in ``table``, listing what is known."""
    if rows.empty:
        return empty_rejects()
    label = table.spec.label or table.spec.name
    known = table.known_names()
    shown = ", ".join(known[:_KNOWN_SHOWN]) + (", ..." if len(known) > _KNOWN_SHOWN else "")
    lowered = {name.lower(): name for name in known}
    messages: dict[str, str] = {}
    values = rows[column].astype("str").fillna("")
    for value in values.unique():
        close = difflib.get_close_matches(value.strip().lower(), list(lowered), n=1, cutoff=0.75)
        maybe = f" Did you mean '{lowered[close[0]]}'?" if close else ""
        messages[value] = (
            f"No {label} '{value}' in this organization; known: {shown or 'none'}.{maybe}{hint}"
        )
    return make_rejects(
        rows,
        column=headers.get(column, column),
        value=values,
        code=code,
        message=values.map(messages),
    )


def _norm(value: object) -> str:
    return " ".join(str(value).split()).lower()
