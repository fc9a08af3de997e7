"""Arrivals on a Prefect server: the watcher's look at an inbox sends one event per file that
arrived complete (``loading.arrivals`` decides which), and the deployment ``load-arrival``'s
trigger (``prefect.yaml``) starts one run per event, which loads that file.

The looks' ledger lives on the Prefect server, in a block of its own per inbox
(``emissions-inbox-arrivals``, ``emissions-inbox-arrivals-<organization>``), so that every worker
of a pool agrees on it and none needs a disk of its own; a Prefect variable holds at most 5,000
characters, a ledger one line per file of the inbox. What makes a load happen once is not the
ledger but the load's run key (``loading.run_keys``): an event sent twice loads once.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from prefect.blocks.core import Block
from prefect.events import emit_event
from pydantic import Field

from emissions_etl.loading.arrivals import SETTLE_SECONDS, ArrivalLedger, Look, look
from emissions_etl.loading.inbox import InboxEntry, inbox_entries, inbox_entry
from emissions_etl.storage import AnyPath, as_path, delete_received, receive_created

#: The event the watcher sends for each file that arrived, and the trigger of ``load-arrival``
#: expects (``prefect.yaml``).
ARRIVED = "emissions.inbox.file.arrived"
#: Each file's resource id in the events: this and its location.
FILE_RESOURCE = "emissions.inbox.file."
LEDGER_BLOCK = "emissions-inbox-arrivals"


class InboxArrivals(Block):
    """The watcher's ledger of one inbox: each file's stamp at the last look, and when its load
    was sent (``loading.arrivals.ArrivalLedger``)."""

    _block_type_name = "Emissions inbox arrivals"
    _description = "What the emissions-etl watcher of arrivals saw in an inbox (kept by it)."

    seen: dict[str, str] = Field(default_factory=dict)
    sent: dict[str, str] = Field(default_factory=dict)


def ledger_block_name(organization: str | None) -> str:
    """``emissions-inbox-arrivals``, ``emissions-inbox-arrivals-acme-es`` (a block's name takes
    lower-case letters, digits and dashes)."""
    if organization is None:
        return LEDGER_BLOCK
    return f"{LEDGER_BLOCK}-{re.sub(r'[^a-z0-9-]+', '-', organization.lower())}"


def read_ledger(organization: str | None) -> ArrivalLedger:
    """The inbox's ledger as the last look saved it; an empty one before the first look."""
    try:
        block = InboxArrivals.load(ledger_block_name(organization))
    except ValueError:  # no such block yet
        return ArrivalLedger()
    if not isinstance(block, InboxArrivals):
        raise TypeError(f"block {ledger_block_name(organization)} is no ledger of arrivals")
    return ArrivalLedger(seen=dict(block.seen), sent=dict(block.sent))


def save_ledger(organization: str | None, ledger: ArrivalLedger) -> None:
    block = InboxArrivals(seen=dict(ledger.seen), sent=dict(ledger.sent))
    block.save(ledger_block_name(organization), overwrite=True)


def look_at(
    inbox: AnyPath, organization: str | None, queue: str | None, *, say: Callable[[str], None]
) -> Look:
    """One look at ``inbox``: through ``queue``, the SQS queue its bucket notifies, when one is
    configured for the plain inbox (``Settings.inbox_queue``), else by listing it."""
    if queue and organization is None:
        return watch_queue(queue, inbox, say=say)
    return watch(inbox, organization, say=say)


def watch_queue(queue: str, inbox: AnyPath, *, say: Callable[[str], None]) -> Look:
    """One look through the bucket's notifications: an event for each object of the inbox they
    say was created (complete, as S3 says it only then), then their messages deleted; a look
    stopped before that sends them again at the next, whose loads find their content loaded."""
    received = receive_created(queue)
    arrived: dict[str, InboxEntry] = {}
    for created in received.objects:  # a notification delivered twice is one arrival
        entry = inbox_entry(inbox, as_path(created.url), created.stamp)
        if entry is not None and created.url not in arrived:
            arrived[created.url] = entry
    for entry in arrived.values():
        announce(entry, None)
        say(f"{entry.path}: arrived, its load sent")
    delete_received(queue, received.receipts)
    say(f"queue {queue}: {len(received.receipts)} message(s), {len(arrived)} arrived")
    return Look(list(arrived.values()), [], ArrivalLedger())


def watch(
    inbox: AnyPath,
    organization: str | None,
    *,
    say: Callable[[str], None],
    settle: float = SETTLE_SECONDS,
) -> Look:
    """One look at ``inbox``: an event for each file that arrived complete, the ledger saved
    when it changed, and one line said (two more per file sent or still being written)."""
    ledger = read_ledger(organization)
    entries = inbox_entries(inbox)

    def look_again() -> list[InboxEntry]:
        time.sleep(settle)
        return inbox_entries(inbox)

    seen = look(ledger, entries, look_again=look_again)
    for entry in seen.arrived:
        announce(entry, organization)
        say(f"{entry.path}: arrived, its load sent")
    for entry in seen.unsettled:
        say(f"{entry.path}: still being written, left for the next look")
    if seen.ledger != ledger:
        save_ledger(organization, seen.ledger)
    say(f"inbox {inbox}: {len(seen.ledger.seen)} file(s), {len(seen.arrived)} arrived")
    return seen


def announce(entry: InboxEntry, organization: str | None) -> None:
    """The event ``ARRIVED`` of ``entry``: what ``load-arrival``'s trigger makes its run's
    parameters of (the file, the resource its folder names, the organization)."""
    emit_event(
        ARRIVED,
        resource={
            "prefect.resource.id": f"{FILE_RESOURCE}{entry.path}",
            "prefect.resource.name": entry.path.name,
            "emissions.path": str(entry.path),
            "emissions.resource": entry.spec.name if entry.spec else "",
            "emissions.organization": organization or "",
            "emissions.stamp": entry.stamp,
        },
    )
