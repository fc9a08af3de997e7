"""Validate one batch of waste rows: typed valid rows go on, every bad cell becomes a reject.

Cells are first read as numbers, dates and codes (``sources.cells``), then the ``WasteInput``
Pandera schema judges them; each failure is turned into a reject a person can act on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pandera.pandas as pandera
import pyarrow as pa
import pyarrow.compute as pc
from pandas.util import hash_array

from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.rejects import RejectCode, empty_rejects, explain, make_rejects, sort_rejects
from emissions_etl.sources.cells import as_text, is_blank, is_text_dtype, parse_date, parse_number
from emissions_etl.sources.frames import ORIGIN_COLUMNS
from emissions_etl_schemas.wastes import CLIENT_ROW_ID_MAX, REQUIRED_INPUT_COLUMNS, WasteInput

CANONICAL_COLUMNS = tuple(WasteInput.to_schema().columns)
_SCHEMA = WasteInput.to_schema()
_TEXT_COLUMNS = (
    "facility", "identification_name", "destination", "description",
    "unit", "ler_code", "rd_code", "client_row_id",
)  # fmt: skip
_UNIT_SPELLINGS = {
    "": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "kilogramos": "kg", "tn": "t", "ton": "t", "tons": "t", "tonne": "t", "tonnes": "t",
    "toneladas": "t", "tonelada": "t",
}  # fmt: skip


@dataclass(frozen=True)
class ValidationResult:
    """Rows with every cell valid (typed, canonical) and one reject per bad cell."""

    valid: pd.DataFrame
    rejects: pd.DataFrame


def validate_wastes(batch: pd.DataFrame) -> ValidationResult:
    """Judge a batch from ``read_source``; a missing required column is UnsupportedSourceError."""
    batch = batch.reset_index(drop=True)
    headers: dict[str, str] = dict(batch.attrs.get("headers", {}))
    _require_columns(batch, headers)
    raw = {name: _raw_column(batch, name) for name in CANONICAL_COLUMNS}
    text = {name: as_text(raw[name]) for name in _TEXT_COLUMNS}
    blank = {
        name: (text[name] == "").to_numpy(dtype=bool) if name in text else is_blank(raw[name])
        for name in CANONICAL_COLUMNS
    }
    typed, parse_failures = _typed_frame(batch, raw, text)
    failures = parse_failures + _schema_failures(typed, blank, parse_failures)
    failures.append(_duplicate_ids(typed, blank))
    rejects = [_to_rejects(typed, raw, text, headers, *failure) for failure in failures]
    bad = np.zeros(len(typed), dtype=bool)
    for _, mask, _ in failures:
        bad |= mask
    valid = typed[~bad].copy()
    valid["source_hash"] = source_hash(valid[list(CANONICAL_COLUMNS)])
    frame = sort_rejects(pd.concat([empty_rejects(), *rejects], ignore_index=True))
    valid = valid.reset_index(drop=True)
    valid.attrs["headers"] = headers
    return ValidationResult(valid, frame)


def _require_columns(batch: pd.DataFrame, headers: dict[str, str]) -> None:
    # The header search already demands most columns; a file without a required one cannot
    # give a single valid row, so it is refused whole rather than rejected row by row.
    missing = [name for name in REQUIRED_INPUT_COLUMNS if name not in batch.columns]
    if missing:
        file = str(batch["_file"].iloc[0]) if len(batch) else "input"
        found = ", ".join(headers.values()) or "none"
        raise UnsupportedSourceError(file, f"no column for {', '.join(missing)} (headers: {found})")


def _raw_column(batch: pd.DataFrame, name: str) -> pd.Series:
    if name in batch.columns:
        return batch[name]
    return pd.Series("", index=batch.index, dtype="str")


Failure = tuple[str, np.ndarray, RejectCode]


def _typed_frame(
    batch: pd.DataFrame, raw: dict[str, pd.Series], text: dict[str, pd.Series]
) -> tuple[pd.DataFrame, list[Failure]]:
    failures: list[Failure] = []
    typed = pd.DataFrame({name: text[name] for name in _TEXT_COLUMNS[:4]})
    for name in ("start_date", "end_date"):
        typed[name], bad = parse_date(raw[name])
        failures.append((name, bad, RejectCode.INVALID_DATE))
    typed["base_quantity"], bad = parse_number(raw["base_quantity"])
    failures.append(("base_quantity", bad, RejectCode.INVALID_NUMBER))
    unit = text["unit"].str.lower()
    typed["unit"] = unit.replace(_UNIT_SPELLINGS).astype("str")
    # Plain (not regex) replacements and backreference-free patterns stay in Arrow's C code.
    typed["ler_code"] = _without_spaces(text["ler_code"])
    rd = _without_spaces(text["rd_code"].str.upper())
    if (rd.str.slice(1, 2) == "0").any():  # R03 -> R3
        rd = rd.str.replace(r"^R0+", "R", regex=True).str.replace(r"^D0+", "D", regex=True)
    typed["rd_code"] = rd.astype("str")
    typed["client_row_id"] = _client_row_ids(batch, text["client_row_id"])
    typed = typed.copy()  # one block per dtype
    for name in ORIGIN_COLUMNS:
        typed[name] = batch[name].to_numpy()
    return typed[[*CANONICAL_COLUMNS, *ORIGIN_COLUMNS]], failures


def _without_spaces(values: pd.Series) -> pd.Series:
    for space in (" ", "\u00a0", "\t"):
        if values.str.contains(space, regex=False).any():
            values = values.str.replace(space, "", regex=False)
    return values.astype("str")


def _client_row_ids(batch: pd.DataFrame, given: pd.Series) -> pd.Series:
    """The given id, or ``file#sheet!row`` (``file#row`` for csv), hashed when too long."""
    files, sheets = batch["_file"].astype("str"), batch["_sheet"].astype("str")
    rows = batch["_row"].astype("int64").astype("str")
    single = (
        bool(len(batch)) and (files == files.iloc[0]).all() and (sheets == sheets.iloc[0]).all()
    )
    if single:
        # A batch comes from one sheet of one file: one prefix, one vectorised concatenation.
        sheet = sheets.iloc[0]
        default = f"{files.iloc[0]}#{sheet + '!' if sheet else ''}" + rows
    else:
        default = files + "#" + sheets.where(sheets == "", sheets + "!") + rows
    # Only a very long file or sheet name makes a key too long; skip the check otherwise.
    longest = len(files.iloc[0]) + len(sheets.iloc[0]) + 24 if single else CLIENT_ROW_ID_MAX + 1
    if longest > CLIENT_ROW_ID_MAX:
        long = (default.str.len() > CLIENT_ROW_ID_MAX).to_numpy(dtype=bool)
        if long.any():
            default[long] = default[long].map(
                lambda key: "sha256:" + hashlib.sha256(key.encode()).hexdigest()
            )
    if (given == "").all():
        return default.astype("str")
    return given.where(given != "", default).astype("str")


