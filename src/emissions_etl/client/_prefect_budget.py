"""PrefectTokenSource: one API key's limits shared by workers on several machines, through Prefect.

A machine's processes share a LocalTokenSource file; machines share nothing but the Prefect
server, whose global concurrency limits ``emissions-etl prefect-setup`` creates
(``_prefect_limits``): one per limit of the service, as large as that limit.

- A rate of R a second: a limit of R slots, leased ``occupy`` at a time. A lease is a pool of
  ``occupy`` tokens of this process's own, held as long as the process keeps using it: a token
  spent on a request comes back to the lease when the server window that counted the request
  has ended (the machine's pool settles it from the server's headers), so a held lease pays for
  ``occupy`` requests in every window without another Prefect call. A lease goes back to
  Prefect only once all its tokens are back: every lease that paid for a request of a window is
  therefore still held when that window ends, so all machines together never send more than R
  in one window (no 429, by construction). A lease goes back when this process has left it
  unused for ``IDLE_SECONDS``, and after ``TURN_SECONDS`` so that other machines get their
  turn, unless it is this process's last: spent first (the oldest lease is spent first in every
  window), so its last window is used whole. After a lease is granted or given back, this
  process asks for another only ``YIELD_SECONDS`` later, so a machine waiting for one gets it.
- A concurrency cap of N: a limit of N slots, one held by each request from before it is sent
  until its body is read. A slot a request gives back is kept a moment for this machine's next
  request (``LINGER_SECONDS``), so a busy machine does not ask Prefect twice a request; after
  about ``HOLD_SECONDS`` it goes back, and this process then waits ``YIELD_SECONDS`` before it
  asks again, so other machines get their turn.

Machines waiting for slots ask Prefect every tenth of a second (``PrefectSlots``), so a slot
given back is taken again within a fraction of a second. A worker that dies holding slots gets
them back when their Prefect lease lapses (a minute).
``name_of`` chooses other limit names than ``limit_name``'s (a prefix per API key when workers
use several keys).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ParamSpec
from uuid import UUID

from emissions_etl.client._prefect_limits import limit_name
from emissions_etl.client._prefect_slots import PrefectSlots
from emissions_etl.client._shared_budget import LocalTokenSource
from emissions_etl.client._token_source import POLL_SECONDS, Bucket, Lease, TokenSource

#: Rate tokens leased from Prefect at a time (a third of a 30/s window).
DEFAULT_OCCUPY = 10
#: A rate lease this process has taken no token from for this long goes back (once its tokens
#: are back).
IDLE_SECONDS = 1.0
#: A rate lease held this long is spent and given back, so other machines get their turn.
TURN_SECONDS = 2.0
#: How long a concurrency slot is kept for this machine's next request after its own ends.
LINGER_SECONDS = 0.25
#: How long a concurrency slot is kept, on average, from one request to the next before it goes
#: back (each slot somewhere between half and one and a half times this, so that slots taken
#: together do not all go back together).
HOLD_SECONDS = 10.0
#: After giving a lease or a slot back for another machine's turn, or being granted a rate lease,
#: this process waits this long before it asks for one again (a waiting machine asks every
#: 0.1-0.15 s, so it gets its turn).
YIELD_SECONDS = 0.2
#: How long a request waits for this process's ask of a concurrency slot before it looks again
#: (a slot another of its requests gives back wakes it at once).
ASK_WAIT_SECONDS = 0.02
#: The longest ``close`` waits for the windows of the last requests to end (they end within one).
CLOSE_WAIT_SECONDS = 2.0
#: How often held rate leases are checked for going back.
TICK_SECONDS = 0.02

#: What ``_after`` calls ``call`` with.
_P = ParamSpec("_P")


@dataclass(eq=False)
class _Slot:
    """One slot of a concurrency cap's Prefect limit, held by this process."""

    lease_id: UUID
    #: When it goes back for another machine's turn (after its request then in flight).
    turn_at: float
    #: Since when it is unused: the server has surely let go of its last request by then.
    idle_since: float | None = None


