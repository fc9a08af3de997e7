"""What kind of value each schema column holds, and how cells of that kind are read.

The kind comes from the Pandera column: its dtype (text, number, integer, date, boolean), an
``isin`` check (a choice, read forgivingly: ``Long haul`` is ``long_haul``) or its metadata
(``{"kind": "code"}`` for codes written with spaces, ``{"kind": "weekdays"}``, ``{"synonyms":
{...}}`` for words people use instead of the choices).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

import numpy as np
import pandas as pd
import pandera.pandas as pandera

from emissions_etl.domain.rejects import RejectCode
from emissions_etl.sources.cells import (
    as_text,
    has_control_characters,
    parse_date,
    parse_number,
)

_SEPARATORS = re.compile(r"[\s\-]+")
_TRUE = frozenset({"yes", "y", "true", "t", "1", "si", "sí", "s", "x", "ja", "oui", "verdadero"})
_FALSE = frozenset({"no", "n", "false", "f", "0", "nein", "non", "falso"})
_WEEKDAYS = {
    name: index
    for index, names in enumerate(
        (
            ("monday", "mon", "mo", "lunes", "lun", "l"),
            ("tuesday", "tue", "tu", "martes", "mar", "m"),
            ("wednesday", "wed", "we", "miercoles", "miércoles", "mie", "mié", "x"),
            ("thursday", "thu", "th", "jueves", "jue", "j"),
            ("friday", "fri", "fr", "viernes", "vie", "v"),
            ("saturday", "sat", "sa", "sabado", "sábado", "sab", "sáb", "s"),
            ("sunday", "sun", "su", "domingo", "dom", "d"),
        )
    )
    for name in names
}


@dataclass(frozen=True)
class ColumnRule:
    """How to read one canonical column."""

    name: str
    kind: str  # text | code | choice | number | integer | date | boolean | weekdays
    choices: tuple[str, ...] = ()
    synonyms: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Parsed:
    """A typed column, the filled cells that could not be read, and why."""

    values: pd.Series
    bad: np.ndarray
    code: RejectCode = RejectCode.INVALID_FORMAT
    message: str = ""


@cache
def column_rules(model: type[pandera.DataFrameModel]) -> tuple[ColumnRule, ...]:
    """The reading rule of every column of ``model``, in its order."""
    rules = []
    for name, column in model.to_schema().columns.items():
        metadata = dict(column.metadata or {})
        choices = next(
            (tuple(c.statistics["allowed_values"]) for c in column.checks if c.name == "isin"),
            (),
        )
        synonyms = {_choice_key(k): v for k, v in dict(metadata.get("synonyms", {})).items()}
        kind = metadata.get("kind") or _kind_of(str(column.dtype), bool(choices))
        rules.append(ColumnRule(str(name), str(kind), choices, MappingProxyType(synonyms)))
    return tuple(rules)


def _kind_of(dtype: str, has_choices: bool) -> str:
    if dtype.startswith("datetime"):
        return "date"
    if dtype in ("float64", "float32"):
        return "number"
    if dtype in ("Int64", "int64", "Int32"):
        return "integer"
    if dtype in ("boolean", "bool"):
        return "boolean"
    return "choice" if has_choices else "text"


def parse_column(rule: ColumnRule, raw: pd.Series) -> Parsed:
    """Read ``raw`` cells as ``rule`` says; empty cells become missing values, never failures."""
    if rule.kind == "number":
        numbers, bad = parse_number(raw)
        return Parsed(numbers, bad, RejectCode.INVALID_NUMBER, "must be a number like 12.5 or 12,5")
    if rule.kind == "integer":
        numbers, bad = parse_number(raw)
        fractional = numbers.notna().to_numpy() & (numbers != np.floor(numbers)).to_numpy()
        whole = numbers.where(~fractional).round().astype("Int64")
        return Parsed(whole, bad | fractional, RejectCode.INVALID_INTEGER, "must be a whole number")
    if rule.kind == "date":
        dates, bad = parse_date(raw)
        return Parsed(
            dates, bad, RejectCode.INVALID_DATE, "must be a date like 2026-03-31 or 31/03/2026"
        )
    text = as_text(raw)
    control = has_control_characters(text)
    filled = text.where(text != "")
    if rule.kind == "boolean":
        return _booleans(filled, control)
    if rule.kind == "weekdays":
        return _weekdays(filled, control)
    if rule.kind == "code":
        filled = _without_spaces(filled.str.upper())
    elif rule.kind == "choice":
        # Few distinct words in a choice column: each is read once, then mapped (in C).
        words = filled.dropna().unique()
        lookup = {
            word: rule.synonyms.get(key, key) for word in words for key in [_choice_key(word)]
        }
        filled = filled.map(lookup)
    values = filled.astype("str").where(~control)
    return Parsed(values, control, RejectCode.INVALID_TEXT, "holds control characters")


def _without_spaces(values: pd.Series) -> pd.Series:
    """Spaces taken out (``20 01 01`` -> ``200101``) with plain replacements, which stay in
    Arrow's C code, and only for the kinds of space the column holds."""
    for space in (" ", "\u00a0", "\t"):
        if values.str.contains(space, regex=False).any():
            values = values.str.replace(space, "", regex=False)
    return values


def _choice_key(text: object) -> str:
    return _SEPARATORS.sub("_", str(text).strip().lower())


def _booleans(filled: pd.Series, control: np.ndarray) -> Parsed:
    words = filled.str.strip().str.lower().str.replace(r"\.0$", "", regex=True)
    values = pd.Series(pd.NA, index=filled.index, dtype="boolean")
    values[words.isin(_TRUE).to_numpy()] = True
    values[words.isin(_FALSE).to_numpy()] = False
    bad = (filled.notna().to_numpy() & values.isna().to_numpy()) | control
    return Parsed(
        values, bad, RejectCode.INVALID_BOOLEAN, "must be yes or no (true/false, 1/0, sí/no)"
    )


def _weekdays(filled: pd.Series, control: np.ndarray) -> Parsed:
    mapping = {text: _weekday_list(text) for text in filled.dropna().unique()}
    read = filled.map(mapping, na_action="ignore")
    bad = (filled.notna().to_numpy() & read.isna().to_numpy()) | control
    return Parsed(
        read.astype("str"),
        bad,
        RejectCode.INVALID_WEEKDAYS,
        "must be weekdays like Mon-Fri or 0,1,2,3,4",
    )


def _weekday_list(text: str) -> str | None:
    """``Mon-Fri``, ``0,1,2,3,4`` and ``Monday;Wednesday`` as ``0,1,2,3,4`` / ``0,2``."""
    days: set[int] = set()
    for part in re.split(r"[,;/\s]+", text.strip().lower()):
        if not part:
            continue
        ends = part.split("-")
        if len(ends) > 2:
            return None
        numbers = [_weekday_number(end) for end in ends]
        if any(number is None for number in numbers):
            return None
        first, last = numbers[0], numbers[-1]
        assert first is not None
        assert last is not None
        span = range(first, last + 1) if first <= last else [*range(first, 7), *range(last + 1)]
        days.update(span)
    return ",".join(str(day) for day in sorted(days)) if days else None


def _weekday_number(token: str) -> int | None:
    token = token.strip().rstrip(".")
    if token.isdigit():
        number = int(token)
        return number if 0 <= number <= 6 else None
    return _WEEKDAYS.get(token)
