"""How people write numbers, dates and codes in cells, turned into typed columns in one pass.

Each parser is vectorised and returns the typed column plus a mask of cells that were filled in
but could not be read (empty cells are not failures here: ``required`` decides about those).
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

#: Excel's day zero for the 1900 date system (serial 1 = 1900-01-01, with the 1900 leap bug).
EXCEL_EPOCH = pd.Timestamp("1899-12-30")
#: Serials a waste record can plausibly carry: 1950-01-01 .. 2099-12-31.
_SERIAL_RANGE = (18264, 73050)
#: Number text read by Arrow's cast directly, or after turning the decimal comma into a dot.
_PLAIN_NUMBER = r"[+-]?\d+(?:\.\d+)?"
_DECIMAL_COMMA = r"[+-]?\d+,\d+"
_TEXTUAL_KINDS = ("string", "empty", "mixed", "mixed-integer", "mixed-integer-float")
#: Text date layouts, in order (ISO, then European day-first), each with a pattern that
#: captures the day as written.
_TEXT_LAYOUTS = (
    ("%Y-%m-%d", r"^\d{4}-\d{1,2}-(?P<day>\d{1,2})$"),
    ("%d/%m/%Y", r"^(?P<day>\d{1,2})/\d{1,2}/\d{4}$"),
    ("%d.%m.%Y", r"^(?P<day>\d{1,2})\.\d{1,2}\.\d{4}$"),
    ("%d-%m-%Y", r"^(?P<day>\d{1,2})-\d{1,2}-\d{4}$"),
    ("%d/%m/%y", r"^(?P<day>\d{1,2})/\d{1,2}/\d{2}$"),
    ("%d.%m.%y", r"^(?P<day>\d{1,2})\.\d{1,2}\.\d{2}$"),
)


def is_text_dtype(values: pd.Series) -> bool:
    """A pandas string column (not object)."""
    return values.dtype != object and pd.api.types.is_string_dtype(values.dtype)


def object_kind(values: pd.Series) -> str:
    """What an object column holds, found in C: "string", "date", "floating", "mixed"..."""
    return str(pd.api.types.infer_dtype(values, skipna=True))


def is_blank(values: pd.Series) -> np.ndarray:
    """True for cells with nothing in them (missing, or text that is only spaces)."""
    missing = values.isna().to_numpy(dtype=bool)
    if is_text_dtype(values):
        return missing | (values.str.strip() == "").fillna(False).to_numpy(dtype=bool)
    if values.dtype == object and object_kind(values) in _TEXTUAL_KINDS:
        stripped = values.str.strip()
        return missing | (stripped == "").fillna(False).to_numpy(dtype=bool)
    return missing


def as_text(values: pd.Series) -> pd.Series:
    """Cells as trimmed text: "" when empty, ``12`` not ``12.0``, dates as ``YYYY-MM-DD``."""
    if values.dtype == object:
        kind = object_kind(values)
        if kind in ("string", "empty"):
            return values.fillna("").astype("str").str.strip()
        if kind in ("floating", "integer"):
            return _numbers_as_text(values.astype("float64"))
    if is_text_dtype(values):
        return values.fillna("").str.strip().astype("str")
    if pd.api.types.is_float_dtype(values.dtype) or pd.api.types.is_integer_dtype(values.dtype):
        return _numbers_as_text(values)
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return _datetimes_as_text(values)
    kinds = values.map(type)
    out = pd.Series("", index=values.index, dtype="str")
    is_str = kinds.isin([str]).to_numpy()
    if is_str.any():
        out[is_str] = values[is_str].astype("str").str.strip()
    is_number = kinds.isin([float, int, np.float64, np.int64]).to_numpy()
    if is_number.any():
        out[is_number] = _numbers_as_text(values[is_number].astype("float64"))
    is_date = kinds.isin([dt.date, dt.datetime, pd.Timestamp]).to_numpy()
    if is_date.any():
        out[is_date] = _datetimes_as_text(pd.to_datetime(values[is_date]))
    other = ~(is_str | is_number | is_date) & values.notna().to_numpy()
    if other.any():
        out[other] = values[other].map(str)
    return out


def _numbers_as_text(values: pd.Series) -> pd.Series:
    floats = values.astype("float64")
    integral = (floats == np.floor(floats)) & (floats.abs() < 1e15)
    out = pd.Series("", index=values.index, dtype="str")
    out[integral] = floats[integral].astype("int64").astype("str")
    fractional = ~integral & floats.notna()
    out[fractional] = floats[fractional].map(repr)
    return out


def _datetimes_as_text(values: pd.Series) -> pd.Series:
    with_time = values.notna() & (values != values.dt.normalize())
    text = values.dt.strftime("%Y-%m-%d").fillna("")
    if with_time.any():
        text[with_time] = values[with_time].dt.strftime("%Y-%m-%d %H:%M:%S")
    return text.astype("str")


def parse_number(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Floats from numbers and from text like ``12,5``, ``1.234,5``, ``1,234.5``, ``1 234``."""
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        numbers = values.astype("float64")
        return numbers, ~np.isfinite(numbers.fillna(0).to_numpy())
    if values.dtype == object and object_kind(values) in ("floating", "integer", "empty"):
        numbers = values.astype("float64")
        return numbers, ~np.isfinite(numbers.fillna(0).to_numpy())
    text = as_text(values)
    if text.str.contains(" ", regex=False).any():
        text = text.str.replace(" ", "", regex=False)
    numbers = pd.Series(np.nan, index=values.index, dtype="float64")
    plain = text.str.fullmatch(_PLAIN_NUMBER).fillna(False).to_numpy(dtype=bool)
    numbers[plain] = _cast_float(text[plain])
    comma = ~plain & text.str.fullmatch(_DECIMAL_COMMA).fillna(False).to_numpy(dtype=bool)
    numbers[comma] = _cast_float(text[comma].str.replace(",", ".", regex=False))
    filled = (text != "").to_numpy(dtype=bool)
    other = filled & ~plain & ~comma
    if other.any():  # thousands separators, exotic spaces, "1e3", "inf"...
        numbers[other] = pd.to_numeric(_normalise_number_text(text[other]), errors="coerce")
    bad = filled & ~np.isfinite(numbers.to_numpy())
    return numbers.where(~bad), bad


