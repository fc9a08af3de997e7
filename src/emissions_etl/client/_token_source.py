"""TokenSource: where the limiter takes the tokens of one (API key, endpoint) budget from.

A budget is a pool of ``capacity`` tokens. A request takes one before it is sent and gives it
back at a time the limiter computes (for a rate, when the server's window that counted it has
surely ended; for a concurrency slot, when its body is read). Every process that takes from the
same source shares the same pool, so a source is the unit of sharing:

- ``LocalTokenSource()``: one process (in memory);
- ``LocalTokenSource(path)``: every process on one machine (a SQLite file);
- ``PrefectTokenSource``: workers on several machines, through the Prefect server's global
  concurrency limits, in front of a local source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

#: How long a waiter sleeps when every token is held by a request still in flight.
POLL_SECONDS = 0.005


@dataclass(frozen=True)
class Bucket:
    """One budget: a rate or a concurrency cap, per API key (as a hash) and endpoint."""

    kind: Literal["rate", "slots"]
    caller: str  # a hash of the credential: the raw key is never kept
    method: str
    route: str  # the path template, e.g. /v1/logistics/requests

    @property
    def name(self) -> str:
        return f"{self.kind}|{self.caller}|{self.method} {self.route}"


@dataclass(frozen=True)
class Lease:
    """One token taken from a bucket; give it back exactly once."""

    bucket: Bucket
    token_id: int


class TokenSource(Protocol):
    """A pool of tokens per bucket, possibly shared with other processes."""

    def take(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        """A lease when fewer than ``capacity`` tokens are held, else the seconds to wait.

        ``reclaim_delay``: if the taker dies with the request in flight, its token returns this
        long after the death is noticed (the request may just have been counted).
        """
        ...

    def give_back(self, lease: Lease, returns_at: float) -> None:
        """The token is back in the pool at ``returns_at`` (wall seconds, possibly future)."""
        ...

    def match_server(
        self, bucket: Bucket, used: int, since: float, until: float, now: float
    ) -> None:
        """The server counts ``used`` requests in a window ending between ``since`` and
        ``until``: keep as many tokens taken until ``until``.

        Tokens held at least until ``since`` count (the requests of every process sharing this
        source, settled to that window's end), so only usage the source never saw (another
        machine, another tool) adds tokens held until ``until``.
        """
        ...

    def close(self) -> None: ...
