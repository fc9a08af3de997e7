"""PrefectSlots: slots of Prefect global concurrency limits, taken and given back by lease.

Prefect's own ``concurrency()`` waits out the ``Retry-After`` of each denied ask, and Prefect
makes that wait longer with every denial (its average slot occupancy times the slots denied so
far, up to 30 s). A machine waiting for slots that another is about to give back would then
ask again only seconds after they were free, and the key's allowance would go unused
meanwhile. This asks every ``poll_seconds`` instead, which is what lets machines hand slots
over within a fraction of a second (``PrefectTokenSource``).

A lease is renewed while it is held and lapses ``LEASE_SECONDS`` after its holder died.
"""

from __future__ import annotations

import contextvars
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from uuid import UUID

import httpx

from emissions_etl.errors import ConfigurationError

if TYPE_CHECKING:
    from prefect.client.orchestration import SyncPrefectClient

logger = logging.getLogger("emissions_etl.client")

#: A Prefect lease's duration (its shortest): renewed at half of it while held, and back in the
#: pool this long after a worker died holding it.
LEASE_SECONDS = 60.0
#: How often a denied ask is asked again (with up to half of it added at random, so machines
#: do not ask in step).
POLL_SECONDS = 0.1


class PrefectSlots:
    """Take ``count`` slots of a named limit (waiting as long as it takes, or ``timeout``) and
    give them back; every held lease is renewed by one thread."""

    def __init__(self, *, poll_seconds: float = POLL_SECONDS) -> None:
        self._poll = poll_seconds
        # The Prefect settings of whoever made this (a flow run's, a test's temporary ones):
        # the first ask may come from a background thread, which starts with none, and a
        # client made there would talk to a temporary local server instead.
        self._settings = contextvars.copy_context()
        self._client: SyncPrefectClient | None = None
        self._held: set[UUID] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def take(
        self,
        name: str,
        count: int,
        *,
        timeout: float | None = None,
        hold_off: Callable[[], float] | None = None,
    ) -> UUID:
        """A lease on ``count`` slots of the limit ``name``; ConfigurationError if the limit
        does not exist, TimeoutError past ``timeout``. ``hold_off()``: seconds to wait before
        the next ask (while this process lets another machine take its turn)."""
        client = self._connected()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stop.is_set():
            pause = hold_off() if hold_off is not None else 0.0
            if pause > 0:
                self._stop.wait(pause)
                continue
            try:
                response = client.increment_concurrency_slots_with_lease(
                    names=[name], slots=count, mode="concurrency", lease_duration=LEASE_SECONDS
                )
            except httpx.HTTPStatusError as exc:
                if exc.response.status_code != 423:  # Locked: every slot is held
                    raise
            else:
                body = response.json()
                if not body.get("limits"):
                    raise ConfigurationError(
                        f"the Prefect global concurrency limit {name!r} does not exist or is "
                        "inactive: run `emissions-etl prefect-setup` against this Prefect server"
                    )
                lease_id = UUID(body["lease_id"])
                with self._lock:
                    self._held.add(lease_id)
                return lease_id
            wait = self._poll * (1 + random.random() / 2)
            if deadline is not None and time.monotonic() + wait > deadline:
                raise TimeoutError(f"no {count} slot(s) of the Prefect limit {name!r} in time")
            self._stop.wait(wait)
        raise RuntimeError("PrefectSlots is closed")

    def give_back(self, lease_id: UUID) -> None:
        """Free the lease's slots now; if Prefect cannot be reached they return when the lease
        lapses, which is no reason to stop a load."""
        with self._lock:
            self._held.discard(lease_id)
            client = self._client
        if client is None:
            return
        try:
            client.release_concurrency_slots_with_lease(lease_id=lease_id)
        except Exception as error:  # Prefect's client errors have no common base
            logger.warning(
                "could not give slots back to Prefect (%s); they return when their lease ends",
                error,
            )

    def close(self) -> None:
        """Stop renewing and close the connection (give the leases back first)."""
        self._stop.set()
        with self._lock:
            client, self._client = self._client, None
        if self._renewer is not None:
            self._renewer.join(timeout=5)
        if client is not None:
            client.__exit__(None, None, None)

    def _connected(self) -> SyncPrefectClient:
        with self._lock:
            if self._stop.is_set():
                raise RuntimeError("PrefectSlots is closed")
            if self._client is None:
                from prefect.client.orchestration import get_client  # only where it is used

                client = self._settings.run(get_client, sync_client=True)
                client.__enter__()
                self._client = client
                self._renewer = threading.Thread(
                    target=self._renew, name="prefect-lease-renewal", daemon=True
                )
                self._renewer.start()
            return self._client

    def _renew(self) -> None:
        while not self._stop.wait(LEASE_SECONDS / 2):
            with self._lock:
                held, client = list(self._held), self._client
            for lease_id in held:
                if client is None:
                    return
                try:
                    client.renew_concurrency_lease(lease_id=lease_id, lease_duration=LEASE_SECONDS)
                except Exception as error:  # one lease's failure is not the next's
                    with self._lock:
                        still_held = lease_id in self._held  # not given back meanwhile
                    if still_held:
                        logger.warning("could not renew a Prefect lease (%s)", error)
