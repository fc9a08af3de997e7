"""``emissions-etl maintain-warehouse`` on a DuckLake over a real PostgreSQL: the same rows in
every view, fewer files and snapshots, and the snapshots filed inventories name kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_etl
from tests.pipeline.tenancy import new_tenant, waste_row, write_wastes_csv
from tests.postgres_server import PostgresServer, available

from .test_lake import lake_env

pytestmark = [
    pytest.mark.slow,  # benchmark-sized: left out of the fast run
    pytest.mark.skipif(not available(), reason="no PostgreSQL binaries (.ci/run installs them)"),
    pytest.mark.xdist_group("postgres"),  # the lake modules share one PostgreSQL, on one worker
    pytest.mark.timeout(600),
]

#: Every view an analyst reads, with an order that makes two reads comparable.
VIEWS = {
    "emissions": "SELECT * FROM emissions ORDER BY remote_id",
    "wastes": "SELECT * FROM wastes ORDER BY remote_id",
    "ghg_inventory": "SELECT * FROM ghg_inventory ORDER BY ALL",
    "ghg_inventory_records": "SELECT * FROM ghg_inventory_records ORDER BY remote_id",
    "load_run_summary": "SELECT * FROM load_run_summary ORDER BY run_id",
    "rejects_latest": "SELECT * FROM rejects_latest ORDER BY ALL",
}
FILES = (
    "SELECT CAST(sum(file_count + delete_file_count) AS BIGINT) AS n "
    "FROM ducklake_table_info('lake')"
)
SNAPSHOTS = "SELECT count(*) AS n, max(snapshot_id) AS last FROM ducklake_snapshots('lake')"


def lake_of(env: dict[str, str]) -> Warehouse:
    """The lake the commands of ``env`` write, read here in this process: one attach for a
    group of reads inside ``reading()`` instead of an ``emissions-etl sql`` each."""
    return Warehouse(env["EMISSIONS_WAREHOUSE"], data_path=env["EMISSIONS_WAREHOUSE_DATA"])


def rows(lake: Warehouse, query: str) -> list[dict[str, object]]:
    """``query``'s rows, a null as None and sums to 9 decimals: a sum of doubles in another
    order (rows moved from the catalog to a file) differs in its last digit."""
    frame = lake.query(query)
    return [
        {str(k): round(v, 9) if isinstance(v, float) else v for k, v in row.items()}
        for row in frame.astype(object).where(frame.notna(), None).to_dict("records")
    ]


def read_views(lake: Warehouse) -> dict[str, list[dict[str, object]]]:
    """Every view's rows."""
    with lake.reading():
        return {name: rows(lake, query) for name, query in VIEWS.items()}


def one(lake: Warehouse, query: str) -> dict[str, object]:
    [row] = rows(lake, query)
    return row


def file_inventory(env: dict[str, str]) -> tuple[str, int]:
    """An inventory of 2026 filed (``file-inventory``): its id and the snapshot it names."""
    done = run_etl(["file-inventory", "--year", "2026", "--by", "test"], env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    filed_id = done.stdout.splitlines()[-1]
    row = one(
        lake_of(env), f"SELECT snapshot_id FROM filed_inventories WHERE filed_id = '{filed_id}'"
    )
    return filed_id, int(str(row["snapshot_id"]))


def written_again(env: dict[str, str], filed_id: str, out: Path) -> str:
    """The filed inventory written again (``inventory --filed``), as its csv."""
    done = run_etl(["inventory", "--filed", filed_id, "--out", str(out)], env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8")


def test_upkeep_leaves_every_view_as_it_was_with_fewer_files_and_snapshots(
    sandbox, postgres: PostgresServer, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    conninfo = postgres.create_database("upkeep")
    tenant = new_tenant(sandbox, tmp_path)
    data = tmp_path / "lake-data"
    env = lake_env(tenant, conninfo, data)
    sizes = [1_200, 1_500, 30, 40]  # two loads past the inlining limit, two small ones
    first = 0
    for night, count in enumerate(sizes):
        path = write_wastes_csv(
            tmp_path / f"night-{night}.csv",
            [waste_row(first + n, client_row_id=f"n{night}-{n}") for n in range(count)],
        )
        first += count
        done = run_etl(["load", str(path)], env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        if night == 1:
            filed_id, filed = file_inventory(env)
    as_filed = written_again(env, filed_id, tmp_path / "filed-before.csv")
    lake = lake_of(env)
    at_filing = f"SELECT count(*) AS n FROM remote_records AT (VERSION => {filed})"
    with lake.reading():
        filed_records = one(lake, at_filing)
        views = read_views(lake)
        files, snapshots = one(lake, FILES)["n"], one(lake, SNAPSHOTS)["n"]

    done = run_etl(["maintain-warehouse", "--retention", "0"], env=env, timeout=300)

    assert done.returncode == 0, done.stderr
    assert "1 kept for filed inventories" in done.stdout
    with lake.reading():
        assert read_views(lake) == views
        assert len(views["emissions"]) == sum(sizes)
        assert int(str(one(lake, FILES)["n"])) < int(str(files)), done.stdout
        assert int(str(one(lake, SNAPSHOTS)["n"])) < int(str(snapshots))
        kept = rows(lake, "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1")
        assert filed in [row["snapshot_id"] for row in kept]
        assert one(lake, at_filing) == filed_records
    assert written_again(env, filed_id, tmp_path / "filed-after.csv") == as_filed