@dataclass(eq=False)
class _RateLease:
    """``occupy`` slots of a rate's Prefect limit: a pool of as many tokens for this process,
    each back when the server window of the request it paid for has ended."""

    lease_id: UUID
    granted_at: float
    outstanding: int = 0  # tokens taken whose request has not been settled yet
    returning: list[float] = field(default_factory=list)  # when settled tokens come back
    last_taken: float = 0.0
    turning: bool = False  # spent for its turn: given back once every token is back

    def in_use(self, now: float) -> int:
        self.returning = [at for at in self.returning if at > now]
        return self.outstanding + len(self.returning)

    def back_at(self) -> float:
        """When every settled token is back."""
        return max(self.returning, default=0.0)


class PrefectTokenSource:
    """Rate tokens and concurrency slots that are also Prefect's, spent through ``inner``
    (this machine's pools)."""

    def __init__(
        self,
        inner: TokenSource | None = None,
        *,
        occupy: int = DEFAULT_OCCUPY,
        name_of: Callable[[Bucket], str] = limit_name,
        timeout_seconds: float | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        if occupy < 1:
            raise ValueError("occupy must be at least 1")
        self._inner = inner or LocalTokenSource()
        self._occupy = occupy
        self._name_of = name_of
        self._timeout = timeout_seconds
        self._wall = wall_clock
        self._prefect = PrefectSlots()
        self._leases: dict[str, list[_RateLease]] = {}
        self._capacities: dict[str, int] = {}
        self._leasing: set[str] = set()
        self._yield_until: dict[str, float] = {}
        self._spent_from: dict[Lease, _RateLease] = {}
        self._slots: dict[Lease, _Slot] = {}
        self._idle_slots: dict[str, list[_Slot]] = {}
        self._failure: BaseException | None = None
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._keeper: threading.Thread | None = None

    def take(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        if bucket.kind == "slots":
            return self._take_slot(bucket, capacity, now, reclaim_delay)
        occupy = min(self._occupy, capacity)
        with self._lock:
            if self._failure is not None:
                raise self._failure
            self._capacities[bucket.name] = capacity
            wall = self._wall()
            leases = self._leases.setdefault(bucket.name, [])
            free = sum(occupy - lease.in_use(wall) for lease in leases if not lease.turning)
            # The next lease is asked for while half of one is left, in the background, so
            # requests do not stop for the Prefect round trip.
            ask = (
                free <= occupy // 2
                and len(leases) < capacity // occupy
                and bucket.name not in self._leasing
                and wall >= self._yield_until.get(bucket.name, 0.0)
            )
            if ask:
                self._leasing.add(bucket.name)
        if ask:
            self._ask(bucket, occupy)
        if free < 1:
            return POLL_SECONDS
        got = self._inner.take(bucket, capacity, now, reclaim_delay)
        if not isinstance(got, Lease):
            return got
        with self._lock:
            wall = self._wall()
            usable = [
                lease
                for lease in self._leases[bucket.name]
                if not lease.turning and lease.in_use(wall) < occupy
            ]
            # The oldest first: it is the next to turn, and turns with its last window spent.
            lease = min(usable, key=lambda held: held.granted_at, default=None)
            if lease is not None:
                lease.outstanding += 1
                lease.last_taken = wall
                self._spent_from[got] = lease
                # One lease turns at a time, so the others keep paying for requests meanwhile,
                # and never the last one: a machine's requests do not stop for another's turn.
                held = self._leases[bucket.name]
                lease.turning = (
                    wall - lease.granted_at >= TURN_SECONDS
                    and lease.in_use(wall) >= occupy
                    and len(held) > 1
                    and not any(other.turning for other in held)
                )
        if lease is None:  # another client sharing this source spent the last one meanwhile
            self._inner.give_back(got, now)
            return POLL_SECONDS
        return got

    def give_back(self, lease: Lease, returns_at: float) -> None:
        with self._lock:
            prefect_slot = self._slots.pop(lease, None)
            rate_lease = self._spent_from.pop(lease, None)
            if rate_lease is not None:
                rate_lease.outstanding -= 1
                rate_lease.returning.append(returns_at)
        try:
            if prefect_slot is not None:
                self._keep_or_release(lease.bucket, prefect_slot, returns_at)
        finally:
            self._inner.give_back(lease, returns_at)

    def match_server(
        self, bucket: Bucket, used: int, since: float, until: float, now: float
    ) -> None:
        """What other machines' leases allow them in a window is theirs, not another tool's:
        only usage beyond it holds this machine's tokens (a full window, or a 429, holds them
        all)."""
        with self._lock:
            capacity = self._capacities.get(bucket.name)
            leases = len(self._leases.get(bucket.name, []))
        if capacity is not None and used < capacity:
            used -= capacity - min(self._occupy, capacity) * leases
        if used > 0:
            self._inner.match_server(bucket, used, since, until, now)

    def close(self) -> None:
        """Give every slot back to Prefect: the rate leases once the windows of their last
        requests have ended (another machine could otherwise send in a window this one has
        used), so a close waits up to a second."""
        self._closed.set()
        if self._keeper is not None:
            self._keeper.join(timeout=5)
        with self._lock:
            leases = [lease for held in self._leases.values() for lease in held]
            slots = list(self._slots.values())
            slots += [slot for idle in self._idle_slots.values() for slot in idle]
            self._leases, self._slots, self._idle_slots, self._spent_from = {}, {}, {}, {}
        try:
            for slot in slots:
                self._prefect.give_back(slot.lease_id)
            if leases:
                last_back = max(lease.back_at() for lease in leases)
                time.sleep(min(CLOSE_WAIT_SECONDS, max(0.0, last_back - self._wall())))
            for lease in leases:
                self._prefect.give_back(lease.lease_id)
        finally:
            self._prefect.close()
            self._inner.close()

    # -- rates -----------------------------------------------------------------------------

    def _ask(self, bucket: Bucket, count: int) -> None:
        """Ask Prefect for ``count`` slots of the bucket's limit on a thread of its own, so the
        threads of this process keep using what it holds meanwhile (at most one ask per bucket
        at a time; ``_leasing`` is set by the caller)."""
        threading.Thread(
            target=self._wait_for_grant, args=(bucket, count), name="prefect-ask", daemon=True
        ).start()

    def _wait_for_grant(self, bucket: Bucket, count: int) -> None:
        """A missing limit, or a wait past ``timeout_seconds``, is raised by the next ``take``
        (not a silent run without the limit)."""
        try:
            lease_id = self._prefect.take(
                self._name_of(bucket),
                count,
                timeout=self._timeout,
                hold_off=lambda: self._yield_until.get(bucket.name, 0.0) - self._wall(),
            )
        except BaseException as exc:  # noqa: BLE001 - handed to the requesting threads
            with self._lock:
                self._failure = exc
                self._leasing.discard(bucket.name)
            return
        if self._closed.is_set():  # granted while this source closed: not kept by anyone
            self._prefect.give_back(lease_id)
            return
        wall = self._wall()
        with self._lock:
            self._leasing.discard(bucket.name)
            if bucket.kind == "rate":
                self._leases.setdefault(bucket.name, []).append(_RateLease(lease_id, wall))
                # Not every lease at once: a machine that asks meanwhile gets one too.
                self._yield_until[bucket.name] = wall + YIELD_SECONDS
                if self._keeper is None and not self._closed.is_set():
                    self._keeper = threading.Thread(
                        target=self._keep_leases, name="prefect-rate-leases", daemon=True
                    )
                    self._keeper.start()
                return
            turn_at = wall + HOLD_SECONDS * random.uniform(0.5, 1.5)
            slot = _Slot(lease_id, turn_at=turn_at, idle_since=wall)
            self._idle_slots.setdefault(bucket.name, []).append(slot)
        self._linger(bucket, slot, wall)

    def _keep_leases(self) -> None:
        """Give back the rate leases whose turn is over or that this process left idle, once
        every token of theirs is back."""
        while not self._closed.wait(TICK_SECONDS):
            going: list[_RateLease] = []
            with self._lock:
                wall = self._wall()
                for name, leases in self._leases.items():
                    for lease in list(leases):
                        idle = wall - max(lease.last_taken, lease.granted_at) >= IDLE_SECONDS
                        if (lease.turning or idle) and lease.in_use(wall) == 0:
                            leases.remove(lease)
                            going.append(lease)
                            self._yield_until[name] = wall + YIELD_SECONDS
            for lease in going:
                self._prefect.give_back(lease.lease_id)

    # -- concurrency caps ---------------------------------------------------------------------

    def _take_slot(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        """This machine's slot, then one of Prefect's that this process holds unused; if it
        holds none, one is asked for in the background and this thread waits its turn again
        (other threads of this process may meanwhile give one back)."""
        got = self._inner.take(bucket, capacity, now, reclaim_delay)
        if not isinstance(got, Lease):
            return got
        with self._lock:
            failure = self._failure
            wall = self._wall()
            idle = self._idle_slots.get(bucket.name, [])
            ready = [slot for slot in idle if (slot.idle_since or 0.0) <= wall]
            if ready and failure is None:
                slot = ready[0]
                idle.remove(slot)
                slot.idle_since = None
                self._slots[got] = slot
                return got
            yielding = self._yield_until.get(bucket.name, 0.0) - wall
            # A slot that is back in a moment (its request's grace) is waited for, not asked for.
            ready_in = min((slot.idle_since or 0.0) - wall for slot in idle) if idle else None
            ask = ready_in is None and yielding <= 0 and bucket.name not in self._leasing
            if ask and failure is None:
                self._leasing.add(bucket.name)
        self._inner.give_back(got, now)
        if failure is not None:
            raise failure
        if ask:
            self._ask(bucket, 1)
        if ready_in is not None:
            return max(ready_in, POLL_SECONDS / 5)
        return max(yielding, ASK_WAIT_SECONDS)

    def _keep_or_release(self, bucket: Bucket, slot: _Slot, returns_at: float) -> None:
        """Keep a slot whose request ended for the next one (``LINGER_SECONDS``), unless it has
        been held long enough (``HOLD_SECONDS``): then it goes back, and this process lets another
        machine's ask come first. Either way not before ``returns_at``: the server may count
        the request until a moment after its body was read."""
        if returns_at >= slot.turn_at:
            with self._lock:
                self._yield_until[bucket.name] = returns_at + YIELD_SECONDS
            _after(returns_at - self._wall(), self._prefect.give_back, slot.lease_id)
            return
        with self._lock:
            slot.idle_since = returns_at
            self._idle_slots.setdefault(bucket.name, []).append(slot)
        self._linger(bucket, slot, returns_at)

    def _linger(self, bucket: Bucket, slot: _Slot, idle_since: float) -> None:
        """Give the slot back unless a request of this process takes it within
        ``LINGER_SECONDS``."""
        _after(LINGER_SECONDS, self._release_if_idle, bucket, slot, idle_since)

    def _release_if_idle(self, bucket: Bucket, slot: _Slot, idle_since: float) -> None:
        with self._lock:
            idle = self._idle_slots.get(bucket.name, [])
            still_idle = slot.idle_since == idle_since and slot in idle
            if still_idle:
                idle.remove(slot)
        if still_idle:
            self._prefect.give_back(slot.lease_id)


def _after(seconds: float, call: Callable[_P, None], *args: _P.args, **kwargs: _P.kwargs) -> None:
    """``call(*args, **kwargs)`` now if ``seconds`` has passed, else that much later on a timer
    thread."""
    if seconds <= 0:
        call(*args, **kwargs)
        return
    timer = threading.Timer(seconds, call, args=args, kwargs=kwargs)
    timer.daemon = True
    timer.start()
