"""A record the service refused, as a reject at the row and the spreadsheet column a person
fixes: the fields a refusal names (v1 validation lists, v2 problem ``errors``, one
``{detail, code}``), and for a refusal that names none, the field its message is about."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pandas as pd

from emissions_etl.domain.rejects import REJECT_COLUMNS, RejectCode, empty_rejects
from emissions_etl.errors import ApiStatusError
from emissions_etl.json_values import JsonValue
from emissions_etl.resources import ResourceSpec


def rejects_at(
    rows: pd.DataFrame, spec: ResourceSpec, entries: Sequence[tuple[int, str, str, str]]
) -> pd.DataFrame:
    """Rejects for ``(position in rows, api field, service code, service message)`` entries,
    at the spreadsheet column a person fixes (``input_column_of_field`` by code, then field)."""
    headers: dict[str, str] = dict(rows.attrs.get("headers", {}))
    out = []
    for position, api_field, code, message in entries:
        if not 0 <= position < len(rows):
            continue
        source = rows.iloc[position]
        api_field = api_field or _field_named(message, source, spec)
        fields = spec.input_column_of_field  # a refusal's code may name the column it is about
        column = fields.get(code) or fields.get(api_field, api_field)
        value = source.get(api_field, source.get(column, ""))
        out.append(
            {
                "file": source["_file"],
                "sheet": source["_sheet"],
                "row": int(source["_row"]),
                "column": headers.get(column, column) if column else "",
                "value": "" if _is_empty(value) else str(value),
                "code": RejectCode.REJECTED_BY_SERVICE.value,
                "message": f"The service refused this row ({code}): {message}",
                "key": "" if _is_empty(source.get("_key")) else str(source.get("_key")),
            }
        )
    return pd.DataFrame(out, columns=list(REJECT_COLUMNS)) if out else empty_rejects()


def _is_empty(value: object) -> bool:
    """An empty cell, however the frame holds it (None, NA, or a float NaN: shown as "nan")."""
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def _field_named(message: str, source: pd.Series, spec: ResourceSpec) -> str:
    """The field a refusal that names none is about: the one whose value the message quotes
    (``Unknown place 'Atlantis'``), else the first one it names (``transport_type train is not
    possible ...``); "" when neither."""
    quoted = {
        text.strip().lower()
        for pair in re.findall(r"'([^']+)'|\"([^\"]+)\"", message)
        for text in pair
        if text.strip()
    }
    for name in spec.record_fields:
        value = source.get(name)
        if isinstance(value, str) and value.strip().lower() in quoted:
            return name
    for name in spec.record_fields:
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", message):
            return name
    return ""


def refusal_entries(error: ApiStatusError) -> list[tuple[str, str, str]]:
    """(api field, code, message) of a record the service refused: the v1 validation list,
    the v2 problem ``errors``, or the one ``{detail, code}``."""
    if error.errors:
        return [
            (_field_of(entry), str(entry.get("code") or error.code or entry.get("type") or ""),
             str(entry.get("message") or entry.get("msg") or error.detail))
            for entry in error.errors
        ]  # fmt: skip
    return [("", str(error.code or error.status), error.detail)]


def _field_of(entry: Mapping[str, JsonValue]) -> str:
    if entry.get("field"):
        return str(entry["field"])
    loc = entry.get("loc")
    location = [part for part in loc if part not in ("body",)] if isinstance(loc, list) else []
    return str(location[-1]) if location and isinstance(location[-1], str) else ""
