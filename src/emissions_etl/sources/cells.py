"""How people write numbers, dates and codes in cells, turned into typed columns in one pass.

Each parser is vectorised and returns the typed column plus a mask of cells that were filled in
but could not be read (empty cells are not failures here: ``required`` decides about those).
No parser raises on any cell: text like ``1e400``, ``NaN``, ``1,2,3``, ``2026-02-30``, a date
in year 10000, a time-zone offset or a huge integer is a bad cell in the mask, never an error.
"""

from __future__ import annotations

import datetime as dt
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

#: Excel's day zero for the 1900 date system (serial 1 = 1900-01-01, with the 1900 leap bug).
EXCEL_EPOCH = pd.Timestamp("1899-12-30")
#: Serials a waste record can plausibly carry: 1950-01-01 .. 2099-12-31.
_SERIAL_RANGE = (18264, 73050)
#: Dates taken from text and from date cells: 1900-01-01 .. 2199-12-31 (a date outside is a
#: typo such as 20026, and would not fit the datetime64[ns] columns validation builds).
DATE_RANGE = (pd.Timestamp("1900-01-01"), pd.Timestamp("2200-01-01"))
#: Number text read by Arrow's cast directly, or after turning the decimal comma into a dot
#: (ASCII digits only: ``\d`` would also match other scripts' digits, which Arrow refuses).
_PLAIN_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"
_DECIMAL_COMMA = r"[+-]?[0-9]+,[0-9]+"
#: Thousands separators, only where they group digits by three: ``1,234,567.5``,
#: ``1.234.567,5``, ``1'234.5``; anything else with separators (``1,2,3``) is not a number.
_COMMA_THOUSANDS = r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?"
_DOT_THOUSANDS = r"[+-]?[0-9]{1,3}(?:\.[0-9]{3})+(?:,[0-9]+)?"
_APOSTROPHE_THOUSANDS = r"[+-]?[0-9]{1,3}(?:'[0-9]{3})+(?:[.,][0-9]+)?"
#: NUL and the other C0 and C1 control characters; tab, line feed and carriage return are the
#: ones a cell may hold (Alt+Enter in Excel, pasted text).
CONTROL_CHARACTERS = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
#: A date followed by a time and perhaps a zone: the date is kept as written.
_DATE_WITH_TIME = (
    r"^(?P<date>[0-9]{1,4}[-/.][0-9]{1,2}[-/.][0-9]{1,4})(?:T|\s+)[0-9]{1,2}:[0-9]{2}"
    r"(?::[0-9]{2}(?:[.,][0-9]+)?)?\s*(?:Z|z|UTC|GMT|[+-][0-9]{2}(?::?[0-9]{2})?)?$"
)
_DATE_TYPES = (dt.date, pd.Timestamp, np.datetime64)
_NUMBER_TYPES = (int, float, np.integer, np.floating)
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


def has_control_characters(values: pd.Series) -> np.ndarray:
    """True for text cells holding NUL or another control character (CONTROL_CHARACTERS; tab,
    line feed and carriage return are allowed). Numbers and dates never hold any."""
    if is_text_dtype(values) or (values.dtype == object and object_kind(values) in _TEXTUAL_KINDS):
        found = values.str.contains(CONTROL_CHARACTERS, regex=True)
        return found.fillna(False).to_numpy(dtype=bool)
    return np.zeros(len(values), dtype=bool)


def escape_control_characters(text: str) -> str:
    """``text`` with each of CONTROL_CHARACTERS written as its escape (``\\x00``), so that it
    shows where it is without acting on a terminal or breaking a file format."""
    return _CONTROL_PATTERN.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


_CONTROL_PATTERN = re.compile(CONTROL_CHARACTERS)


