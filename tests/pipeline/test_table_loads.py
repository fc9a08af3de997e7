"""A table source loaded into the served sandbox and a warehouse file, on a real PostgreSQL and on
a folder of Parquet files: identity by key, only what changed sent, a mirror of what the table
no longer has, rejects named by key, and a dry run that changes nothing."""

from __future__ import annotations

import ssl
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import httpx
import pytest

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.errors import MirrorRefusedError
from emissions_etl.loading.options import LoadOptions
from emissions_etl.loading.pipeline import LoadSummary
from emissions_etl.loading.table_loads import load_table
from emissions_etl.resources import resource_spec
from emissions_etl.tables import TableSource, parse_attachment
from tests.pipeline.tenancy import Tenant, tenant
from tests.postgres_server import available
from tests.tables.erp import Row, erp_row, erp_rows, parquet_folder, postgres_table

__all__ = ["tenant"]
pytestmark = pytest.mark.timeout(300)
WASTES = resource_spec("wastes")
WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Erp:
    """A waste register where the ERP's data lands, and the table source reading it."""

    source: TableSource
    write: Callable[[Sequence[Row]], None]


@pytest.fixture(
    params=[
        "parquet",
        pytest.param(
            "postgres",
            marks=[
                pytest.mark.xdist_group("postgres"),
                pytest.mark.skipif(not available(), reason="no PostgreSQL binaries"),
            ],
        ),
    ]
)
def erp(request: pytest.FixtureRequest, tmp_path: Path) -> Erp:
    if request.param == "parquet":
        folder = tmp_path / "lake" / "wastes"
        query = f"SELECT * FROM read_parquet('{folder}/*.parquet')"
        return Erp(TableSource(query, "wastes", ("doc_id",)),
                   lambda rows: parquet_folder(folder, rows) and None)  # fmt: skip
    conninfo = request.getfixturevalue("postgres").create_database("erp")
    attachment = parse_attachment(f"erp=postgres:{conninfo}")
    source = TableSource("SELECT * FROM erp.public.wastes", "wastes", ("doc_id",), (attachment,))
    return Erp(source, lambda rows: postgres_table(conninfo, rows))


class Counting(httpx.BaseTransport):
    """The transport to the sandbox, counting the requests sent by method."""

    def __init__(self, tenant: Tenant) -> None:
        context = ssl.create_default_context(cafile=str(tenant.ca_file))
        self.inner = httpx.HTTPTransport(verify=context)
        self.sent: Counter[str] = Counter()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent[request.method] += 1
        return self.inner.handle_request(request)

    @property
    def writes(self) -> int:
        return sum(self.sent[method] for method in WRITES)


def sync(
    tenant: Tenant, source: TableSource, counting: Counting | None = None, **options: object
) -> LoadSummary:
    auth = ApiKeyAuth(tenant.api_key, tenant.organization_id)
    transport = {"transport": counting} if counting is not None else {}
    with EmissionsClient(tenant.base_url, auth, ca_file=tenant.ca_file, **transport) as client:
        return load_table(source, api=client, warehouse=tenant.warehouse, spec=WASTES,
                          options=LoadOptions(**options))  # type: ignore[arg-type]  # fmt: skip


def remote_wastes(tenant: Tenant) -> dict[str, dict[str, object]]:
    """The service's wastes by the key they echo."""
    with tenant.client() as client:
        return {str(w["client_row_id"]): w for w in client.iter_wastes()}


def test_a_first_load_creates_a_record_per_row_keyed_by_source_and_key(
    tenant: Tenant, erp: Erp
) -> None:
    erp.write(erp_rows(12))
    summary = sync(tenant, erp.source)
    assert (summary.outcome, summary.rows_read, summary.rows_loaded) == ("succeeded", 12, 12)
    assert sorted(remote_wastes(tenant)) == [f"wastes#doc_id=D-{n:04d}" for n in range(12)]
    mapped = tenant.warehouse.query("SELECT count(*) AS n FROM remote_ids WHERE source_name = ?",
                                    ["wastes"])  # fmt: skip
    assert int(mapped["n"][0]) == 12


def test_the_same_rows_again_send_nothing_and_create_nothing(tenant: Tenant, erp: Erp) -> None:
    erp.write(erp_rows(12))
    sync(tenant, erp.source)
    counting = Counting(tenant)
    again = sync(tenant, erp.source, counting)
    assert (again.rows_unchanged, again.rows_sent, again.rows_loaded) == (12, 0, 0)
    assert counting.writes == 0
    assert len(remote_wastes(tenant)) == 12


