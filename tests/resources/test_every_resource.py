"""Every resource of the registry, the same way, over a served sandbox: a filled-in file loads,
a re-run writes nothing, a changed row updates its record, a killed load re-run leaves one
record per row, and a row the service refuses is a reject at its row and column."""

from __future__ import annotations

import os

import openpyxl
import pytest

from emissions_etl.loading.figures import sent_explained
from emissions_etl.loading.readback import read_records, remote_frame
from emissions_etl.resources import RESOURCES, ResourceSpec, resource_spec
from emissions_etl.sources.headers import ColumnNamer
from emissions_etl.templates import write_template
from tests.cli_process import run_module
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, load_parents, write_example
from tests.resources.crash_driver import KILLED
from tests.resources.examples import EXAMPLES

pytestmark = pytest.mark.slow  # benchmark-sized: left out of the fast run

NAMES = [name for name in RESOURCES if name in EXAMPLES]


def test_every_resource_has_an_example() -> None:
    assert sorted(EXAMPLES) == sorted(RESOURCES)


@pytest.mark.parametrize("resource", NAMES)
def test_a_filled_in_file_loads_and_a_rerun_writes_nothing(tenant: Tenant, resource: str) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)

    first = load(tenant, resource, path)
    again = load(tenant, resource, path)

    assert first.rejects.empty, first.rejects.to_dict("records")
    assert (first.outcome, first.rows_loaded) == ("succeeded", len(example.rows))
    assert (again.rows_sent, again.rows_unchanged) == (0, len(example.rows))
    with tenant.client() as client:
        assert example.count(client) == len(example.rows)
    landed = tenant.warehouse.query(
        "SELECT count(*) AS n, count(co2e_kg) AS with_co2e FROM emissions WHERE resource = ?",
        [resource],
    )
    assert landed["n"][0] == len(example.rows)
    # An aggregate's co2e sums other resources' records (a facility's wastes): with none loaded
    # the service may say null.
    if not RESOURCES[resource].readback.is_aggregate:
        assert landed["with_co2e"][0] == len(example.rows)
    assert _listed_in_own_view(tenant, resource) == len(example.rows)


@pytest.mark.parametrize("resource", NAMES)
def test_a_changed_row_updates_its_record(tenant: Tenant, resource: str) -> None:
    """A row with a key updates its record; a row identified by its content is another
    activity once changed, so the mirrored file replaces the old record with the new."""
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    load(tenant, resource, path)
    rows = [list(row) for row in example.rows]
    rows[example.change.row][example.header.index(example.change.header)] = example.change.value
    write_example(path, example, rows)

    summary = load(tenant, resource, path, mirror=True)

    assert (summary.rows_sent, summary.rows_unchanged) == (1, len(rows) - 1)
    assert summary.rows_loaded == 1
    with tenant.client() as client:
        assert example.count(client) == len(rows)
    assert tenant.warehouse.query(
        "SELECT count(*) AS n FROM emissions WHERE resource = ?", [resource]
    )["n"][0] == len(rows)


@pytest.mark.parametrize("resource", NAMES)
def test_a_killed_load_rerun_leaves_one_record_per_row(tenant: Tenant, resource: str) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    env = {
        **os.environ,
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
    }
    warehouse = str(tenant.warehouse.path)
    killed = run_module(
        "tests.resources.crash_driver", [resource, str(path), warehouse, "1"], env=env, timeout=120
    )
    assert killed.returncode == KILLED, killed.stderr[-2000:]

    summary = load(tenant, resource, path)

    assert summary.rejects.empty, summary.rejects.to_dict("records")
    with tenant.client() as client:
        assert example.count(client) == len(example.rows)
    mapped = tenant.warehouse.query(
        "SELECT count(*) AS n, count(DISTINCT remote_id) AS ids FROM remote_ids WHERE resource = ?",
        [resource],
    )
    assert (mapped["n"][0], mapped["ids"][0]) == (len(example.rows), len(example.rows))
    runs = tenant.warehouse.query(
        "SELECT outcome FROM load_runs WHERE resource = ? ORDER BY started_at", [resource]
    )
    assert list(runs["outcome"]) == ["interrupted", "succeeded"]
    _assert_warehouse_holds_the_services_co2e(tenant, resource)