#: Pandera check name (before its arguments) -> reject code, for cells that are not empty.
_CHECK_CODES = {
    "greater_than": RejectCode.NOT_POSITIVE,
    "isin": RejectCode.INVALID_UNIT,
    "is_ler_code": RejectCode.INVALID_LER_CODE,
    "is_rd_code": RejectCode.INVALID_RD_CODE,
    "str_length": RejectCode.TOO_LONG,
}


def _schema_failures(
    typed: pd.DataFrame, blank: dict[str, np.ndarray], parse_failures: list[Failure]
) -> list[Failure]:
    """Pandera's failure cases as (column, rows, code); an empty cell is always REQUIRED, and
    a filled cell that could not be parsed (already reported) is not reported again."""
    try:
        _SCHEMA.validate(typed, lazy=True)
        return []
    except pandera.errors.SchemaErrors as errors:
        cases = errors.failure_cases
    cases = cases[cases["index"].notna()]
    check_names = cases["check"].astype(str).str.split("(", n=1).str[0]
    failures: list[Failure] = []
    # A failed dataframe-level check yields one case per column of the failing row.
    in_order = cases.loc[check_names == "dates_in_order", "index"]
    if len(in_order):
        failures.append(("start_date", _rows_mask(typed, in_order), RejectCode.DATE_ORDER))
    column_cases = cases["schema_context"] == "Column"
    for (column, check), group in cases[column_cases].groupby(
        [cases["column"], check_names], sort=False
    ):
        mask = _rows_mask(typed, group["index"])
        empty = blank[column]
        failures.append((column, mask & empty, RejectCode.REQUIRED))
        if check in _CHECK_CODES:
            failures.append((column, mask & ~empty, _CHECK_CODES[check]))
        else:  # not_nullable on a filled cell: it could not be read, and said so already
            unread = np.zeros(len(typed), dtype=bool)
            for name, parse_mask, _ in parse_failures:
                if name == column:
                    unread |= parse_mask
            failures.append((column, mask & ~empty & ~unread, _unreadable_code(column)))
    return failures


