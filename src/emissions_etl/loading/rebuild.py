"""Rebuild the warehouse from the service: the service is the memory of what was sent, the
warehouse a cache of it (``emissions-etl rebuild-warehouse``).

Every record of every resource is read by list pages (children per parent: a vehicle's
consumptions, an employee's periods) and landed with its co2e, replacing what the warehouse
held of that resource; records it no longer holds leave the warehouse. A record is mapped to
the key its row would have where the service keeps what makes that key (``Finding.key_of``: a
name, a plate, an e-mail, an echoed ``client_row_id``); records that keep none (a trip, a
purchase, a commuting period) are landed unmapped and listed: the next load of their source
finds them by content instead of creating them again. Rebuilt mappings name no source, so no
mirror deletes through them until a load of their source names it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from emissions_etl.client.json_types import QueryParams
from emissions_etl.domain.row_keys import source_of_key
from emissions_etl.json_values import JsonObject
from emissions_etl.loading.ports import LoadWarehouse, WritableWarehouse
from emissions_etl.loading.preparation import describe
from emissions_etl.loading.readback import ListQuery, fetch_concurrently, fill_path, remote_frame
from emissions_etl.resources import RESOURCES, ResourceSpec


class ListApi(Protocol):
    def iter_items(
        self,
        path: str,
        params: QueryParams | None = None,
        *,
        total: Callable[[int], None] | None = None,
    ) -> Iterator[JsonObject]: ...


class RebuildProgress(Protocol):
    """Told how the paging goes: each resource as it starts, the records its lists say they
    hold (a list's first page tells its total; a child resource's lists, one a parent, add
    theirs as they are read) and the records read."""

    def resource(self, name: str) -> None: ...

    def expect(self, records: int) -> None: ...

    def read(self, records: int) -> None: ...


class _Unwatched:
    def resource(self, name: str) -> None:
        pass

    def expect(self, records: int) -> None:
        pass

    def read(self, records: int) -> None:
        pass


#: Records read between two tellings of ``RebuildProgress.read`` (a page's worth).
_TOLD_EVERY = 100


@dataclass(frozen=True)
class RebuiltResource:
    """What the service holds of one resource, and how much of it the warehouse now maps."""

    resource: str
    records: int
    #: Mapped to the key a row would have.
    identified: int

    @property
    def unidentified(self) -> int:
        return self.records - self.identified


def rebuild_warehouse(
    api: ListApi, warehouse: WritableWarehouse, progress: RebuildProgress | None = None
) -> list[RebuiltResource]:
    """Land every record the service holds, resource by resource (parents first), telling
    ``progress`` how the paging goes."""
    rebuilt: list[RebuiltResource] = []
    listed: dict[str, list[JsonObject]] = {}
    watching = progress or _Unwatched()
    with warehouse.writer() as writer:
        for spec in RESOURCES.values():
            if spec.finding is None:
                continue
            watching.resource(spec.name)
            items = _every_record(api, spec, listed, watching)
            listed[spec.name] = items
            describe(writer, spec)
            rebuilt.append(_land(writer, spec, items))
            if spec.directory is not None:  # the facilities: a directory the warehouse keeps
                writer.records.land_facilities(spec.directory.rows(items))
    return rebuilt


def _every_record(
    api: ListApi,
    spec: ResourceSpec,
    listed: Mapping[str, list[JsonObject]],
    progress: RebuildProgress,
) -> list[JsonObject]:
    finding = spec.finding
    assert finding is not None

    def paged(path: str, params: QueryParams) -> list[JsonObject]:
        items: list[JsonObject] = []
        for item in api.iter_items(path, params, total=progress.expect):
            items.append(item)
            if len(items) % _TOLD_EVERY == 0:
                progress.read(_TOLD_EVERY)
        progress.read(len(items) % _TOLD_EVERY)
        return items

    if finding.parent is None:
        return paged(finding.list_path, {})
    parent, field = finding.parent
    stubs = [{field: str(item["id"])} for item in listed.get(parent, [])]
    queries = [
        ListQuery(path=fill_path(finding.list_path, stub), params=dict(finding.query(stub)))
        for stub in stubs
    ]
    return fetch_concurrently(lambda q: paged(q["path"], q["params"]), queries)


def _land(writer: LoadWarehouse, spec: ResourceSpec, items: list[JsonObject]) -> RebuiltResource:
    """Replace the resource's records with ``items``; keep the mappings of records that still
    exist, map the records whose key can be read off them, forget the rest."""
    finding = spec.finding
    assert finding is not None
    held = writer.mappings.mapping(spec.name)
    exists = held["remote_id"].astype(str).isin({str(item["id"]) for item in items})
    writer.mappings.forget(spec.name, held.loc[~exists, "source_key"].astype(str).tolist(), [])
    mapped = set(held.loc[exists, "remote_id"].astype(str))
    keyed = [
        (key, str(item["id"]))
        for item in items
        if str(item["id"]) not in mapped and (key := _key_of(finding.key_of, item))
    ]
    # No row's hash is known (""): the next load compares each row with its record and sends
    # only what differs.
    for key, remote_id in keyed:
        mapping = pd.DataFrame({"source_key": [key], "remote_id": [remote_id], "source_hash": [""]})
        writer.mappings.upsert_mapping(spec.name, mapping, source_name=source_of_key(key))
    keys = {remote_id: key for key, remote_id in keyed}
    writer.records.replace_remote_records(spec.name, remote_frame(items, spec, keys))
    return RebuiltResource(spec.name, len(items), len(mapped) + len(keyed))


def _key_of(key_of: Callable[[JsonObject], str | None] | None, item: JsonObject) -> str | None:
    return key_of(item) if key_of is not None else None
