"""JSON as types, the words every layer speaks about it: what a body decodes to or a payload
encodes from (``JsonValue``), and an object of it (``JsonObject``: a record, a page, an ingest
job, a problem's details). Aliases only, importing nothing of the package, so that the bottom
layers (errors, domain) can name them too."""

from __future__ import annotations

from typing import TypeAlias

#: A decoded JSON value, as orjson returns it.
JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"
#: A decoded JSON object: a record, a page, an ingest job, an endpoint.
JsonObject: TypeAlias = "dict[str, JsonValue]"
