"""What a rate-limited answer says about the server's window (interface: Limits, rule 2).

Reads ``X-RateLimit-Limit/Remaining/Reset`` and the IETF ``RateLimit``/``RateLimit-Policy``
headers, in the sandbox's simplified form (``limit=30, remaining=29, reset=1`` and ``30;w=1``)
and in the draft's structured form (``"default";r=29;t=1`` and ``"default";q=30;w=1``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

#: An ``X-RateLimit-Reset`` above this is a Unix time; below, some servers send seconds to wait.
_EPOCH_FLOOR = 1e9


@dataclass(frozen=True)
class RateReading:
    """The server's rate-limit view carried by one answer; None where it said nothing."""

    limit: int | None = None  # requests per window
    window_seconds: float | None = None  # ``w`` of RateLimit-Policy
    remaining: int | None = None  # left in the window that counted this request
    reset_at: float | None = None  # server's Unix time when the allowance is restored
    reset_in: float | None = None  # seconds from the answer to that moment (relative)


def read_rate_headers(headers: Mapping[str, str]) -> RateReading:
    """The reading of an answer's headers (case-insensitive mapping, e.g. ``httpx.Headers``)."""
    policy = _parameters(headers.get("ratelimit-policy"))
    current = _parameters(headers.get("ratelimit"))
    limit = _integer(policy.get("q")) or _integer(headers.get("x-ratelimit-limit"))
    limit = limit or _integer(current.get("limit"))
    remaining = _integer(headers.get("x-ratelimit-remaining"))
    if remaining is None:
        remaining = _integer(current.get("remaining", current.get("r")))
    reset_at = reset_in = None
    reset = _number(headers.get("x-ratelimit-reset"))
    if reset is not None and reset >= _EPOCH_FLOOR:
        reset_at = reset
    elif reset is not None and reset >= 0:
        reset_in = reset
    relative = _number(current.get("reset", current.get("t")))
    if relative is not None and relative >= 0:
        reset_in = relative  # the IETF header is relative: it needs no agreement on clocks
    window = _number(policy.get("w"))
    return RateReading(
        limit=limit if limit and limit > 0 else None,
        window_seconds=window if window and window > 0 else None,
        remaining=remaining,
        reset_at=reset_at,
        reset_in=reset_in,
    )


def _parameters(value: str | None) -> dict[str, str]:
    """``limit=30, remaining=2`` / ``30;w=1`` / ``"p";q=30;w=1`` as a dict; a bare number is q."""
    found: dict[str, str] = {}
    if not value:
        return found
    for item in value.replace(",", ";").split(";"):
        name, sep, text = item.strip().partition("=")
        if sep:
            found.setdefault(name.strip().lower(), text.strip().strip('"'))
        elif _number(name) is not None:
            found.setdefault("q", name.strip())
    return found


def _number(value: str | None) -> float | None:
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and math.isfinite(number) else None


def _integer(value: str | None) -> int | None:
    number = _number(value)
    return int(number) if number is not None else None
