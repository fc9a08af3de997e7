"""Cells that show a spreadsheet error (``#DIV/0!``, ``#N/A``, ``#NAME?``...) instead of a value.

A formula that failed leaves an error in its cell. An xlsx stores it as an error cell
(``t="e"``), which the xlsx reader hands on as the text the cell shows (``xlsx_errors``); a csv
export writes that text in the cell's place. Either way the cell holds no value and is not
empty either: validation rejects it as ``FORMULA_ERROR`` whatever its column, required,
optional or the row id. The error values, in the languages Excel writes them into csv exports,
are data (``formula_errors.csv``, with their sources); LibreOffice writes its own errors as
``Err:502``. A cell matches when its whole text, trimmed, is one of them, in any case.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from types import MappingProxyType

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from emissions_etl.sources.cells import is_text_dtype, object_kind

#: The error values calamine reads from an xlsx error cell (as an empty cell); it refuses a
#: whole sheet holding any other (``Unsupported cell error value``), so the reader refuses
#: such a sheet first, naming the cell.
XLSX_READABLE = frozenset({"#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"})
#: LibreOffice's own error codes, as its csv export writes them (``Err:502``).
_LIBREOFFICE = re.compile(r"ERR:[0-9]{3}")
_LIBREOFFICE_MEANING = "a LibreOffice formula error"
#: Cells worth a closer look: their text starts with ``#`` or ``Err:`` (one pass in Arrow).
_CANDIDATE = r"^\s*(?:#|[Ee][Rr][Rr]:)"
#: Object columns of these kinds hold no text, so no error value.
_NO_TEXT_KINDS = frozenset(
    {"floating", "integer", "decimal", "boolean", "date", "datetime", "datetime64", "empty",
     "timedelta", "timedelta64", "period"}
)  # fmt: skip


@dataclass(frozen=True)
class FormulaError:
    """One error value: as a cell shows it, as xlsx stores it, and what it means."""

    shown: str
    error: str
    meaning: str

    def sentence(self) -> str:
        """The reject's wording after the column's header."""
        return (
            f"shows the spreadsheet error {self.shown} ({self.meaning}): correct the formula or "
            "type the value"
        )


@cache
def known_errors() -> Mapping[str, FormulaError]:
    """Every error value of ``formula_errors.csv``, by its shown text in upper case."""
    text = files(__package__).joinpath("formula_errors.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line not in ("", "#") and line[:2] != "# "]
    found = {
        row["shown"].upper(): FormulaError(row["shown"], row["error"], row["meaning"])
        for row in csv.DictReader(lines)
    }
    return MappingProxyType(found)


def formula_error(text: str) -> FormulaError | None:
    """The error value ``text`` shows, if it shows one."""
    key = text.strip().upper()
    found = known_errors().get(key)
    if found is None and _LIBREOFFICE.fullmatch(key):
        shown = text.strip()
        return FormulaError(shown, shown, _LIBREOFFICE_MEANING)
    return found


def formula_errors(values: pd.Series, *, trimmed: bool = False) -> pd.Series | None:
    """The error value each cell shows (its ``FormulaError.shown``), NA for the other cells;
    None when no cell of ``values`` shows one, which one pass in Arrow finds for text.
    ``trimmed``: the text has no leading spaces (a cheaper test than the regular expression)."""
    if not (is_text_dtype(values) or values.dtype == object):
        return None  # numbers, dates and booleans as typed columns hold no text
    if values.dtype == object and object_kind(values) in _NO_TEXT_KINDS:
        return None
    candidates = _candidates(values, trimmed)
    if not candidates.any():
        return None
    shown = pd.Series(pd.NA, index=values.index, dtype="object")
    texts = values[candidates].astype("str").tolist()
    lookup = {text: formula_error(text) for text in set(texts)}
    shown[candidates] = [_shown(lookup[text]) for text in texts]
    return None if shown.isna().all() else shown


def _candidates(values: pd.Series, trimmed: bool) -> np.ndarray:
    """Cells whose text starts with ``#`` or ``Err:``, found in Arrow (pandas' own
    ``str.contains`` loops in Python for this pattern); text that is trimmed already takes two
    prefix tests, faster still than the regular expression."""
    try:
        cells = pa.array(values, type=pa.large_string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # text among numbers and dates (an xlsx column)
        is_text = values.map(lambda value: isinstance(value, str)).to_numpy(dtype=bool)
        found = np.zeros(len(values), dtype=bool)
        if is_text.any():
            found[is_text] = _candidates(values[is_text].astype("str"), trimmed)
        return found
    if trimmed:
        matched = pc.or_(
            pc.starts_with(cells, "#"), pc.starts_with(cells, "err:", ignore_case=True)
        )
    else:
        matched = pc.match_substring_regex(cells, _CANDIDATE)
    return np.asarray(pc.fill_null(matched, False).to_numpy(zero_copy_only=False), dtype=bool)


def _shown(found: FormulaError | None) -> object:
    return pd.NA if found is None else found.shown
