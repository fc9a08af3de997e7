"""ServerWindow: when the server's rate window that counted a request ends, in our own clock.

The server counts requests per window and says, on every answer, how many it allows per window
(``X-RateLimit-Limit``, ``RateLimit-Policy: 30;w=1``), how many remain and when the allowance is
restored (``X-RateLimit-Reset``, Unix seconds of the *server's* clock). Its clock is not ours, so
the absolute Reset is used only as the name of a window: each answer bounds the offset between
the two clocks (the request was counted between the moment we sent it and the moment its answer
arrived, inside a window of ``w`` seconds ending at Reset), and the bounds tighten as answers come.

The token of a request goes back to the pool at the earliest moment the window that counted it
has surely ended: ``min(answer + w, Reset - lowest offset)``. The first term alone is safe for
any window of ``w`` seconds, fixed or sliding, and is all we use before the first Reset: it lets
the pool reach ``limit / (w + round trip)``. The second lets a fixed window's allowance be spent
again the moment the window rolls over, so the pool reaches the whole ``limit`` per window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from emissions_etl.client._rate_headers import RateReading

#: How fast two clocks may drift apart (seconds per second): learnt bounds widen at this rate.
DRIFT = 1e-4

#: Added to every computed end of window: float rounding, a server clock read a hair late.
MARGIN = 0.002


@dataclass(frozen=True)
class Settlement:
    """What one answer means for the pool."""

    returns_at: float  # when this request's token is back (local wall seconds)
    server_used: int | None  # requests the server counts in that window, which ends...
    used_since: float  # ...no sooner than this local time...
    used_until: float  # ...and no later than this one
    blocked_until: float | None = None  # a 429: every token is taken until then


class ServerWindow:
    """What this process has learnt of one (API key, endpoint) rate window on the server."""

    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window_seconds = window_seconds
        self._reset_offset()

    @classmethod
    def for_rate(cls, rate_per_second: float) -> ServerWindow:
        """The window a policy's rate implies before the server has said anything."""
        if rate_per_second >= 1:
            return cls(math.floor(rate_per_second), 1.0)
        return cls(1, 1.0 / rate_per_second)

    @property
    def offset_bounds(self) -> tuple[float, float]:
        """Bounds of (server clock - local clock) as learnt, without drift."""
        return self._low, self._high

    def settle(
        self,
        reading: RateReading,
        sent: float,
        received: float,
        status: int,
        retry_after: float | None = None,
    ) -> Settlement:
        """Learn from an answer (sent and received in local wall seconds) and settle its token."""
        if reading.limit is not None:
            self.limit = reading.limit
        if reading.window_seconds is not None:
            self.window_seconds = reading.window_seconds
        if status == 429:
            self._reset_offset()  # what we believed let a request through too soon
        end = received + self.window_seconds  # safe whatever the window's kind or alignment
        earliest_end = sent  # the window that counted it was still running when it was sent
        if reading.reset_at is not None:
            self._narrow(reading, sent, received)
            end = min(end, reading.reset_at - self._low_at(received) + MARGIN)
            earliest_end = max(earliest_end, reading.reset_at - self._high_at(received))
        elif reading.reset_in is not None:
            end = min(end, received + reading.reset_in + MARGIN)
        blocked = None
        if status == 429:  # interface: Limits, rule 4: not before Retry-After
            blocked = max(end, received + (retry_after or 0.0))
        used = None if reading.remaining is None else max(0, self.limit - reading.remaining)
        return Settlement(end, used, earliest_end, end, blocked)

    def _narrow(self, reading: RateReading, sent: float, received: float) -> None:
        """Bound the clock offset: the server counted the request at a server time in
        [Reset - w, Reset) (and Reset - reset_in, to the second, when it says so), and at a
        local time in [sent, received]."""
        assert reading.reset_at is not None
        reset = reading.reset_at
        starts_after = reset - self.window_seconds
        ends_before = reset
        if reading.reset_in is not None and reading.reset_in >= 1:
            # ``reset=S`` is the whole seconds to the reset, rounded up (sandbox README).
            starts_after = max(starts_after, reset - reading.reset_in)
            ends_before = min(ends_before, reset - reading.reset_in + 1)
        low, high = starts_after - received, ends_before - sent
        if low > self._high_at(received) or high < self._low_at(received):
            self._reset_offset()  # a clock stepped: what we knew is wrong, start again
        if low > self._low_at(received):
            self._low, self._low_since = low, received
        if high < self._high_at(received):
            self._high, self._high_since = high, received

    def _low_at(self, now: float) -> float:
        return self._low - DRIFT * (now - self._low_since)

    def _high_at(self, now: float) -> float:
        return self._high + DRIFT * (now - self._high_since)

    def _reset_offset(self) -> None:
        self._low, self._high = -math.inf, math.inf
        self._low_since = self._high_since = 0.0