def test_a_changed_row_is_sent_alone_and_its_record_holds_the_new_values(
    tenant: Tenant, erp: Erp
) -> None:
    rows = erp_rows(12)
    erp.write(rows)
    sync(tenant, erp.source)
    rows[3] = erp_row(3, quantity=777.0)
    erp.write(rows)
    again = sync(tenant, erp.source)
    assert (again.rows_changed, again.rows_unchanged, again.rows_sent) == (1, 11, 1)
    held = remote_wastes(tenant)
    assert len(held) == 12
    assert held["wastes#doc_id=D-0003"]["base_quantity"] == 777.0


def test_a_row_gone_from_the_table_is_deleted_with_mirror(tenant: Tenant, erp: Erp) -> None:
    rows = erp_rows(12)
    erp.write(rows)
    sync(tenant, erp.source)
    erp.write([row for row in rows if row[0] != "D-0005"])
    kept = sync(tenant, erp.source)
    assert (kept.rows_gone, kept.rows_deleted, len(remote_wastes(tenant))) == (1, 0, 12)
    mirrored = sync(tenant, erp.source, mirror=True)
    assert (mirrored.rows_gone, mirrored.rows_deleted) == (1, 1)
    assert "wastes#doc_id=D-0005" not in remote_wastes(tenant)
    assert len(remote_wastes(tenant)) == 11


def test_a_mirror_that_would_delete_most_of_the_source_is_refused(tenant: Tenant, erp: Erp) -> None:
    erp.write(erp_rows(12))
    sync(tenant, erp.source)
    erp.write(erp_rows(2))
    with pytest.raises(MirrorRefusedError, match="would delete 10 of the 12 records"):
        sync(tenant, erp.source, mirror=True)
    assert len(remote_wastes(tenant)) == 12


def test_rejected_rows_are_named_by_key_in_the_warehouse(tenant: Tenant, erp: Erp) -> None:
    rows = [*erp_rows(4), erp_row(9, doc_id="D-0001"), erp_row(5, quantity=-3.0)]
    erp.write([(None, *erp_row(8)[1:]), *rows])
    summary = sync(tenant, erp.source)
    assert (summary.rows_read, summary.rows_rejected, summary.rows_loaded) == (7, 4, 3)
    found = tenant.warehouse.query(
        'SELECT coalesce("key", \'\') AS "key", "column", code FROM rejects WHERE run_id = ? '
        'ORDER BY "key", code',
        [summary.run_id],
    )
    assert found.to_records(index=False).tolist() == [
        ("", "doc_id", "REQUIRED"),
        ("doc_id=D-0001", "doc_id", "DUPLICATE_ROW_ID"),
        ("doc_id=D-0001", "doc_id", "DUPLICATE_ROW_ID"),
        ("doc_id=D-0005", "base_quantity", "NOT_POSITIVE"),
    ]


def warehouse_tables(path: Path) -> Iterator[tuple[str, list[tuple[object, ...]]]]:
    """Every table of the warehouse file with all its rows, in one order."""
    with duckdb.connect(str(path), read_only=True) as con:
        names = [name for (name,) in con.execute("SHOW TABLES").fetchall()]
        for name in sorted(names):
            yield name, sorted(map(repr, con.execute(f'SELECT * FROM "{name}"').fetchall()))


def test_a_dry_run_leaves_every_table_of_the_warehouse_as_it_was(tenant: Tenant, erp: Erp) -> None:
    rows = erp_rows(12)
    erp.write(rows)
    sync(tenant, erp.source)
    rows[2] = erp_row(2, quantity=5.5)
    erp.write([*rows[:-1], erp_row(40), erp_row(41, quantity=-1.0)])
    before = list(warehouse_tables(tenant.warehouse.path))
    counting = Counting(tenant)
    dry = sync(tenant, erp.source, counting, dry_run=True, mirror=True)
    assert list(warehouse_tables(tenant.warehouse.path)) == before
    assert counting.sent["DELETE"] + counting.sent["PUT"] == 0
    assert (dry.outcome, dry.rows_new, dry.rows_changed, dry.rows_gone) == ("dry_run", 1, 1, 1)
    assert any("--mirror would delete 1 record(s)" in note for note in dry.notes)
    assert len(remote_wastes(tenant)) == 12


def test_a_dry_run_into_a_warehouse_never_loaded_creates_no_file(
    tenant: Tenant, erp: Erp, tmp_path: Path
) -> None:
    from emissions_etl.warehouse import Warehouse

    erp.write(erp_rows(3))
    fresh = Tenant(**{**tenant.__dict__, "warehouse": Warehouse(tmp_path / "none.duckdb")})
    dry = sync(fresh, erp.source, dry_run=True)
    assert (dry.outcome, dry.rows_new) == ("dry_run", 3)
    assert not (tmp_path / "none.duckdb").exists()