def as_text(values: pd.Series) -> pd.Series:
    """Cells as trimmed text: "" when empty, ``12`` not ``12.0``, dates as ``YYYY-MM-DD``."""
    if values.dtype == object:
        kind = object_kind(values)
        if kind in ("string", "empty"):
            return values.fillna("").astype("str").str.strip()
        if kind in ("floating", "integer") and (floats := _as_floats(values)) is not None:
            return _numbers_as_text(floats)
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
        floats = _as_floats(values[is_number])
        out[is_number] = values[is_number].map(str) if floats is None else _numbers_as_text(floats)
    is_date = kinds.isin([dt.date, dt.datetime, pd.Timestamp]).to_numpy()
    if is_date.any():
        out[is_date] = _date_objects_as_text(values[is_date])
    other = ~(is_str | is_number | is_date) & values.notna().to_numpy()
    if other.any():
        out[other] = values[other].map(str)
    return out


def _as_floats(values: pd.Series) -> pd.Series | None:
    """float64 of number cells; None when one does not fit (a Python int of 400 digits)."""
    try:
        return values.astype("float64")
    except (OverflowError, ValueError, TypeError):
        return None


def _date_objects_as_text(values: pd.Series) -> pd.Series:
    try:
        return _datetimes_as_text(_wall_clock(values))
    except (ValueError, TypeError, OverflowError):
        return values.map(str)


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
    shown: pd.Series = text.astype("str")
    return shown


#: Object columns holding only numbers (a spreadsheet's ``12`` and ``12.5`` in one column is
#: "mixed-integer-float"), cast to float64 at once: reading them back from their text gives
#: the same floats, far more slowly.
_NUMBER_KINDS = ("floating", "integer", "mixed-integer-float", "empty")


