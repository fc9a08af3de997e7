"""What varies by resource, declared once: the ``ResourceSpec`` a resource module builds.

The generic loader (``pipeline``) reads a spec and never names a resource: read the file with the
spec's columns, validate with its Pandera schema, turn rows into API records with its
``to_records``, write them with its write strategy, read co2e back as its ``Readback`` says, and
land everything. Adding a resource is a module here, a schema in ``schemas/`` and a sample file.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import pandas as pd
import pandera.pandas as pa

from emissions_etl.client import LimitPolicy
from emissions_etl.client.json_types import QueryParams
from emissions_etl.domain.references import Directory, ReferenceList, References
from emissions_etl.json_values import JsonValue
from emissions_etl.warehouse import CoverageRule, InventoryRule

#: Interface, Limits: "Records per request 5,000".
MAX_RECORDS_PER_REQUEST = 5_000

#: Valid rows (typed canonical columns + origin) -> (API records, rejects). Records keep the
#: origin columns, ``source_key`` and ``source_hash`` beside the API fields.
ToRecords = Callable[[pd.DataFrame, References], tuple[pd.DataFrame, pd.DataFrame]]
#: A hook that adjusts typed rows before the schema judges them (spellings, defaults).
Prepare = Callable[[pd.DataFrame], pd.DataFrame]
#: The list query that narrows the search for one record (its day, its parent, its type), from
#: the record's payload (or a parent's stub: ``{vehicle_id: ...}``).
RecordQuery = Callable[[Mapping[str, JsonValue]], QueryParams]
#: The one list query covering many records at once (the date range of a batch).
RangeQuery = Callable[[Sequence[Mapping[str, JsonValue]]], QueryParams]
#: What makes a record the same record, computed alike on a payload and on a listed item.
Identity = Callable[[Mapping[str, JsonValue]], Hashable]


@dataclass(frozen=True)
class IngestJobBulk:
    """v2 bulk ingest job: chunks with a content-derived Idempotency-Key, job followed to its end.

    Records echo ``client_row_id``, so recovery and read-back look records up by it.
    """

    create_path: str
    delete_path: str
    #: The body member of the delete request listing record ids.
    delete_field: str
    list_path: str
    key_field: str = "client_row_id"
    chunk_size: int = MAX_RECORDS_PER_REQUEST


@dataclass(frozen=True)
class PerRecordBulk:
    """v1 bulk with per-record results: ``{records, options}`` -> ``results[]``/``errors[]`` by
    index. Changed rows are deleted through ``batch_delete_path`` (``{delete_field: [ids]}``)
    and created again."""

    bulk_path: str
    batch_delete_path: str
    delete_field: str
    chunk_size: int = MAX_RECORDS_PER_REQUEST
    #: Bulk requests in flight at once (interface: Limits, concurrent requests).
    in_flight: int = 10


@dataclass(frozen=True)
class SingleCreate:
    """One POST per record, several in flight; a 404/409/422 for a record rejects its row.

    ``create_path`` may name record fields in braces (``/v1/vehicles/{vehicle_id}/...``); they
    are taken out of the body. Changed rows are updated with ``update_method`` on ``item_path``
    when the interface has an update, else deleted on ``delete_path`` and created again.
    """

    create_path: str
    item_path: str | None = None
    update_method: str | None = None
    delete_path: str | None = None
    in_flight: int = 8
    #: Codes of a 409 saying the service holds the record in a state clients may not change for
    #: now (a purchase ``in_progress``): the row is no reject; it counts as failed and the next
    #: run sends it again.
    busy_codes: frozenset[str] = frozenset()


WriteStrategy = IngestJobBulk | PerRecordBulk | SingleCreate


@dataclass(frozen=True)
class Readback:
    """How the service's records (ids, status, co2e) are read back and what they mean.

    Records are read through ``list_path`` when it can serve them in pages: by ``ids_param``
    (many ids a request), by ``range_query`` (one query covering many records, such as the
    date range of a batch: list pages instead of one GET per record), or with ``list_query``
    (the query that returns one source row's record; ``list_path`` may name fields of the
    record: ``/v1/vehicles/{vehicle_id}/consumptions``); else one GET on ``get_path`` each.
    Records whose status is in ``unsettled`` are read again until they settle, within a
    bounded wait, and by the next run otherwise.
    """

    #: A dotted path through a list sums it: ``periods.co2e`` (an employee's periods).
    co2e_field: str = "co2e"
    activity_date_field: str | None = None
    facility_field: str | None = None
    #: None: the record has no status; the service calculates it when it is created (a
    #: commuting period), so it lands as ``active``.
    status_field: str | None = "status"
    get_path: str | None = None
    list_path: str | None = None
    list_query: RecordQuery | None = None
    #: A list filter taking many ids at once (read in batches instead of one GET per record).
    ids_param: str | None = None
    #: The list query covering a group of records (their dates): read by pages of that list.
    range_query: RangeQuery | None = None
    unsettled: frozenset[str] = frozenset({"pending", "loading"})
    #: True when the record's co2e is the sum of other records' (facility, hub, vehicle,
    #: employee): the ``emissions`` view marks it so totals do not count it twice.
    is_aggregate: bool = False


@dataclass(frozen=True)
class Finding:
    """How a record is found again in the service, by the rows that describe it.

    Used before writing (a row the warehouse has no mapping for is first looked for among the
    records the service holds, so a second warehouse, a lost one or records made in the
    service's own screens give no doubles) and after a crash (a killed run's creates are
    found and adopted: v1 has no Idempotency-Key).

    Candidates come from ``list_path`` (which may name fields of the record, like
    ``{vehicle_id}``): by ``keys_param`` (many key values a request), by ``range_query`` (one
    query for a batch: its date range), else one ``query`` per distinct narrowing (a parent,
    a type; ``{}`` lists them all). A candidate is the record of a row when their
    ``identity`` is equal (default: the ``match_fields``, compared as the service stores
    them); the n-th identical row takes the n-th identical record, never one already mapped
    to a row of another source.
    """

    list_path: str
    query: RecordQuery
    match_fields: tuple[str, ...]
    #: Where a record field lives in the listed item when not at the top (``data.custom_id``).
    item_paths: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Match fields compared only when the payload carries them: left out, the service fills
    #: them in (a distance it calculates from places).
    compared_when_sent: tuple[str, ...] = ()
    #: Fields a create or update takes that the record does not return (input-only
    #: references, a vehicle's ``unknown_vehicle_id``): never compared.
    not_returned: tuple[str, ...] = ()
    #: Identity other than equal match fields (an employee: the e-mail, else the name).
    identity: Identity | None = None
    #: One list query covering a whole batch (its dates), instead of one per record.
    range_query: RangeQuery | None = None
    #: A list filter taking many key values at once (``client_row_id``), 100 a request.
    keys_param: str | None = None
    #: The service upserts by its own key (logistics): a write finds the record itself, so
    #: nothing is looked for before writing (only after a crash).
    upserted_by_service: bool = False
    #: The key a row of the record would have (``row_keys``), read off the record, where the
    #: service keeps what makes it (a name, a plate, an echoed ``client_row_id``): how a
    #: warehouse rebuilt from the service maps records. None: records keep no key (a trip).
    key_of: Callable[[Mapping[str, JsonValue]], str | None] | None = None
    #: Records listed per parent: (parent resource, the record field naming it), as a
    #: vehicle's consumptions (``{vehicle_id}`` in the path) or an employee's periods
    #: (``employee_id`` in the query). None: ``list_path`` lists every record.
    parent: tuple[str, str] | None = None


@dataclass(frozen=True)
class ViewColumn:
    """A column of the resource's analyst view: a field of the service's record, typed, and
    what it means (the column's comment in the warehouse, and its line in the docs)."""

    name: str
    sql_type: str = "VARCHAR"
    path: str | None = None  # JSON path inside the record when not ``$.name``
    meaning: str = field(kw_only=True)


@dataclass(frozen=True)
class ResourceSpec:
    """One loadable resource of the service, declared."""

    name: str
    #: Pandera model of the spreadsheet side (``schemas/<name>.py``).
    schema: type[pa.DataFrameModel]
    #: Header spellings -> canonical column (matched loosely: case, spaces, ``_ - .``).
    aliases: Mapping[str, str]
    #: Columns a header row must name for the file to be this resource.
    required_columns: tuple[str, ...]
    #: Canonical columns forming the natural key; empty = ``client_row_id`` or the row's place.
    natural_key: tuple[str, ...]
    to_records: ToRecords
    write: WriteStrategy
    readback: Readback
    #: API field names of a record, in the order the interface lists them.
    record_fields: tuple[str, ...]
    date_fields: tuple[str, ...] = ()
    lookups: tuple[ReferenceList, ...] = ()
    depends_on: tuple[str, ...] = ()
    limits: Mapping[tuple[str, str], LimitPolicy] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: How its records are found again in the service (None: they are not, by design).
    finding: Finding | None = None
    prepare: Prepare | None = None
    view_columns: tuple[ViewColumn, ...] = ()
    #: API field -> the spreadsheet column a person fixes when the service refuses it; a
    #: service code may be a key too, for refusals that name no field (``UNIT_NOT_CONVERTIBLE``).
    input_column_of_field: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""
    #: Where the resource's records sit in the GHG inventory (scope, Scope 3 category), as SQL
    #: over the record the service returned; None when its co2e sums other records' (the
    #: ``ghg_inventory`` view never counts those).
    inventory: InventoryRule | None = None
    #: Which days its records cover and whose they are (an entity's: a vehicle's, a facility's,
    #: an employee's; or the organization's), for the inventory's coverage; None when its
    #: co2e sums other records' (nothing is expected of it).
    coverage: CoverageRule | None = None
    #: The records are a directory the warehouse keeps a table of (the facilities): a rebuild
    #: from the service lands them there too. None: they are not.
    directory: Directory | None = None

    @property
    def columns(self) -> tuple[str, ...]:
        """The canonical input columns, in the schema's order."""
        return tuple(self.schema.to_schema().columns)
