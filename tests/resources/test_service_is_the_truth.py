"""The service is the truth: for every resource of the registry, one record per activity
whatever the warehouse, the file's name or the row's place. Over a served sandbox, with the
example rows of ``tests/resources/examples``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from emissions_etl.loading.identity import lookup
from emissions_etl.loading.pipeline import LoadOptions, LoadSummary, load_file
from emissions_etl.loading.readback import read_records
from emissions_etl.resources import RESOURCES, resource_spec
from emissions_etl.warehouse import Warehouse
from tests.cli_process import run_module
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, load_parents, write_example
from tests.resources.crash_driver import KILLED
from tests.resources.examples import EXAMPLES, Example

pytestmark = pytest.mark.slow  # benchmark-sized: left out of the fast run

NAMES = [name for name in RESOURCES if name in EXAMPLES]


def _upserted(resource: str) -> bool:
    finding = RESOURCES[resource].finding
    return finding is not None and finding.upserted_by_service


def _into(
    tenant: Tenant, warehouse: Warehouse, resource: str, path: Path, **options: Any
) -> LoadSummary:
    with tenant.client() as client:
        return load_file(
            path,
            api=client,
            warehouse=warehouse,
            spec=resource_spec(resource),
            options=LoadOptions(**options),
        )


def _count(tenant: Tenant, example: Example) -> int:
    with tenant.client() as client:
        return example.count(client)


def _mapped(warehouse: Warehouse, resource: str) -> set[str]:
    ids = warehouse.query("SELECT remote_id FROM remote_ids WHERE resource = ?", [resource])
    listed = ids["remote_id"].tolist()
    assert len(listed) == len(set(listed)), "two rows map to one record"
    return set(listed)


def _in_emissions(warehouse: Warehouse, resource: str) -> int:
    found = warehouse.query("SELECT count(*) AS n FROM emissions WHERE resource = ?", [resource])
    return int(found["n"][0])


def _crash(tenant: Tenant, resource: str, path: Path, warehouse: Warehouse, *flags: str) -> None:
    env = {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
    }
    killed = run_module(
        "tests.resources.crash_driver", [resource, str(path), str(warehouse.path), "1", *flags],
        env=env, timeout=120,
    )
    assert killed.returncode == KILLED, killed.stderr[-2000:]


@pytest.mark.parametrize("resource", NAMES)
def test_the_same_file_from_a_second_empty_warehouse_creates_nothing(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    load(tenant, resource, path)
    second = Warehouse(tenant.workdir / "second-worker.duckdb")

    again = _into(tenant, second, resource, path)

    assert again.rejects.empty, again.rejects.to_dict("records")
    if not _upserted(resource):  # logistics: the service's own key upserts what is sent
        assert (again.rows_sent, again.rows_adopted) == (0, len(example.rows))
    assert _count(tenant, example) == len(example.rows)
    assert _mapped(second, resource) == _mapped(tenant.warehouse, resource)
    assert _in_emissions(second, resource) == len(example.rows)


@pytest.mark.parametrize("resource", NAMES)
def test_a_cumulative_reexport_under_a_new_name_creates_only_the_new_rows(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    first = write_example(tenant.workdir / "export-2026-10.xlsx", example, example.rows[1:])
    load(tenant, resource, first, source="agency")
    # The next export holds every row again, a new one above the old ones, under a new name.
    second = write_example(tenant.workdir / "export-2026-11.xlsx", example, example.rows)

    summary = load(tenant, resource, second, source="agency")

    assert (summary.rows_sent, summary.rows_unchanged) == (1, len(example.rows) - 1)
    assert _count(tenant, example) == len(example.rows)
    assert _in_emissions(tenant.warehouse, resource) == len(example.rows)


@pytest.mark.parametrize("resource", NAMES)
def test_a_mirrored_corrected_file_deletes_exactly_the_rows_it_dropped(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    load(tenant, resource, path)
    before = _mapped(tenant.warehouse, resource)
    write_example(path, example, [row for i, row in enumerate(example.rows) if i != 1])

    summary = load(tenant, resource, path, mirror=True)

    assert (summary.rows_deleted, summary.rows_sent) == (1, 0)
    assert _count(tenant, example) == len(example.rows) - 1
    after = _mapped(tenant.warehouse, resource)
    assert len(before - after) == 1
    assert after < before
    assert _in_emissions(tenant.warehouse, resource) == len(example.rows) - 1


@pytest.mark.parametrize("resource", NAMES)
def test_an_emptied_optional_cell_is_cleared_in_the_service(tenant: Tenant, resource: str) -> None:
    example = EXAMPLES[resource]
    assert example.cleared is not None
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    load(tenant, resource, path)
    rows = [list(row) for row in example.rows]
    rows[example.cleared.row][example.header.index(example.cleared.header)] = None
    write_example(path, example, rows)

    # A row identified by its content is another record once a cell changes: the mirrored
    # file replaces the old one. A row with a key is updated, its field sent as null.
    summary = load(tenant, resource, path, mirror=True)

    assert summary.rejects.empty, summary.rejects.to_dict("records")
    assert _count(tenant, example) == len(rows)
    [held] = _records_of_row(tenant, resource, summary.run_id, example, example.cleared.row)
    expected = (None, "", []) if example.cleared.expected is None else (example.cleared.expected,)
    assert lookup(held, example.cleared.field) in expected, held


def _records_of_row(
    tenant: Tenant, resource: str, run_id: str, example: Example, row: int
) -> list[dict[str, Any]]:
    """The service's record of the ``row``-th example row, as it is now."""
    at = len(example.title_rows) + 2 + row  # the header, then the rows, 1-based
    mapped = tenant.warehouse.query(
        "SELECT m.remote_id, CAST(r.payload AS VARCHAR) AS payload FROM source_rows AS s "
        "JOIN remote_ids AS m USING (resource, source_key) "
        "JOIN remote_records AS r ON r.resource = m.resource AND r.remote_id = m.remote_id "
        "WHERE s.resource = ? AND s.run_id = ? AND s.source_row = ?",
        [resource, run_id, at],
    )
    with tenant.client() as client:
        return read_records(client, resource_spec(resource).readback, pd.DataFrame(mapped))


@pytest.mark.parametrize("resource", NAMES)
def test_a_crash_after_reconciling_then_a_rerun_leaves_one_record_per_row(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows[1:])
    load(tenant, resource, path)
    write_example(path, example, example.rows)
    second = Warehouse(tenant.workdir / "second-worker.duckdb")
    # The second warehouse adopts the rows the service holds, creates the new one and dies
    # as the service answers.
    _crash(tenant, resource, path, second)

    again = _into(tenant, second, resource, path)

    assert again.rejects.empty, again.rejects.to_dict("records")
    assert _count(tenant, example) == len(example.rows)
    assert len(_mapped(second, resource)) == len(example.rows)
    assert _in_emissions(second, resource) == len(example.rows)


@pytest.mark.parametrize("resource", NAMES)
def test_a_crash_while_mirroring_then_a_rerun_leaves_one_record_per_row(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    load(tenant, resource, path)
    write_example(path, example, [row for i, row in enumerate(example.rows) if i not in (1, 3)])
    _crash(tenant, resource, path, tenant.warehouse, "mirror")  # dies at its first delete

    again = load(tenant, resource, path)  # a plain load finishes the mirror's deletions

    assert again.rejects.empty, again.rejects.to_dict("records")
    assert _count(tenant, example) == len(example.rows) - 2
    assert len(_mapped(tenant.warehouse, resource)) == len(example.rows) - 2
    assert _in_emissions(tenant.warehouse, resource) == len(example.rows) - 2
