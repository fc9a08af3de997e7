"""Turns on a lake, through the session's Prefect server: runs of one organization take turns
(two at once would both find a record missing in the service and both create it); runs of
different organizations load at once."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import pytest

from emissions_etl.orchestration.warehouse_turns import (
    FIRST_ASK_SECONDS,
    organization_limit_name,
    warehouse_turn,
)
from emissions_etl.warehouse import Warehouse

pytestmark = [pytest.mark.flow, pytest.mark.xdist_group("prefect-harness")]

HOLD_SECONDS = FIRST_ASK_SECONDS + 2.0  # the second run of the organization says it waits


def lake(tmp_path: Path) -> Warehouse:
    """A lake whose catalog is in PostgreSQL (never opened here: a turn is taken before)."""
    return Warehouse("ducklake:postgres:dbname=lake host=127.0.0.1", data_path=tmp_path)


def test_runs_of_one_organization_take_turns_on_a_lake_and_others_do_not_wait(
    prefect_server: None, tmp_path: Path
) -> None:
    warehouse = lake(tmp_path)
    assert not warehouse.writers_take_turns
    first_org, other_org = f"org-{uuid.uuid4()}", f"org-{uuid.uuid4()}"
    said: list[str] = []
    entered: dict[str, float] = {}
    left: dict[str, float] = {}
    holding = threading.Event()

    def run(label: str, organization_id: str, hold: float) -> None:
        with warehouse_turn(warehouse, say=said.append, organization_id=organization_id):
            entered[label] = time.monotonic()
            holding.set()
            time.sleep(hold)
        left[label] = time.monotonic()

    first = threading.Thread(target=run, args=("first", first_org, HOLD_SECONDS))
    first.start()
    assert holding.wait(60)
    others = [
        threading.Thread(target=run, args=("same organization", first_org, 0.0)),
        threading.Thread(target=run, args=("other organization", other_org, 0.0)),
    ]
    for thread in others:
        thread.start()
    for thread in [first, *others]:
        thread.join(120)

    assert entered["same organization"] >= left["first"] - 0.05, said
    assert entered["other organization"] < left["first"], said
    assert said[0] == (
        f"waiting for organization {first_org} in the lake: another run is loading it (5 s so "
        f"far; runs loading it take turns through the concurrency limit "
        f"{organization_limit_name(first_org)})"
    )
    assert said[1].startswith(f"organization {first_org} in the lake is this run's after ")


def test_a_run_without_an_organization_takes_no_turn_on_a_lake(
    prefect_server: None, tmp_path: Path
) -> None:
    said: list[str] = []
    started = time.monotonic()
    with (
        warehouse_turn(lake(tmp_path), say=said.append),
        warehouse_turn(lake(tmp_path), say=said.append),  # a one-slot turn would wait for ever
    ):
        pass
    assert said == []
    assert time.monotonic() - started < FIRST_ASK_SECONDS