def _cast_float(text: pd.Series) -> np.ndarray:
    return pc.cast(pa.array(text, type=pa.large_string()), pa.float64()).to_numpy(
        zero_copy_only=False
    )


def _normalise_number_text(text: pd.Series) -> pd.Series:
    """Decide which of ``.`` and ``,`` is the decimal mark: the last one when both appear, a
    single one when alone; repeated ones are thousands separators."""
    text = text.str.replace(r"[\s\u00a0\u202f']", "", regex=True)
    last_comma, last_dot = text.str.rfind(","), text.str.rfind(".")
    commas, dots = text.str.count(","), text.str.count(r"\.")
    comma_decimal = ((last_comma > last_dot) & (dots >= 1)) | ((dots == 0) & (commas == 1))
    out = text.where(~comma_decimal, text.str.replace(".", "", regex=False).str.replace(",", "."))
    return out.where(comma_decimal, out.str.replace(",", "", regex=False)).where(
        ~((commas == 0) & (dots > 1)), text.str.replace(".", "", regex=False)
    )


def parse_date(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Dates (midnight, datetime64) from real dates, Excel serials, ISO and ``dd/mm/yyyy`` text."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        dates = values.dt.tz_localize(None) if values.dt.tz is not None else values
        return dates.dt.normalize().astype("datetime64[ns]"), np.zeros(len(values), dtype=bool)
    out = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns]")
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        return _from_serials(values.astype("float64"))
    if is_text_dtype(values):
        return _from_text(values.fillna("").str.strip())
    kind = object_kind(values)
    if kind in ("date", "datetime", "datetime64"):
        return pd.to_datetime(values).dt.normalize().astype("datetime64[ns]"), np.zeros(
            len(values), dtype=bool
        )
    if kind in ("floating", "integer", "empty"):
        return _from_serials(values.astype("float64"))
    if kind == "string":
        return _from_text(values.fillna("").astype("str").str.strip())
    kinds = values.map(type)
    is_date = kinds.isin([dt.date, dt.datetime, pd.Timestamp]).to_numpy()
    if is_date.any():
        out[is_date] = pd.to_datetime(values[is_date]).dt.normalize()
    is_number = kinds.isin([float, int, np.float64, np.int64]).to_numpy()
    if is_number.any():
        out[is_number] = _from_serials(values[is_number].astype("float64"))[0]
    filled = is_date | (is_number & values.notna().to_numpy())
    rest = ~(is_date | is_number)
    if rest.any():
        rest_text = as_text(values[rest])
        out[rest] = _from_text(rest_text)[0]
        filled[rest] = (rest_text != "").to_numpy()
    return out, filled & out.isna().to_numpy()


def _from_serials(serials: pd.Series) -> tuple[pd.Series, np.ndarray]:
    plausible = serials.between(*_SERIAL_RANGE)
    days = pd.to_timedelta(serials.where(plausible).floordiv(1), unit="D")
    dates = (EXCEL_EPOCH + days).astype("datetime64[ns]")
    return dates, (serials.notna() & ~plausible).to_numpy()


def _from_text(text: pd.Series) -> tuple[pd.Series, np.ndarray]:
    filled = (text != "").to_numpy(dtype=bool)
    cells = pa.array(text.where(filled), type=pa.large_string())
    parsed = pa.nulls(len(cells), pa.timestamp("s"))
    empty_cells = int((~filled).sum())
    for layout, day_pattern in _TEXT_LAYOUTS:
        if parsed.null_count == empty_cells:
            break
        parsed = pc.coalesce(parsed, _strict_strptime(cells, layout, day_pattern))
    dates = parsed.to_pandas().set_axis(text.index).astype("datetime64[ns]")
    missing = dates.isna().to_numpy() & filled
    if missing.any():  # timestamps with a time, "2026-01-05T10:00", and other ISO forms
        dates[missing] = pd.to_datetime(text[missing], format="ISO8601", errors="coerce")
        missing = dates.isna().to_numpy() & filled
    if missing.any():  # serials typed as text, "45356"
        serials = pd.to_numeric(text[missing], errors="coerce")
        dates[missing] = _from_serials(serials)[0]
    dates = dates.dt.normalize()
    return dates, filled & dates.isna().to_numpy()


def _strict_strptime(cells: pa.Array, layout: str, day_pattern: str) -> pa.Array:
    """Arrow's strptime (fast) with impossible days refused: it reads 2026-02-30 as March 2."""
    parsed = pc.strptime(cells, format=layout, unit="s", error_is_null=True)
    written_day = pc.struct_field(pc.extract_regex(cells, day_pattern), [0])
    same_day = pc.equal(pc.cast(written_day, pa.int64()), pc.day(parsed))
    return pc.if_else(pc.fill_null(same_day, False), parsed, pa.scalar(None, pa.timestamp("s")))
