"""What varies by resource, declared once: the ``ResourceSpec`` a resource module builds.

The generic loader (``pipeline``) reads a spec and never names a resource: read the file with the
spec's columns, validate with its Pandera schema, turn rows into API records with its
``to_records``, write them with its write strategy, read co2e back as its ``Readback`` says, and
land everything. Adding a resource is a module here, a schema in ``schemas/`` and a sample file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pandas as pd
import pandera.pandas as pa

from emissions_etl.client import LimitPolicy
from emissions_etl.loading.references import ReferenceList, References

#: Interface, Limits: "Records per request 5,000".
MAX_RECORDS_PER_REQUEST = 5_000

#: Valid rows (typed canonical columns + origin) -> (API records, rejects). Records keep the
#: origin columns, ``source_key`` and ``source_hash`` beside the API fields.
ToRecords = Callable[[pd.DataFrame, References], tuple[pd.DataFrame, pd.DataFrame]]
#: A hook that adjusts typed rows before the schema judges them (spellings, defaults).
Prepare = Callable[[pd.DataFrame], pd.DataFrame]
#: The list query that finds the records a killed run may have created for one record.
RecoveryQuery = Callable[[Mapping[str, Any]], Mapping[str, Any]]


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

    ``get_path`` reads one record by id; without it records are found through ``list_path``
    (which may name fields of the record: ``/v1/vehicles/{vehicle_id}/consumptions``) with
    ``list_query`` (the query that returns one source row's record). Records whose status
    is in ``unsettled`` are read again until they settle, within a bounded wait, and by the next
    run otherwise.
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
    list_query: RecoveryQuery | None = None
    #: A list filter taking many ids at once (read in batches instead of one GET per record).
    ids_param: str | None = None
    unsettled: frozenset[str] = frozenset({"pending", "loading"})
    #: True when the record's co2e is the sum of other records' (facility, hub, vehicle,
    #: employee): the ``emissions`` view marks it so totals do not count it twice.
    is_aggregate: bool = False


@dataclass(frozen=True)
class Recovery:
    """How to find what a killed run created before writing again (v1 has no Idempotency-Key).

    ``query`` gives the list parameters that narrow the search for one pending record
    (``list_path`` may name fields of the record, like ``{vehicle_id}``); candidates whose
    ``match_fields`` equal the record's are adopted (never two rows for one remote record).
    """

    list_path: str
    query: RecoveryQuery
    match_fields: tuple[str, ...]
    #: Where a record field lives in the listed item when not at the top (``data.custom_id``).
    item_paths: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Match fields compared only when the payload carries them: left out, the service fills
    #: them in (a distance it calculates from places).
    compared_when_sent: tuple[str, ...] = ()


@dataclass(frozen=True)
class ViewColumn:
    """A column of the resource's analyst view: a field of the service's record, typed."""

    name: str
    sql_type: str = "VARCHAR"
    path: str | None = None  # JSON path inside the record when not ``$.name``


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
    recovery: Recovery | None = None
    prepare: Prepare | None = None
    view_columns: tuple[ViewColumn, ...] = ()
    #: API field -> the spreadsheet column a person fixes when the service refuses it; a
    #: service code may be a key too, for refusals that name no field (``UNIT_NOT_CONVERTIBLE``).
    input_column_of_field: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    description: str = ""

    @property
    def columns(self) -> tuple[str, ...]:
        """The canonical input columns, in the schema's order."""
        return tuple(self.schema.to_schema().columns)
