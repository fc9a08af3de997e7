"""The watcher's look on a Prefect server (the test harness's): its ledger kept in a block of
its own per inbox, an event per file that arrived with what the trigger makes the load's
parameters of, nothing sent again at the next look; the run's name; what prefect-setup deploys
without arrivals."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from emissions_etl.loading.arrivals import ArrivalLedger
from emissions_etl.orchestration.arrivals import (
    ARRIVED,
    FILE_RESOURCE,
    ledger_block_name,
    look_at,
    read_ledger,
    save_ledger,
    watch,
)
from emissions_etl.orchestration.setup import ARRIVAL_DEPLOYMENTS, deployments_chosen
from tests.s3_server import S3Server, s3_for_this_process

from ..pipeline.tenancy import waste_row, write_wastes_csv

pytestmark = pytest.mark.xdist_group("prefect-harness")  # one test server per worker

PROJECT = Path(__file__).resolve().parents[2]
EVENT_WAIT = 30.0


@pytest.fixture
def plain_settings(prefect_server: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """No EMISSIONS_* variable, and no organizations on the server: one inbox, the one given."""
    import os

    from prefect.variables import Variable

    from emissions_etl.orchestration.organizations import ORGANIZATIONS_VARIABLE

    for name in [n for n in os.environ if n.startswith("EMISSIONS_")]:
        monkeypatch.delenv(name)
    Variable.unset(ORGANIZATIONS_VARIABLE)


def _events_of(path: Path | str) -> list[Any]:
    """The events ARRIVED the server holds for the file ``path`` (they are written a moment
    after they are sent)."""
    from prefect.client.orchestration import get_client
    from prefect.events.filters import EventFilter, EventNameFilter, EventResourceFilter

    wanted = EventFilter(
        event=EventNameFilter(name=[ARRIVED]),
        resource=EventResourceFilter(id=[f"{FILE_RESOURCE}{path}"]),
    )
    with get_client(sync_client=True) as client:
        return list(client.read_events(wanted, limit=50).events)


def _wait_for_events(path: Path | str, count: int) -> list[Any]:
    deadline = time.monotonic() + EVENT_WAIT
    while time.monotonic() < deadline and len(found := _events_of(path)) < count:
        time.sleep(0.5)
    return found


def test_a_ledger_is_kept_in_a_block_of_its_inbox(prefect_server: None) -> None:
    ledger = ArrivalLedger(seen={"/in/a.csv": "3:1"}, sent={"/in/a.csv": "3:1"})

    save_ledger("Acme ES", ledger)

    assert read_ledger("Acme ES") == ledger
    assert read_ledger("another") == ArrivalLedger()
    assert ledger_block_name("Acme ES") == "emissions-inbox-arrivals-acme-es"


def test_a_look_sends_one_event_per_arrival_with_the_loads_parameters_then_none_again(
    prefect_server: None, tmp_path: Path
) -> None:
    inbox = tmp_path / "inbox"
    (inbox / "wastes").mkdir(parents=True)
    path = write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    said: list[str] = []

    first = watch(inbox, "look-test", say=said.append, settle=0.1)
    [event] = _wait_for_events(path, 1)
    again = watch(inbox, "look-test", say=said.append, settle=0.1)

    assert [entry.path for entry in first.arrived] == [path]
    resource = event.resource
    assert (resource["emissions.path"], resource["emissions.resource"]) == (str(path), "wastes")
    assert resource["emissions.organization"] == "look-test"
    assert again.arrived == []
    assert read_ledger("look-test") == again.ledger
    assert f"{path}: arrived, its load sent" in said
    assert len(_events_of(path)) == 1


def test_setup_without_arrivals_deploys_every_deployment_but_theirs() -> None:
    declared = PROJECT / "flows" / "prefect.yaml"

    chosen = deployments_chosen(declared, ARRIVAL_DEPLOYMENTS)

    assert deployments_chosen(declared, ()) == ["--all"]
    assert "--name=nightly" in chosen
    assert not [name for name in chosen if name.removeprefix("--name=") in ARRIVAL_DEPLOYMENTS]


@pytest.mark.parametrize(
    ("parameters", "name"),
    [
        ({"path": "/srv/inbox/wastes/residuos_enero.csv"}, "arrival wastes/residuos_enero.csv"),
        ({"path": "s3://b/inbox/acme/wastes/a.csv", "organization": "acme"},
         "arrival acme wastes/a.csv"),
    ],  # fmt: skip
)
def test_a_load_of_an_arrival_is_named_after_its_file(
    prefect_server: None, parameters: dict[str, str], name: str
) -> None:
    from prefect import flow
    from prefect.runtime import flow_run

    from emissions_etl.orchestration.run_names import arrival_run_name

    @flow(flow_run_name=arrival_run_name)
    def named(path: str, organization: str = "") -> str:
        return str(flow_run.name)

    assert named(**parameters) == name


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with s3_for_this_process() as server:
        yield server


def test_a_look_through_the_buckets_queue_sends_each_inbox_object_it_names_once(
    prefect_server: None, s3: S3Server
) -> None:
    from emissions_etl.storage import as_path, receive_created

    s3.create_bucket("queued")
    queue = s3.notified_queue("queued", "queued-inbox")
    for key in ("inbox/wastes/a.csv", "inbox/wastes/a.csv", "elsewhere/b.csv"):
        s3.client().put_object(Bucket="queued", Key=key, Body=b"x")  # a.csv notified twice
    said: list[str] = []

    looked = look_at(as_path("s3://queued/inbox"), None, queue, say=said.append)

    [event] = _wait_for_events("s3://queued/inbox/wastes/a.csv", 1)
    assert [str(entry.path) for entry in looked.arrived] == ["s3://queued/inbox/wastes/a.csv"]
    assert event.resource["emissions.resource"] == "wastes"
    assert said[-1].startswith(f"queue {queue}: ")
    assert said[-1].endswith(" 1 arrived")  # the bucket's test event and a.csv twice: one
    assert receive_created(queue).receipts == []  # the messages are deleted once sent on


def test_the_watcher_flow_says_how_many_files_arrived(
    plain_settings: None, tmp_path: Path
) -> None:
    from emissions_etl_flows.arrivals import watch_inbox

    write_wastes_csv(tmp_path / "enero.csv", [waste_row(1)])

    state = watch_inbox(str(tmp_path), return_state=True)

    assert state.is_completed()
    assert state.message == "1 file(s) arrived"


def test_an_inbox_the_watcher_cannot_read_fails_its_run_in_one_line(
    plain_settings: None, tmp_path: Path
) -> None:
    from emissions_etl_flows.arrivals import watch_inbox

    state = watch_inbox(str(tmp_path / "missing"), return_state=True)

    assert state.is_failed()
    assert state.message is not None
    assert state.message.startswith("1 inbox(es) not looked at: ")
    assert "\n" not in state.message
