"""PrefectTokenSource: one API key's limits shared by workers on several machines, through Prefect.

A machine's processes share a LocalTokenSource file; machines share nothing but the Prefect
server, whose global concurrency limits ``emissions-etl prefect-setup`` creates
(``_prefect_limits``): one per limit of the service, as large as that limit.

- A rate of R a second: a limit of R slots. A process leases ``occupy`` slots at a time and
  spends them as tokens through its machine's pool, which still settles each token from the
  server's headers. A lease goes back to Prefect only once every token in it has been spent and
  the server window that counted its request has ended. Every lease that paid for a request of
  a window is therefore still held when that window ends, so all machines together never send
  more than R in one window: no 429, by construction. Prefect's leases are the cost: a call to
  take one and one to give it back per ``occupy`` requests, and a lease Prefect cannot grant at
  once is asked again after the Retry-After it answers, so the machines together reach less
  than R (bench_limiter ``rate-prefect``).
- A concurrency cap of N: a limit of N slots, one held by each request from before it is sent
  until its body is read. A slot a request gives back is kept a moment for this machine's next
  request (``LINGER_SECONDS``), so a busy machine does not ask Prefect twice a request (each
  ask it loses waits out Prefect's Retry-After); none is kept longer than ``HOLD_SECONDS``,
  so other machines get their turn.

A worker that dies holding slots gets them back when their lease ends (``LEASE_SECONDS``).
``name_of`` chooses other limit names than ``limit_name``'s (a prefix per API key when workers
use several keys).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass

from emissions_etl.client._prefect_limits import limit_name
from emissions_etl.client._shared_budget import LocalTokenSource
from emissions_etl.client._token_source import POLL_SECONDS, Bucket, Lease, TokenSource

logger = logging.getLogger("emissions_etl.client")

#: Rate tokens leased from Prefect at a time (a third of a 30/s window).
DEFAULT_OCCUPY = 10
#: A Prefect lease's duration (Prefect's shortest): renewed while it is held, and back in the pool
#: this long after a worker died holding it.
LEASE_SECONDS = 60.0
#: How long a concurrency slot is kept for this machine's next request after its own ends.
LINGER_SECONDS = 0.25
#: The longest a concurrency slot is kept from one request to the next before it goes back.
HOLD_SECONDS = 5.0
#: The longest ``close`` waits for the windows of the last requests to end (they end within one).
CLOSE_WAIT_SECONDS = 2.0


@dataclass(eq=False)
class _Slot:
    """One slot of a concurrency cap's Prefect limit, held by this process."""

    held: ExitStack
    taken_at: float
    idle_since: float | None = None


