"""Runs that write one warehouse take turns: a global concurrency limit of one slot per
warehouse file, held by a flow run from before it plans its files until it has published.

Two nightly runs over two inboxes, or an ad-hoc ``load-wastes`` run during the nightly, share
the deployment's warehouse. A DuckDB file takes one writer at a time (``Warehouse``'s lock waits
for the other load, but only so long, and a run's report reads the file between its loads), so
the second run waits for its turn in Prefect instead, saying so once a minute, and then loads
everything. The limit is named after the warehouse's absolute path, so runs of other
warehouses never wait for each other; ``emissions-etl prefect-setup`` creates it for the
warehouse it configures, and a run creates the one it needs if it is missing. A warehouse that
takes several writers at once (``Warehouse.writers_take_turns`` False: a DuckLake whose catalog
is in PostgreSQL) has no such limit: runs of different organizations load it at once, and runs
of one organization take turns through a limit named after the organization (two of them
would both find a record missing in the service and both create it). A lake whose catalog is a
file takes turns by that file. To let runs overlap anyway, make the limit inactive in the UI
(Concurrency).

A run that dies holding its turn gives it back when its lease lapses (``LEASE_SECONDS``).
"""

from __future__ import annotations

import hashlib
import itertools
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from uuid import UUID

from emissions_etl.warehouse import Warehouse

PREFIX = "emissions-etl-warehouse-"
ORGANIZATION_PREFIX = "emissions-etl-organization-"
#: Seconds a run asks for its turn before it says it is waiting, then between two such lines.
FIRST_ASK_SECONDS = 5.0
ASK_SECONDS = 60.0
#: A turn held by a process that died comes back after this long (Prefect renews the lease of
#: a live holder in the background).
LEASE_SECONDS = 120.0

Say = Callable[[str], None]


def turn_limit_name(warehouse: Warehouse, base: Path | None = None) -> str | None:
    """``emissions-etl-warehouse-<file stem>-<8 hex of the absolute path>`` (the DuckDB file,
    or a lake's catalog file; a relative one taken from ``base``, default the working
    directory), or None when the warehouse takes several writers at once."""
    if not warehouse.writers_take_turns:
        return None
    path = absolute(warehouse.path, base)
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:8]
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "warehouse"
    return f"{PREFIX}{stem[:40]}-{digest}"


def organization_limit_name(organization_id: str) -> str:
    """``emissions-etl-organization-<organization id>``: the turn of the runs loading one
    organization into a warehouse that takes several writers at once."""
    slug = re.sub(r"[^a-z0-9-]+", "-", organization_id.lower()).strip("-")[:80]
    return f"{ORGANIZATION_PREFIX}{slug or 'default'}"


def absolute(path: Path, base: Path | None = None) -> Path:
    """``path`` as runs see it: a relative one is taken from ``base`` (the project folder, a
    run's working directory)."""
    path = path.expanduser()
    return (path if path.is_absolute() else (base or Path.cwd()) / path).resolve()


def ensure_turn_limit(name: str) -> bool:
    """Create the one-slot limit ``name`` if it does not exist (an existing one is left as
    it is: its owner may have made it inactive); True when the limit is active."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate
    from prefect.exceptions import ObjectAlreadyExists, ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            return bool(client.read_global_concurrency_limit_by_name(name).active)
        except ObjectNotFound:
            pass
        try:
            client.create_global_concurrency_limit(
                GlobalConcurrencyLimitCreate(name=name, limit=1, active=True)
            )
        except ObjectAlreadyExists:  # another run created it meanwhile
            return bool(client.read_global_concurrency_limit_by_name(name).active)
    return True


@contextmanager
def warehouse_turn(
    warehouse: Warehouse,
    *,
    say: Say,
    flow_run_id: UUID | None = None,
    organization_id: str | None = None,
) -> Iterator[None]:
    """Hold the warehouse's turn for the block (or, in a warehouse that takes several writers,
    the turn of ``organization_id``), waiting for it as long as another run holds it (a line to
    ``say`` when it starts waiting, then every ``ASK_SECONDS``)."""
    name = turn_limit_name(warehouse)
    if name is not None:
        what, doing = f"the warehouse {absolute(warehouse.path)}", "writing"
    elif organization_id:
        name = organization_limit_name(organization_id)
        what, doing = f"organization {organization_id} in the lake", "loading"
    else:
        yield
        return
    if not ensure_turn_limit(name):
        say(f"the concurrency limit {name} is inactive: this run does not wait for other runs "
            f"{doing} {what}")  # fmt: skip
        yield
        return
    from prefect.client.schemas.objects import ConcurrencyLeaseHolder
    from prefect.concurrency.sync import concurrency

    holder = ConcurrencyLeaseHolder(type="flow_run", id=flow_run_id) if flow_run_id else None
    started = time.monotonic()
    with ExitStack() as stack:
        for attempt in itertools.count():
            try:
                stack.enter_context(
                    concurrency(
                        name,
                        occupy=1,
                        timeout_seconds=FIRST_ASK_SECONDS if attempt == 0 else ASK_SECONDS,
                        lease_duration=LEASE_SECONDS,
                        strict=True,
                        holder=holder,
                    )
                )
                break
            except TimeoutError:
                say(
                    f"waiting for {what}: another run is {doing} it "
                    f"({_minutes(time.monotonic() - started)} so far; runs {doing} it take "
                    f"turns through the concurrency limit {name})"
                )
        if attempt:
            say(f"{what} is this run's after {_minutes(time.monotonic() - started)}")
        yield


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"
