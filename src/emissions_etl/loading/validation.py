"""Validate one batch of any resource: typed valid rows go on, every bad cell becomes a reject.

Cells are first read by the kind their schema column declares (text, code, number, integer,
date, boolean, weekdays), then the resource's Pandera schema judges them; every failure is turned
into a reject a person can act on, worded from the check that failed. A cell showing a
spreadsheet error (``#DIV/0!``, ``#N/A``...) is a FORMULA_ERROR in whatever column, never an
empty cell nor a value: its row is rejected, whatever else it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd
import pandera.pandas as pandera

from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects, sort_rejects
from emissions_etl.domain.row_keys import ContentKeys, hex_digests, row_digests, row_keys
from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.loading.cell_kinds import ColumnRule, Parsed, column_rules, parse_column
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources.cells import as_text, is_blank
from emissions_etl.sources.formula_errors import formula_error, formula_errors
from emissions_etl.sources.frames import carried_origin
from emissions_etl_schemas.checks import COLUMN_CHECK_REJECTS, ROW_CHECK_REJECTS

#: Kinds whose reading keeps a cell's text: an error value passes it and is looked for there.
_TEXT_KINDS = frozenset({"text", "code", "choice"})


@dataclass(frozen=True)
class Failure:
    """Rows whose ``column`` broke one rule; ``sentence`` says what a good value is."""

    column: str
    rows: np.ndarray
    code: str
    sentence: str
    #: A row rule (several cells together) is worded as a whole sentence, without the value.
    row_rule: bool = False


@dataclass(frozen=True)
class ValidationResult:
    """Rows with every cell valid (typed, canonical, keyed and hashed) and one reject per bad
    cell."""

    valid: pd.DataFrame
    rejects: pd.DataFrame


def validate_batch(
    batch: pd.DataFrame,
    spec: ResourceSpec,
    content_keys: ContentKeys | None = None,
    *,
    given_keys: pd.Series | None = None,
) -> ValidationResult:
    """Judge a batch from ``read_source`` against ``spec``'s schema.

    Adds ``source_key`` (``given_keys`` when its source names each row, a table source by its
    ``--key``; else the natural key, or ``client_row_id``, or the row's content numbered by
    ``content_keys``: pass one per file so its batches share the count; default: one for this
    batch alone, its source the file's name) and ``source_hash``; a missing required column
    is UnsupportedSourceError.
    """
    batch = batch.reset_index(drop=True)
    headers: dict[str, str] = dict(batch.attrs.get("headers", {}))
    _require_columns(batch, spec, headers)
    rules = column_rules(spec.schema)
    raw = {rule.name: _raw_column(batch, rule.name) for rule in rules}
    typed = pd.DataFrame(index=batch.index)
    failures: list[Failure] = []
    for rule in rules:
        parsed = parse_column(rule, raw[rule.name])
        values, bad, shown_errors = _formula_errors(rule, raw[rule.name], parsed)
        failures += shown_errors
        typed[rule.name] = values
        if bad.any():
            failures.append(Failure(rule.name, bad, parsed.code, parsed.message))
    if spec.prepare is not None:
        typed = spec.prepare(typed)
    for name in carried_origin(batch):
        typed[name] = batch[name].to_numpy()
    typed["source_key"] = (
        row_keys(typed, spec.natural_key) if given_keys is None else given_keys.to_numpy()
    )
    # Empty as written and still empty after ``prepare`` (which may fill defaults): an
    # unreadable cell is reported as unreadable, not as missing.
    blank = {
        rule.name: is_blank(raw[rule.name]) & typed[rule.name].isna().to_numpy() for rule in rules
    }
    failures += _schema_failures(spec, typed, blank, failures)
    failures.append(_duplicate_keys(typed, spec))
    bad = np.zeros(len(typed), dtype=bool)
    rejects = [empty_rejects()]
    for failure in failures:
        if failure.rows.any():
            bad |= failure.rows
            rejects.append(_to_rejects(typed, raw, headers, failure))
    valid = typed[~bad].reset_index(drop=True)
    digests = row_digests(valid[list(spec.columns)])
    valid["source_hash"] = hex_digests(digests, valid.index)
    if content_keys is None:
        content_keys = ContentKeys(str(batch["_file"].iloc[0]) if len(batch) else "")
    valid["source_key"] = content_keys.fill(valid["source_key"], digests)
    valid.attrs["headers"] = headers
    return ValidationResult(valid, sort_rejects(pd.concat(rejects, ignore_index=True)))


def _require_columns(batch: pd.DataFrame, spec: ResourceSpec, headers: dict[str, str]) -> None:
    # A file without a required column cannot give a single valid row: refuse it whole.
    missing = [name for name in spec.required_columns if name not in batch.columns]
    if missing:
        file = str(batch["_file"].iloc[0]) if len(batch) else "input"
        found = ", ".join(headers.values()) or "none"
        raise UnsupportedSourceError(
            file, f"no column for {', '.join(missing)} of {spec.name} (headers: {found})"
        )


def _formula_errors(
    rule: ColumnRule, raw: pd.Series, parsed: Parsed
) -> tuple[pd.Series, np.ndarray, list[Failure]]:
    """The column's values and unreadable cells without the cells showing a spreadsheet error
    (emptied: they hold no value), and a FORMULA_ERROR failure per error value shown.

    Such a cell is among those that could not be read (a number, a date, a yes/no column) or,
    in a column read as text, among its text: only those are looked at, the text in Arrow.
    """
    shown = formula_errors(raw[parsed.bad]) if parsed.bad.any() else None
    shown = shown.reindex(raw.index) if shown is not None else None
    among_text = formula_errors(parsed.values, trimmed=True) if rule.kind in _TEXT_KINDS else None
    if among_text is not None:
        shown = among_text if shown is None else shown.where(shown.notna(), among_text)
    if shown is None:
        return parsed.values, parsed.bad, []
    errors = shown.notna().to_numpy(dtype=bool)
    failures = []
    for text in shown[errors].unique():
        error = formula_error(str(text))
        assert error is not None
        rows = errors & (shown == text).fillna(False).to_numpy(dtype=bool)
        failures.append(Failure(rule.name, rows, RejectCode.FORMULA_ERROR, error.sentence()))
    return parsed.values.where(~errors), parsed.bad & ~errors, failures


def _raw_column(batch: pd.DataFrame, name: str) -> pd.Series:
    if name in batch.columns:
        return batch[name]
    return pd.Series("", index=batch.index, dtype="str")


@cache
def _schema(spec_schema: type[pandera.DataFrameModel]) -> pandera.DataFrameSchema:
    return spec_schema.to_schema()


@dataclass(frozen=True)
class BrokenRule:
    """The rows of a frame that break one rule of a Pandera schema: a column's (its
    ``not_nullable`` or one of its checks) or, with ``column`` None, a check of the frame."""

    column: str | None
    check: str
    rows: np.ndarray
    statistics: Mapping[str, object]


def broken_rules(schema: pandera.DataFrameSchema, frame: pd.DataFrame) -> list[BrokenRule]:
    """Every rule of ``schema`` that some row of ``frame`` breaks, as ``schema.validate(frame,
    lazy=True)`` finds them (each Check run by Pandera on its column, missing values passing
    it; a non-nullable column's missing values), frame checks first, then by column and check.

    The checks are called one by one rather than through ``validate``: that gathers each
    failing column's cases into a frame of its own and then all of them into one, at many
    times what the checks cost, only for the rows to be read back out of it. The columns of
    ``frame`` are those of ``schema`` (already typed and present)."""
    broken = [
        BrokenRule(None, check.name, rows, dict(check.statistics or {}))
        for check in sorted(schema.checks, key=lambda check: check.name)
        if (rows := _failing_rows(check, frame)).any()
    ]
    for column in sorted(schema.columns):
        component = schema.columns[column]
        values = frame[column]
        found = [(check.name, _failing_rows(check, values), check) for check in component.checks]
        if not component.nullable:
            found.append(("not_nullable", values.isna().to_numpy(dtype=bool), None))
        for name, rows, check in sorted(found, key=lambda rule: rule[0]):
            if rows.any():
                statistics = dict(check.statistics or {}) if check is not None else {}
                broken.append(BrokenRule(str(column), name, rows, statistics))
    return broken


def _failing_rows(check: pandera.Check, data: pd.Series | pd.DataFrame) -> np.ndarray:
    """The rows ``check`` fails, as a mask over ``data``'s rows: Pandera runs it (leaving out
    missing values where it ignores them); an output that is not per row names no row.

    A column with no value at all has nothing such a check could fail: it is not run (its
    function may not take the column's dtype then, a text check on an empty float column)."""
    rows = np.zeros(len(data), dtype=bool)
    if check.ignore_na and isinstance(data, pd.Series) and not data.notna().any():
        return rows
    output = check(data).check_output
    if isinstance(output, pd.DataFrame):
        output = output.all(axis="columns")
    if isinstance(output, pd.Series):
        failed = ~output.astype(bool).to_numpy()
        rows[data.index.get_indexer(output.index[failed])] = True
    return rows


def _schema_failures(
    spec: ResourceSpec,
    typed: pd.DataFrame,
    blank: dict[str, np.ndarray],
    parse_failures: list[Failure],
) -> list[Failure]:
    """The schema's broken rules as failures: an empty required cell is REQUIRED; a filled cell
    that could not be read (already reported) is not reported again."""
    unread: dict[str, np.ndarray] = {}
    for failure in parse_failures:  # a column may have several (a formula error, a bad number)
        unread[failure.column] = unread.get(failure.column, False) | failure.rows
    schema = _schema(spec.schema)
    failures: list[Failure] = []
    for broken in broken_rules(schema, typed):
        if broken.column is None:
            rule = ROW_CHECK_REJECTS.get(broken.check)
            if rule is not None:
                column, reject = rule(broken.statistics)
                failures.append(
                    Failure(column, broken.rows, reject.code, reject.message, row_rule=True)
                )
            continue
        column = broken.column
        filled = broken.rows & ~blank[column]
        if column in unread:
            filled &= ~unread[column]
        failures.append(Failure(column, broken.rows & blank[column], RejectCode.REQUIRED, ""))
        if filled.any() and broken.check != "not_nullable":
            code, message = _check_reject(broken.check, broken.statistics)
            code = dict(schema.columns[column].metadata or {}).get("reject_code", code)
            failures.append(Failure(column, filled, code, message))
    return failures


def _check_reject(name: str, statistics: Mapping[str, object]) -> tuple[str, str]:
    """(code, sentence) for a failed column check, with its bound or choices in the sentence."""
    if name in COLUMN_CHECK_REJECTS:
        reject = COLUMN_CHECK_REJECTS[name]
        return reject.code, reject.message
    if name == "greater_than":
        bound = statistics.get("min_value")
        code = RejectCode.NOT_POSITIVE if bound == 0 else RejectCode.OUT_OF_RANGE
        return code, f"must be a number greater than {bound}"
    if name == "greater_than_or_equal_to":
        return RejectCode.OUT_OF_RANGE, f"must be at least {statistics.get('min_value')}"
    if name in ("less_than_or_equal_to", "less_than"):
        bound = statistics.get("max_value")
        return (
            RejectCode.OUT_OF_RANGE,
            f"must be at most {bound:,} (no real activity reaches more)"
            if isinstance(bound, int | float)
            else f"must be at most {bound}",
        )
    if name == "in_range":
        low, high = statistics.get("min_value"), statistics.get("max_value")
        return RejectCode.OUT_OF_RANGE, f"must be between {low} and {high}"
    if name == "isin":
        choices = statistics.get("allowed_values", ())
        listed = choices if isinstance(choices, Iterable) else (choices,)
        allowed = ", ".join(str(value) for value in listed)
        return RejectCode.INVALID_CHOICE, f"must be one of: {allowed}"
    if name == "str_length":
        return RejectCode.TOO_LONG, f"must be at most {statistics.get('max_value')} characters"
    return RejectCode.INVALID_FORMAT, f"fails the check {name}"


def _duplicate_keys(typed: pd.DataFrame, spec: ResourceSpec) -> Failure:
    keys = typed["source_key"]
    repeated = keys.duplicated(keep="first").to_numpy() & keys.notna().to_numpy()
    column = spec.natural_key[0] if spec.natural_key else "client_row_id"
    # A key of several columns is named whole: "country, date, ... are those of row 12".
    several = ",".join(spec.natural_key) if len(spec.natural_key) > 1 else ""
    return Failure(column, repeated, RejectCode.DUPLICATE_ROW_ID, several)


def _to_rejects(
    typed: pd.DataFrame, raw: dict[str, pd.Series], headers: dict[str, str], failure: Failure
) -> pd.DataFrame:
    rows = typed[failure.rows]
    column = failure.column
    source = raw.get(column)
    if source is not None:
        value = as_text(source[failure.rows])
    else:
        value = rows[column].astype("str") if column in rows else pd.Series("", index=rows.index)
    label = headers.get(column, column)
    quoted = "'" + value.astype("str") + "'"
    if failure.code == RejectCode.REQUIRED and not failure.sentence:
        message: pd.Series | str = f"{label} is required; this cell is empty."
    elif failure.code == RejectCode.DUPLICATE_ROW_ID:
        # Rows keyed by their content (no key yet) form no group: NaN there, never here.
        first = typed.groupby("source_key")["_row"].transform("first")[rows.index].astype("int64")
        message = (
            f"{label} " + quoted + " is already used by row " + first.astype("str")
            + "; give each row its own."
        )  # fmt: skip
        if failure.sentence:
            names = [headers.get(name, name) for name in failure.sentence.split(",")]
            message = (
                f"{', '.join(names[:-1])} and {names[-1]} are those of row " + first.astype("str")
                + ": the same record; give each row its own."
            )  # fmt: skip
    elif failure.code == RejectCode.FORMULA_ERROR:
        message = f"{label} {failure.sentence}."  # the value is the error: not repeated
    elif failure.row_rule:
        sentence = re.sub(
            r"\b[a-z][a-z0-9_]*\b", lambda word: headers.get(word[0], word[0]), failure.sentence
        )
        message = sentence[:1].upper() + sentence[1:] + "."
    else:
        message = f"{label} {failure.sentence}; got " + quoted + "."
    return make_rejects(rows, column=label, value=value, code=failure.code, message=message)


__all__ = [
    "BrokenRule",
    "ColumnRule",
    "Failure",
    "ValidationResult",
    "broken_rules",
    "validate_batch",
]