@dataclass(eq=False)
class _RateLease:
    """``occupy`` slots of a rate's Prefect limit, held until their requests' windows end."""

    slots: ExitStack
    unused: int
    outstanding: int = 0  # tokens taken whose request has not been settled yet
    windows_end: float = 0.0  # when the last settled token's server window ends


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
        self._leases: dict[str, list[_RateLease]] = {}
        self._ending: list[_RateLease] = []  # spent, given back once their windows end
        self._leasing: set[str] = set()
        self._spent_from: dict[Lease, _RateLease] = {}
        self._slots: dict[Lease, _Slot] = {}
        self._idle_slots: dict[str, list[_Slot]] = {}
        self._failure: BaseException | None = None
        self._lock = threading.Lock()

    def take(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        if bucket.kind == "slots":
            return self._take_slot(bucket, capacity, now, reclaim_delay)
        with self._lock:
            if self._failure is not None:
                raise self._failure
            unused = sum(lease.unused for lease in self._leases.setdefault(bucket.name, []))
            # The next lease is asked for while half of this one is left, in the background,
            # so requests do not stop for the Prefect round trip.
            ask = unused <= self._occupy // 2 and bucket.name not in self._leasing
            if ask:
                self._leasing.add(bucket.name)
        if ask:
            threading.Thread(
                target=self._lease, args=(bucket,), name="prefect-lease", daemon=True
            ).start()
        if unused < 1:
            return POLL_SECONDS
        got = self._inner.take(bucket, capacity, now, reclaim_delay)
        if not isinstance(got, Lease):
            return got
        with self._lock:
            lease = next((held for held in self._leases[bucket.name] if held.unused), None)
            if lease is not None:
                lease.unused -= 1
                lease.outstanding += 1
                self._spent_from[got] = lease
        if lease is None:  # another client sharing this source spent the last one meanwhile
            self._inner.give_back(got, now)
            return POLL_SECONDS
        return got

    def give_back(self, lease: Lease, returns_at: float) -> None:
        with self._lock:
            prefect_slot = self._slots.pop(lease, None)
            rate_lease = self._spent_from.pop(lease, None)
        try:
            if prefect_slot is not None:
                self._keep_or_release(lease.bucket, prefect_slot)
            if rate_lease is not None:
                self._settle(lease.bucket, rate_lease, returns_at)
        finally:
            self._inner.give_back(lease, returns_at)

    def match_server(
        self, bucket: Bucket, used: int, since: float, until: float, now: float
    ) -> None:
        self._inner.match_server(bucket, used, since, until, now)

    def close(self) -> None:
        """Give every slot back to Prefect: the rate leases once the windows of their last
        requests have ended (another machine could otherwise send in a window this one has
        used), so a close waits up to a second."""
        with self._lock:
            leases = [lease for held in self._leases.values() for lease in held] + self._ending
            slots = [slot.held for slot in self._slots.values()]
            slots += [slot.held for idle in self._idle_slots.values() for slot in idle]
            self._leases, self._ending, self._slots, self._idle_slots = {}, [], {}, {}
            self._spent_from = {}
        try:
            for held in slots:
                _give_to_prefect(held)
            if leases:
                last_window_end = max(lease.windows_end for lease in leases)
                time.sleep(min(CLOSE_WAIT_SECONDS, max(0.0, last_window_end - self._wall())))
            for lease in leases:
                _give_to_prefect(lease.slots)
        finally:
            self._inner.close()

    # -- rates -----------------------------------------------------------------------------

    def _lease(self, bucket: Bucket) -> None:
        """Wait until Prefect grants ``occupy`` slots (strict: a missing limit is an error, not
        a silent run without one; it is raised by the next ``take``)."""
        try:
            slots = self._prefect_slots(bucket, self._occupy)
        except BaseException as exc:
            with self._lock:
                self._failure = exc
                self._leasing.discard(bucket.name)
            raise
        with self._lock:
            self._leases.setdefault(bucket.name, []).append(_RateLease(slots, self._occupy))
            self._leasing.discard(bucket.name)

    def _settle(self, bucket: Bucket, lease: _RateLease, returns_at: float) -> None:
        """A token of ``lease`` is settled: once all are, the lease goes back to Prefect when the
        last of their server windows has ended."""
        with self._lock:
            lease.outstanding -= 1
            lease.windows_end = max(lease.windows_end, returns_at)
            spent = lease.unused == 0 and lease.outstanding == 0
            held = self._leases.get(bucket.name, [])
            if spent and lease in held:
                held.remove(lease)
                self._ending.append(lease)
            else:
                spent = False
        if spent:
            wait = max(0.0, lease.windows_end - self._wall())
            timer = threading.Timer(wait, self._end, args=(lease,))
            timer.daemon = True
            timer.start()

    def _end(self, lease: _RateLease) -> None:
        with self._lock:
            ending = lease in self._ending
            if ending:
                self._ending.remove(lease)
        if ending:  # not given back by ``close`` meanwhile
            _give_to_prefect(lease.slots)

    # -- concurrency caps ---------------------------------------------------------------------

    def _take_slot(
        self, bucket: Bucket, capacity: int, now: float, reclaim_delay: float
    ) -> Lease | float:
        """This machine's slot, then one of Prefect's: one this process still keeps, else a new
        one, waiting for it (the limiter lets one thread per bucket ask at a time, so the
        others queue behind it)."""
        got = self._inner.take(bucket, capacity, now, reclaim_delay)
        if not isinstance(got, Lease):
            return got
        with self._lock:
            idle = self._idle_slots.get(bucket.name)
            slot = idle.pop() if idle else None
            if slot is not None:
                slot.idle_since = None
                self._slots[got] = slot
        if slot is not None:
            return got
        try:
            slot = _Slot(self._prefect_slots(bucket, 1), taken_at=self._wall())
        except BaseException:
            self._inner.give_back(got, now)
            raise
        with self._lock:
            self._slots[got] = slot
        return got

    def _keep_or_release(self, bucket: Bucket, slot: _Slot) -> None:
        """Keep a slot whose request ended for the next one (``LINGER_SECONDS``), unless it has
        been held ``HOLD_SECONDS`` already."""
        now = self._wall()
        if now - slot.taken_at >= HOLD_SECONDS:
            _give_to_prefect(slot.held)
            return
        with self._lock:
            slot.idle_since = now
            self._idle_slots.setdefault(bucket.name, []).append(slot)
        timer = threading.Timer(LINGER_SECONDS, self._release_if_idle, args=(bucket, slot, now))
        timer.daemon = True
        timer.start()

    def _release_if_idle(self, bucket: Bucket, slot: _Slot, idle_since: float) -> None:
        with self._lock:
            idle = self._idle_slots.get(bucket.name, [])
            still_idle = slot.idle_since == idle_since and slot in idle
            if still_idle:
                idle.remove(slot)
        if still_idle:
            _give_to_prefect(slot.held)

    def _prefect_slots(self, bucket: Bucket, count: int) -> ExitStack:
        """``count`` slots of the bucket's Prefect limit, held until the stack is closed."""
        from prefect.concurrency.sync import concurrency  # Prefect only where it is used

        held = ExitStack()
        held.enter_context(
            concurrency(
                self._name_of(bucket),
                occupy=count,
                timeout_seconds=self._timeout,
                lease_duration=LEASE_SECONDS,
                strict=True,
            )
        )
        return held


def _give_to_prefect(held: ExitStack) -> None:
    """Give slots back to Prefect; if it cannot be reached they return when their lease ends,
    which is no reason to stop a load."""
    try:
        held.close()
    except Exception as error:  # Prefect's client errors have no common base
        logger.warning(
            "could not give slots back to Prefect (%s); they return when their lease ends",
            error,
        )
