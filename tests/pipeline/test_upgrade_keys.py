"""A warehouse written before rows were identified by their content (its keyless rows keyed
by their place, ``file#sheet!row``) is keyed again when opened, so its next load sends
nothing."""

from __future__ import annotations

import duckdb

from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.resources import resource_spec

from .tenancy import Tenant, waste_row, write_wastes_xlsx


def test_rows_keyed_by_their_place_are_keyed_by_their_content_and_load_as_unchanged(
    tenant: Tenant,
) -> None:
    path = write_wastes_xlsx(tenant.workdir / "wastes.xlsx", [waste_row(n) for n in range(4)])
    with tenant.client() as client:
        load_file(path, api=client, warehouse=tenant.warehouse, spec=resource_spec("wastes"))
    keys = "SELECT source_key FROM remote_ids ORDER BY source_key"
    content_keys = tenant.warehouse.query(keys)["source_key"].tolist()
    # What a version 2 warehouse holds: the same rows under their places, no sources.
    with duckdb.connect(str(tenant.warehouse.path)) as con:
        for table in ("remote_ids", "remote_records"):
            con.execute(
                f"UPDATE {table} AS t SET source_key = s.source_file || '#' || s.source_sheet "
                "|| '!' || CAST(s.source_row AS VARCHAR) FROM source_rows AS s "
                "WHERE s.resource = t.resource AND s.source_key = t.source_key"
            )
        con.execute(
            "UPDATE source_rows SET source_key = source_file || '#' || source_sheet || '!' "
            "|| CAST(source_row AS VARCHAR), source_name = NULL"
        )
        con.execute("UPDATE remote_ids SET source_name = NULL")
        con.execute("DELETE FROM schema_version WHERE version >= 3")
        assert con.execute(keys).fetchall() == sorted(
            (f"wastes.xlsx#Wastes!{row}",) for row in range(4, 8)
        )

    with tenant.client() as client:
        again = load_file(
            path, api=client, warehouse=tenant.warehouse, spec=resource_spec("wastes"),
            options=LoadOptions(),
        )  # fmt: skip

    assert tenant.warehouse.query(keys)["source_key"].tolist() == content_keys
    assert (again.rows_sent, again.rows_unchanged, again.rows_gone) == (0, 4, 0)
    named = tenant.warehouse.query("SELECT DISTINCT source_name FROM remote_ids")
    assert named["source_name"].tolist() == ["wastes.xlsx"]