def _unreadable_code(column: str) -> RejectCode:
    if column in ("start_date", "end_date"):
        return RejectCode.INVALID_DATE
    return RejectCode.INVALID_NUMBER if column == "base_quantity" else RejectCode.REQUIRED


def _rows_mask(typed: pd.DataFrame, positions: pd.Series) -> np.ndarray:
    mask = np.zeros(len(typed), dtype=bool)
    mask[positions.astype("int64").unique()] = True
    return mask


def _duplicate_ids(typed: pd.DataFrame, blank: dict[str, np.ndarray]) -> Failure:
    given = ~blank["client_row_id"]
    if not given.any():  # default keys are unique by construction
        return ("client_row_id", given, RejectCode.DUPLICATE_ROW_ID)
    repeated = typed["client_row_id"].duplicated(keep="first").to_numpy() & given
    return ("client_row_id", repeated, RejectCode.DUPLICATE_ROW_ID)


def _to_rejects(
    typed: pd.DataFrame,
    raw: dict[str, pd.Series],
    text: dict[str, pd.Series],
    headers: dict[str, str],
    column: str,
    mask: np.ndarray,
    code: RejectCode,
) -> pd.DataFrame:
    if not mask.any():
        return empty_rejects()
    rows = typed[mask]
    value = text[column][mask] if column in text else as_text(raw[column][mask])
    message = explain(code, column, value, rows, typed)
    return make_rejects(
        rows, column=headers.get(column, column), value=value, code=code, message=message
    )


def source_hash(frame: pd.DataFrame) -> pd.Series:
    """A stable 16-hex-digit hash of each row's values, computed in C.

    Text columns are joined per row (Arrow) and hashed once; dates and numbers are hashed as
    they are; the column hashes are combined like ``pd.util.hash_pandas_object`` does.
    """
    if frame.empty:
        return pd.Series([], index=frame.index, dtype="str")
    texts = [frame[c] for c in frame.columns if is_text_dtype(frame[c])]
    others = [frame[c] for c in frame.columns if not is_text_dtype(frame[c])]
    hashes = []
    if texts:
        joined = pc.binary_join_element_wise(
            *[pa.array(t.fillna(""), type=pa.large_string()) for t in texts],
            pa.scalar("\x1f", type=pa.large_string()),
        )
        hashes.append(
            hash_array(
                np.asarray(joined.to_numpy(zero_copy_only=False), dtype=object), categorize=False
            )
        )
    for values in others:
        hashes.append(hash_array(values.to_numpy(), categorize=False))
    combined = np.zeros(len(frame), dtype="uint64")
    with np.errstate(over="ignore"):
        for column_hash in hashes:
            combined = combined * np.uint64(1000003) ^ column_hash
    digits = np.frombuffer(combined.astype(">u8").tobytes(), dtype=np.uint8).reshape(-1, 8)
    hex_bytes = pa.array(_HEX_PAIRS[digits].view("S16").ravel(), type=pa.binary(16))
    hex_text = pc.cast(pc.cast(hex_bytes, pa.binary()), pa.string()).to_pandas()
    return hex_text.set_axis(frame.index).astype("str")


_HEX_PAIRS = np.array([f"{i:02x}".encode() for i in range(256)], dtype="S2")
