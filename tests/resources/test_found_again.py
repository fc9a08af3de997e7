"""One rule finds a record again: reconciling (a row the warehouse has no mapping for, looked
for among the records the service holds) and recovering after a crash (a create marked pending
and never landed) pair a row with a record by the resource's declared identity, compared as the
service stores values (text trimmed, spaces joined, case-blind; numbers to 12 significant
digits). For every resource of the registry, over a served sandbox: a row that reconcile finds,
recovery finds, and the reverse, whether the rows are as sent, spaced otherwise, or hold a
number that differs in its 10th digit (another value to the service's 12 digits).

Reconcile does not look for the records of a resource the service upserts by its own key (the
logistics resources: a write finds them itself); their declared identity is applied here as
reconcile would apply it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.client import EmissionsClient
from emissions_etl.domain.references import fetch_references
from emissions_etl.loading.pipeline import LoadOptions, iter_validated
from emissions_etl.loading.ports import LoadWarehouse
from emissions_etl.loading.reconcile import Reconciler
from emissions_etl.loading.stages import StageClock
from emissions_etl.loading.writing import WriteContext, plan_changes
from emissions_etl.loading.writing.payloads import payload_json, to_payload
from emissions_etl.loading.writing.recovery import recover_by_listing
from emissions_etl.resources import RESOURCES, ResourceSpec, resource_spec
from emissions_etl.warehouse import Warehouse
from emissions_etl.webhooks.completion import PollingCompletion
from tests.pipeline.tenancy import Tenant
from tests.resources.conftest import load, load_parents, write_example
from tests.resources.examples import EXAMPLES

pytestmark = pytest.mark.slow  # benchmark-sized: left out of the fast run

NAMES = [name for name in RESOURCES if name in EXAMPLES and RESOURCES[name].finding]


@pytest.mark.parametrize("resource", NAMES)
def test_reconcile_and_recovery_find_the_same_rows_again(tenant: Tenant, resource: str) -> None:
    example = EXAMPLES[resource]
    spec = resource_spec(resource)
    load_parents(tenant, example)
    path = write_example(tenant.workdir / f"{resource}.xlsx", example, example.rows)
    assert load(tenant, resource, path).rows_loaded == len(example.rows)
    records = _records(tenant, spec, path)
    variants = {
        "as sent": records,
        "spaced otherwise": _respaced(records, spec),
        "a number off in its 10th digit": _nudged(records, spec),
    }

    found = {
        variant: (
            _found_by_reconcile(tenant, spec, rows, tenant.workdir / f"r{n}.duckdb"),
            _found_by_recovery(tenant, spec, rows, tenant.workdir / f"c{n}.duckdb"),
        )
        for n, (variant, rows) in enumerate(variants.items())
    }

    for variant, (reconciled, recovered) in found.items():
        assert reconciled == recovered, variant
    # Not found for want of looking: the rows as sent are all found. (Spaced otherwise, rows may
    # not even be listed: a list query filtering by a plate or a name compares it exactly.)
    every_row = set(records["source_key"])
    assert found["as sent"][0] == every_row
    assert found["a number off in its 10th digit"][0] == every_row - _nudged_rows(records, spec)


def _records(tenant: Tenant, spec: ResourceSpec, path: Path) -> pd.DataFrame:
    """The file's rows as the records the engine sends (resolved with the service's lists)."""
    with tenant.client() as client:
        references = fetch_references(client, spec.lookups)
    frames = [
        spec.to_records(valid, references)[0]
        for _read, valid, _rejects in iter_validated(path, spec, LoadOptions())
    ]
    return pd.concat(frames, ignore_index=True)


def _respaced(records: pd.DataFrame, spec: ResourceSpec) -> pd.DataFrame:
    """Every text the records send with its spaces doubled: the same values to the service."""
    respaced = records.copy()
    for name in spec.record_fields:
        if name in respaced.columns:
            respaced[name] = respaced[name].map(
                lambda value: value.replace(" ", "  ") if isinstance(value, str) else value
            )
    return respaced


def _numbers_compared(records: pd.DataFrame, spec: ResourceSpec) -> list[str]:
    """The numeric fields a record is found by (its declared match fields)."""
    assert spec.finding is not None
    return [
        name
        for name in spec.finding.match_fields
        if name in records.columns and pd.api.types.is_numeric_dtype(records[name])
    ]


def _nudged(records: pd.DataFrame, spec: ResourceSpec) -> pd.DataFrame:
    """The numbers rows are found by, larger by one part in 10^10: another value to 12
    significant digits, though within a tolerance of 1e-9."""
    nudged = records.copy()
    for name in _numbers_compared(records, spec):
        nudged[name] = nudged[name].astype("float64") * (1 + 1e-10)
    return nudged


def _nudged_rows(records: pd.DataFrame, spec: ResourceSpec) -> set[str]:
    """Rows that a nudge changes (a number other than 0 among what they are found by)."""
    numbers = _numbers_compared(records, spec)
    if not numbers:
        return set()
    changed = records[numbers].fillna(0).ne(0).any(axis=1)
    return set(records.loc[changed, "source_key"])


def _context(client: EmissionsClient, writer: LoadWarehouse, spec: ResourceSpec) -> WriteContext:
    run_id = writer.runs.start_run(spec.name, "found again", {})
    return WriteContext(
        api=client,
        writer=writer,
        spec=spec,
        run_id=run_id,
        clock=StageClock(),
        completion=PollingCompletion(client),
    )


def _found_by_reconcile(
    tenant: Tenant, spec: ResourceSpec, records: pd.DataFrame, warehouse: Path
) -> set[str]:
    """The rows whose record a load into an empty warehouse finds before writing (dry run)."""
    assert spec.finding is not None
    looked_for = replace(spec, finding=replace(spec.finding, upserted_by_service=False))
    with tenant.client() as client, Warehouse(warehouse).writer() as writer:
        context = _context(client, writer, looked_for)
        plan = plan_changes(records, writer.mappings.mapping(spec.name))
        left = Reconciler(context, dry_run=True).reconcile(plan).plan.new
    return set(records["source_key"]) - set(left["source_key"])


def _found_by_recovery(
    tenant: Tenant, spec: ResourceSpec, records: pd.DataFrame, warehouse: Path
) -> set[str]:
    """The rows whose record the next run adopts when a killed run marked them as creates
    (their payloads, as a writer marks them) and never landed what the service answered."""
    with tenant.client() as client, Warehouse(warehouse).writer() as writer:
        killed = writer.runs.start_run(spec.name, "killed", {})
        marks = records[["source_key", "source_hash"]].assign(
            payload=payload_json(to_payload(records, spec))
        )
        writer.marks.add_pending(spec.name, killed, f"{killed}:0", marks)
        writer.runs.finish_run(killed, outcome="interrupted", counts={})
        recover_by_listing(_context(client, writer, spec))
        return set(writer.mappings.mapping(spec.name)["source_key"])
