"""The nightly's word on late data, in real Prefect flow runs over the served sandbox: of the
twelve months to the run's day, what arrived, what is missing and what is overdue (the artifact
coverage), the tag overdue on a run that finds a gap past its due date, and a late file closing
it. The months are counted back from today: the month before last and the last one loaded, the
one between them sent late."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from emissions_etl.coverage.matrix import shift_month

from ..pipeline.tenancy import Tenant, tenant, write_wastes_xlsx
from .test_flows import artifacts_of, flow_env, flow_run_of, log_messages_of, run_flow

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]
__all__ = ["flow_env", "tenant"]

TODAY = dt.datetime.now(dt.UTC).date()
LAST, BETWEEN, BEFORE = (shift_month(TODAY, -n) for n in (1, 2, 3))


def wastes_of(month: dt.date) -> tuple[object, ...]:
    end = shift_month(month, 1) - dt.timedelta(days=1)
    return ("Madrid Warehouse", f"INV-{month:%Y%m}", str(month), str(end), 120.0, "kg",
            "20 01 01", "R3", "Recycling plant", f"MAD-{month:%Y-%m}")  # fmt: skip


def inbox_with(workdir: Path, name: str, months: list[dt.date]) -> Path:
    inbox = workdir / name
    (inbox / "wastes").mkdir(parents=True)
    write_wastes_xlsx(inbox / "wastes" / f"{name}.xlsx", [wastes_of(m) for m in months])
    return inbox


def test_a_nightly_that_finds_a_gap_overdue_is_tagged_and_says_what_arrived_and_is_late(
    flow_env: Tenant,
) -> None:
    from flows.nightly import nightly_load

    state = run_flow(nightly_load, str(inbox_with(flow_env.workdir, "first", [BEFORE, LAST])))

    assert state.is_completed(), (state.name, state.message)
    assert flow_run_of(state).tags == ["overdue"]
    markdown = str(artifacts_of(state)["coverage"].data)
    assert f"# Coverage: the twelve months to {LAST:%Y-%m}" in markdown
    assert "**2 period(s) arrived** with this run, **1 missing**, of which **1 overdue**" in (
        markdown
    )
    assert f"wastes Madrid Warehouse {BEFORE:%Y-%m}, wastes Madrid Warehouse {LAST:%Y-%m}" in (
        markdown
    )
    due = f"{LAST:%Y-%m}-10"
    assert f"| wastes | Madrid Warehouse | {BETWEEN:%Y-%m} | {due} | **overdue** | " in markdown
    assert any(m.startswith("coverage: 2 period(s) arrived, 1 missing (1 overdue)")
               for m in log_messages_of(state))  # fmt: skip


def test_a_late_file_closes_the_gap_and_the_next_nightly_is_not_overdue(
    flow_env: Tenant,
) -> None:
    from flows.nightly import nightly_load

    run_flow(nightly_load, str(inbox_with(flow_env.workdir, "first", [BEFORE, LAST])))
    late = run_flow(nightly_load, str(inbox_with(flow_env.workdir, "late", [BETWEEN])))

    assert late.is_completed(), (late.name, late.message)
    assert "overdue" not in flow_run_of(late).tags
    markdown = str(artifacts_of(late)["coverage"].data)
    assert "**1 period(s) arrived** with this run, **0 missing**, of which **0 overdue**" in (
        markdown
    )
    assert f"**Arrived:** wastes Madrid Warehouse {BETWEEN:%Y-%m}" in markdown


def test_the_expectations_the_worker_is_given_are_stored_and_read(
    flow_env: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.nightly import nightly_load

    expectations = flow_env.workdir / "expected.toml"
    expectations.write_text('[wastes.entities."Madrid Warehouse"]\nexpected = false\n')
    monkeypatch.setenv("EMISSIONS_EXPECTATIONS", str(expectations))

    state = run_flow(nightly_load, str(inbox_with(flow_env.workdir, "first", [BEFORE, LAST])))

    assert "overdue" not in flow_run_of(state).tags
    assert "**0 missing**" in str(artifacts_of(state)["coverage"].data)
    stored = flow_env.warehouse.query(
        "SELECT resource, entity, expected, source FROM coverage_expectations WHERE entity IS "
        "NOT NULL"
    )
    assert stored.values.tolist() == [["wastes", "Madrid Warehouse", False, str(expectations)]]
