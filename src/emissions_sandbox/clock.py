"""Timestamps as the interface writes them: ISO 8601 UTC with `Z` (changelog 2026-10-05)."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_datetime(value: str) -> datetime:
    """Any ISO timestamp (a stored one included) as an aware UTC datetime; ValueError when
    invalid. Without an offset it is taken as UTC."""
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def parse_timestamp(value: str) -> str:
    """Any ISO timestamp → the stored, comparable form (UTC, `Z`); ValueError when invalid."""
    return parse_datetime(value).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
