"""The service's JSON as the client speaks it: what a query string carries (``QueryValue``), and
the checks that narrow a decoded body (``emissions_etl.json_values``) to the object or the
array of objects an operation answers (interface: every operation answers JSON)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

from emissions_etl.errors import ApiError
from emissions_etl.json_values import JsonObject, JsonValue

#: A query parameter's value: a scalar, or a list sent as the parameter repeated (``ids``).
QueryValue: TypeAlias = "str | int | float | bool | None | Sequence[str]"
#: Query parameters; None values are left out of the query string.
QueryParams: TypeAlias = "Mapping[str, QueryValue]"


def json_object(value: JsonValue, what: str) -> JsonObject:
    """``value`` as the JSON object ``what`` answers; ApiError when the service sent another
    shape (a proxy's page, a changed interface)."""
    if not isinstance(value, dict):
        raise ApiError(f"{what}: expected a JSON object, got {type(value).__name__}")
    return value


def json_objects(value: JsonValue, what: str) -> list[JsonObject]:
    """``value`` as the array of JSON objects ``what`` answers; ApiError otherwise."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ApiError(f"{what}: expected a JSON array of objects")
    return [item for item in value if isinstance(item, dict)]