def parse_number(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Floats from numbers and from text like ``12,5``, ``1.234,5``, ``1,234.5``, ``1 234``."""
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        numbers = values.astype("float64")
        return _finite(numbers)
    if values.dtype == object and object_kind(values) in _NUMBER_KINDS:
        floats = _as_floats(values)
        if floats is not None:
            return _finite(floats)
    text = as_text(values)
    if text.str.contains(" ", regex=False).any():
        text = text.str.replace(" ", "", regex=False)
    if text.str.contains("\u2212", regex=False).any():  # the typographic minus sign
        text = text.str.replace("\u2212", "-", regex=False)
    numbers = pd.Series(np.nan, index=values.index, dtype="float64")
    plain = text.str.fullmatch(_PLAIN_NUMBER).fillna(False).to_numpy(dtype=bool)
    numbers[plain] = _cast_float(text[plain])
    comma = ~plain & text.str.fullmatch(_DECIMAL_COMMA).fillna(False).to_numpy(dtype=bool)
    numbers[comma] = _cast_float(text[comma].str.replace(",", ".", regex=False))
    filled = (text != "").to_numpy(dtype=bool)
    other = filled & ~plain & ~comma
    if other.any():  # thousands separators, exotic spaces, "1e3", "inf"...
        numbers[other] = _to_numeric(_normalise_number_text(text[other]))
    bad = filled & ~np.isfinite(numbers.to_numpy())
    return numbers.where(~bad), bad


def _finite(numbers: pd.Series) -> tuple[pd.Series, np.ndarray]:
    bad = ~np.isfinite(numbers.fillna(0).to_numpy())
    return (numbers.where(~bad) if bad.any() else numbers), bad


def _cast_float(text: pd.Series) -> np.ndarray:
    try:
        numbers: np.ndarray = pc.cast(pa.array(text, type=pa.large_string()),
                                      pa.float64()).to_numpy(zero_copy_only=False)  # fmt: skip
        return numbers
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return _to_numeric(text).to_numpy()


def _to_numeric(text: pd.Series) -> pd.Series:
    """pandas' reading of number text, NaN for anything it cannot read (never raises)."""
    try:
        return pd.to_numeric(text, errors="coerce").astype("float64")
    except (ValueError, TypeError, OverflowError):
        return pd.Series(np.nan, index=text.index, dtype="float64")


def _normalise_number_text(text: pd.Series) -> pd.Series:
    """Thousands separators dropped and the decimal mark made a dot, where the separators
    group digits by three; other text is left for pandas (``1e3``, ``inf``) or refused."""
    text = text.str.replace(r"[\s\u00a0\u202f]", "", regex=True)
    comma = text.str.fullmatch(_COMMA_THOUSANDS).fillna(False)
    dot = text.str.fullmatch(_DOT_THOUSANDS).fillna(False)
    apostrophe = text.str.fullmatch(_APOSTROPHE_THOUSANDS).fillna(False)
    out = text.where(~comma, text.str.replace(",", "", regex=False))
    out = out.where(~dot, text.str.replace(".", "", regex=False).str.replace(",", ".", regex=False))
    return out.where(
        ~apostrophe, text.str.replace("'", "", regex=False).str.replace(",", ".", regex=False)
    )


def parse_date(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Dates (midnight, datetime64[ns]) from real dates, Excel serials, ISO and ``dd/mm/yyyy``
    text; a time after the date is dropped and the date kept as written, whatever its zone
    (``2026-03-01T23:30:00-05:00`` is 2026-03-01). Dates outside DATE_RANGE are bad cells."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        dates = values.dt.tz_localize(None) if values.dt.tz is not None else values
        return _in_range(dates, values.notna().to_numpy())
    if pd.api.types.is_numeric_dtype(values.dtype) and values.dtype != bool:
        return _from_serials(values.astype("float64"))
    if is_text_dtype(values):
        return _from_text(values.fillna("").str.strip())
    kind = object_kind(values)
    if kind in ("date", "datetime", "datetime64"):
        return _from_date_objects(values)
    if kind in ("floating", "integer", "empty") and (floats := _as_floats(values)) is not None:
        return _from_serials(floats)
    if kind == "string":
        return _from_text(values.fillna("").astype("str").str.strip())
    out = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns]")
    bad = np.zeros(len(values), dtype=bool)
    is_date = values.map(lambda value: isinstance(value, _DATE_TYPES)).to_numpy(dtype=bool)
    if is_date.any():
        out[is_date], bad[is_date] = _from_date_objects(values[is_date])
    is_number = (
        values.map(
            lambda value: isinstance(value, _NUMBER_TYPES) and not isinstance(value, bool)
        ).to_numpy(dtype=bool)
        & values.notna().to_numpy()
    )
    if is_number.any():
        floats = _as_floats(values[is_number])
        if floats is None:
            bad[is_number] = True
        else:
            out[is_number], bad[is_number] = _from_serials(floats)
    rest = ~(is_date | is_number) & values.notna().to_numpy()
    if rest.any():
        out[rest], bad[rest] = _from_text(as_text(values[rest]))
    return out, bad


def _in_range(dates: pd.Series, filled: np.ndarray) -> tuple[pd.Series, np.ndarray]:
    """Naive datetimes (any unit) as datetime64[ns] midnights; NaT and bad outside DATE_RANGE."""
    inside = ((dates >= DATE_RANGE[0]) & (dates < DATE_RANGE[1])).to_numpy(dtype=bool)
    dates = dates.where(inside).dt.normalize().astype("datetime64[ns]")
    return dates, filled & ~inside


def _from_date_objects(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Dates from date, datetime and Timestamp objects, zones dropped (the wall-clock date)."""
    try:
        dates = _wall_clock(values)
    except (ValueError, TypeError, OverflowError):
        dates = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns]")
    return _in_range(dates, values.notna().to_numpy())


def _wall_clock(values: pd.Series) -> pd.Series:
    """Naive datetimes of date objects; each zone's wall clock when they carry zones."""
    try:
        dates = pd.to_datetime(values, errors="coerce")
    except (ValueError, TypeError):  # several zones in one column
        dates = pd.to_datetime(values.map(_without_zone), errors="coerce")
    if isinstance(dates.dtype, pd.DatetimeTZDtype):
        return dates.dt.tz_localize(None)
    lost = dates.isna().to_numpy() & values.notna().to_numpy()
    if lost.any():  # zoned values among naive ones are dropped by to_datetime: one by one
        dates[lost] = pd.to_datetime(values[lost].map(_without_zone), errors="coerce")
    return dates


def _without_zone(value: object) -> object:
    if isinstance(value, pd.Timestamp) and value.tz is not None:
        return value.tz_localize(None)
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.replace(tzinfo=None)
    return value


def _from_serials(serials: pd.Series) -> tuple[pd.Series, np.ndarray]:
    plausible = serials.between(*_SERIAL_RANGE)
    days = pd.to_timedelta(serials.where(plausible).floordiv(1), unit="D")
    dates = (EXCEL_EPOCH + days).astype("datetime64[ns]")
    return dates, (serials.notna() & ~plausible).to_numpy()


def _from_text(text: pd.Series) -> tuple[pd.Series, np.ndarray]:
    filled = (text != "").to_numpy(dtype=bool)
    dates = _from_layouts(text, filled)
    missing = dates.isna().to_numpy() & filled
    if missing.any():  # "2026-01-05T10:00:00+02:00", "05.01.2026 10:00": the date as written
        written = text[missing].str.extract(_DATE_WITH_TIME)["date"].fillna("").astype("str")
        dates[missing] = _from_layouts(written, (written != "").to_numpy(dtype=bool))
        missing = dates.isna().to_numpy() & filled
    if missing.any():  # serials typed as text, "45356"
        serials = _to_numeric(text[missing])
        dates[missing] = _from_serials(serials)[0]
        missing = dates.isna().to_numpy() & filled
    if missing.any():  # other ISO 8601 forms: "20260105", "2026-01-05T10:00"
        dates[missing] = _iso_dates(text[missing])
    return _in_range(dates, filled)


def _from_layouts(text: pd.Series, filled: np.ndarray) -> pd.Series:
    """Text in one of _TEXT_LAYOUTS (impossible days refused), as datetime64[s]; NaT else."""
    cells = pa.array(text.where(filled), type=pa.large_string())
    parsed = pa.nulls(len(cells), pa.timestamp("s"))
    empty_cells = int((~filled).sum())
    for layout, day_pattern in _TEXT_LAYOUTS:
        if parsed.null_count == empty_cells:
            break
        parsed = pc.coalesce(parsed, _strict_strptime(cells, layout, day_pattern))
    dates: pd.Series = parsed.to_pandas().set_axis(text.index).astype("datetime64[s]")
    return dates


def _iso_dates(text: pd.Series) -> pd.Series:
    """Other ISO 8601 text, zones dropped (the wall-clock date); NaT where it is not."""
    try:
        dates = pd.to_datetime(text, format="ISO8601", errors="coerce")
    except (ValueError, TypeError, OverflowError):  # several zones: read them one by one
        dates = pd.to_datetime(text.map(_one_iso_date), errors="coerce")
    if isinstance(dates.dtype, pd.DatetimeTZDtype):
        dates = dates.dt.tz_localize(None)
    return dates.astype("datetime64[s]")


def _one_iso_date(text: str) -> object:
    try:
        return _without_zone(pd.Timestamp(text))
    except (ValueError, TypeError, OverflowError):
        return pd.NaT


def _strict_strptime(cells: pa.Array, layout: str, day_pattern: str) -> pa.Array:
    """Arrow's strptime (fast) with impossible days refused: it reads 2026-02-30 as March 2."""
    parsed = pc.strptime(cells, format=layout, unit="s", error_is_null=True)
    written_day = pc.struct_field(pc.extract_regex(cells, day_pattern), [0])
    same_day = pc.equal(pc.cast(written_day, pa.int64()), pc.day(parsed))
    return pc.if_else(pc.fill_null(same_day, False), parsed, pa.scalar(None, pa.timestamp("s")))