def _listed_in_own_view(tenant: Tenant, resource: str) -> int:
    """Records of ``resource`` in the view named after it; a resource named like a warehouse
    table (``facilities``: every facility of the organization) has that table instead."""
    kind = tenant.warehouse.query(
        "SELECT table_type FROM information_schema.tables WHERE table_name = ?", [resource]
    )["table_type"][0]
    if kind == "VIEW":
        return int(tenant.warehouse.query(f'SELECT count(*) AS n FROM "{resource}"')["n"][0])
    listed = tenant.warehouse.query(
        f'SELECT count(*) AS n FROM "{resource}" WHERE facility_id IN '
        "(SELECT remote_id FROM remote_records WHERE resource = ?)",
        [resource],
    )
    return int(listed["n"][0])


def _assert_warehouse_holds_the_services_co2e(tenant: Tenant, resource: str) -> None:
    """Every landed record has the status and co2e the service holds now (nothing stale)."""
    spec = resource_spec(resource)
    landed = tenant.warehouse.query(
        "SELECT remote_id, CAST(payload AS VARCHAR) AS payload, co2e_kg, status "
        "FROM remote_records WHERE resource = ?",
        [resource],
    )
    with tenant.client() as client:
        now = remote_frame(read_records(client, spec.readback, landed), spec)
    merged = landed.merge(now, on="remote_id", suffixes=("", "_now"))
    assert len(merged) == len(landed)
    assert (merged["status"] == merged["status_now"]).all(), merged[["status", "status_now"]]
    assert (
        merged["co2e_kg"].fillna(-1).round(6).tolist()
        == merged["co2e_kg_now"].fillna(-1).round(6).tolist()
    )
    assert not merged["status"].isin(spec.readback.unsettled).any()


@pytest.mark.parametrize("resource", NAMES)
def test_a_row_the_service_refuses_is_a_reject_at_its_row_and_column(
    tenant: Tenant, resource: str
) -> None:
    example = EXAMPLES[resource]
    load_parents(tenant, example)
    rows = [example.rows[0], example.refusal.row, example.rows[1]]
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, rows)

    summary = load(tenant, resource, path)

    assert (summary.outcome, summary.rows_loaded, summary.rows_rejected) == ("partial", 2, 1)
    # Every row sent is accounted for: loaded, or refused (and rejected).
    assert (summary.rows_sent, summary.rows_refused, summary.rows_not_landed) == (3, 1, 0)
    assert sent_explained(summary).startswith("sent 3: 2 loaded")
    assert "1 refused by the service (among the rejected)" in sent_explained(summary)
    [reject] = summary.rejects.to_dict("records")
    assert (reject["row"], reject["column"]) == (
        len(example.title_rows) + 3,
        example.refusal.header,
    )
    assert example.refusal.code in reject["message"], reject


@pytest.mark.parametrize("resource", NAMES)
def test_a_filled_in_template_loads(tenant: Tenant, resource: str) -> None:
    example = EXAMPLES[resource]
    spec = resource_spec(resource)
    load_parents(tenant, example)
    template = write_template(spec, tenant.workdir / f"{resource}-template.xlsx")
    workbook = openpyxl.load_workbook(template)
    sheet = workbook.worksheets[0]
    columns = [cell.value for cell in sheet[1]]
    canonical = _canonical_names(spec, example.header)
    for row in example.rows:
        given = dict(zip(canonical, row, strict=True))
        sheet.append([given.get(column) for column in columns])
    workbook.save(template)

    summary = load(tenant, resource, template)

    assert summary.rejects.empty, summary.rejects.to_dict("records")
    assert summary.rows_loaded == len(example.rows)


def _canonical_names(spec: ResourceSpec, header: list[str]) -> list[str | None]:
    """The template column each example header stands for (as the readers match them)."""
    namer = ColumnNamer(spec.columns, spec.aliases)
    return [namer.canonical(text) for text in header]
