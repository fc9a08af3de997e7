"""Which files of an inbox have arrived, complete, since the last look: what the watcher of
arrivals sends one load for each (``emissions_etl_flows.arrivals``).

A look lists the inbox with each file's stamp (its size and modification: an object's ETag,
``inbox.inbox_entries``), never reading a file, so a look at an idle inbox costs one listing per
folder. The ledger the looks keep (``ArrivalLedger``: the stamps the last look saw and the stamps
a load was sent for) says what is new. A file is complete when its stamp did not change between
two looks: the last look and this one, or, for a file this look is the first to see, this look
and one taken ``SETTLE_SECONDS`` later; a file still being written (its size still changing)
waits for the next look. An object store lists an object once its upload is complete.

The ledger saves sending a file twice, but is not what makes a load happen once: a watcher that
stopped between sending and saving sends again, and the load's run key (its content,
``loading.run_keys``) makes that second load nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from emissions_etl.loading.inbox import InboxEntry

#: How long a file first seen must keep its stamp to count as complete: a copy that stalls
#: longer than this is caught by the next look, whose stamp differs.
SETTLE_SECONDS = 10.0


@dataclass(frozen=True)
class ArrivalLedger:
    """What the looks at one inbox know: each file by its location (``str(path)``)."""

    #: The stamp each file had at the last look.
    seen: Mapping[str, str] = field(default_factory=dict)
    #: The stamp each file had when its load was sent.
    sent: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Look:
    """What one look decided: the files to load, the files still being written, and the ledger
    to keep."""

    arrived: list[InboxEntry]
    unsettled: list[InboxEntry]
    ledger: ArrivalLedger


def look(
    ledger: ArrivalLedger,
    entries: list[InboxEntry],
    *,
    look_again: Callable[[], list[InboxEntry]],
) -> Look:
    """The files of ``entries`` (this look's listing) that arrived complete and were not sent
    with their stamp; ``look_again`` lists the inbox once more, after ``SETTLE_SECONDS``, only
    when a file is new since the last look."""
    new = [e for e in entries if ledger.sent.get(str(e.path)) != e.stamp]
    fresh = [e for e in new if ledger.seen.get(str(e.path)) != e.stamp]
    arrived = [e for e in new if ledger.seen.get(str(e.path)) == e.stamp]
    unsettled: list[InboxEntry] = []
    if fresh:
        entries = look_again()
        now = {str(e.path): e.stamp for e in entries}
        for entry in fresh:
            (arrived if now.get(str(entry.path)) == entry.stamp else unsettled).append(entry)
    return Look(arrived, unsettled, kept(ledger, entries, arrived))


def kept(ledger: ArrivalLedger, entries: list[InboxEntry], sent: list[InboxEntry]) -> ArrivalLedger:
    """The ledger after a look that listed ``entries`` and sent ``sent``: files gone from the
    inbox forgotten (one put back is new again)."""
    seen = {str(e.path): e.stamp for e in entries}
    loads = {path: stamp for path, stamp in ledger.sent.items() if path in seen}
    loads.update({str(e.path): e.stamp for e in sent})
    return ArrivalLedger(seen=seen, sent={p: s for p, s in loads.items() if p in seen})
