"""Turn a batch read in a profile's source layout into the resource's canonical columns.

Runs between reading and validation: cells stay as written (``15.01.2026``, ``1.234,50``) so
the resource's schema reads them as it reads any file, and ``attrs["headers"]`` names each
resource column by the export's header, so a reject points at the cell a person can find. A
row a table leaves out (``AdBlue``), or whose value no table holds, is a reject here, with
the export's header and what the table knows. A cell a rule reads that shows a spreadsheet
error (``#N/A`` from a failed lookup in the export) is a FORMULA_ERROR here, before any table or
join could turn it into a value.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.profiles.catalog import ColumnRule, Profile
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.profiles.tables import Table, shipped_table, table_key, user_table
from emissions_etl.resources import ResourceSpec
from emissions_etl.sources.cells import as_text, is_blank
from emissions_etl.sources.formula_errors import formula_error, formula_errors
from emissions_etl.sources.frames import carried_origin

#: A value no table of the profile holds (and no default applies).
UNMAPPED_VALUE = RejectCode.UNMAPPED_VALUE
#: A value the table says is not an activity of the resource (a car wash on a fuel card).
NOT_AN_ACTIVITY = RejectCode.NOT_AN_ACTIVITY
#: How many known values a message lists before "...".
KNOWN_SHOWN = 12


@dataclass(frozen=True)
class _Lookup:
    """A rule's table, ready: results, reasons, and the values it knows."""

    table: Table
    values: Mapping[str, str]
    reasons: Mapping[str, str]
    extended_by: str


class ProfileMapper:
    """Applies one profile to batches for one resource, with the user's tables and defaults."""

    def __init__(self, profile: Profile, spec: ResourceSpec, inputs: ProfileInputs) -> None:
        check_profile(profile, spec)
        self.profile, self.spec, self.inputs = profile, spec, inputs
        self._lookups = {rule.column: self._lookup(rule) for rule in profile.rules if rule.map}

    def _lookup(self, rule: ColumnRule) -> _Lookup:
        assert rule.map is not None
        table = shipped_table(rule.map)
        extended_by = ""
        if rule.extend:
            given = self.inputs.get(rule.extend)
            if given:
                # A user's file gives the table's main result (the sector), whatever the rule
                # takes from it; columns it lacks keep the shipped values.
                table = table.extended(user_table(rule.map, Path(given), table.column(None)))
                extended_by = Path(given).name
        take = table.column(rule.take)
        return _Lookup(table, table.values(take), table.reasons(), extended_by)

    def apply(self, batch: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(the batch in the resource's columns, rejects for the rows left out of it)."""
        batch = batch.reset_index(drop=True)
        source_headers: dict[str, str] = dict(batch.attrs.get("headers", {}))
        out = pd.DataFrame(index=batch.index)
        headers: dict[str, str] = {}
        rejects = [empty_rejects()]
        drop = self._formula_errors(batch, source_headers, rejects)
        for rule in self.profile.rules:
            label = rule.label or self._label(rule, source_headers)
            headers[rule.column] = label
            applies = self._applies(rule, out)
            values, missing, left_out = self._values(rule, batch)
            missing, left_out = missing & applies & ~drop, left_out & applies & ~drop
            if rule.column in self._lookups:
                lookup = self._lookups[rule.column]
                keys = _text(batch, rule.sources[0])
                rejects.append(self._left_out(batch, keys, left_out, lookup, label))
                rejects.append(self._unmapped(batch, keys, missing, lookup, rule, label))
            drop |= left_out | missing
            out[rule.column] = values if applies.all() else values.where(applies, "")
        for name in carried_origin(batch):
            out[name] = batch[name].to_numpy()
        out = out[~drop].reset_index(drop=True)
        out.attrs["headers"] = headers
        return out, pd.concat(rejects, ignore_index=True)

    def _formula_errors(
        self, batch: pd.DataFrame, source_headers: Mapping[str, str], rejects: list[pd.DataFrame]
    ) -> np.ndarray:
        """Rows with a cell the rules read that shows a spreadsheet error: one reject per cell
        (at the export's header), and the rows to leave out."""
        drop = np.zeros(len(batch), dtype=bool)
        read = dict.fromkeys(key for rule in self.profile.rules for key in rule.sources)
        for key in (key for key in read if key in batch):
            written = as_text(batch[key])
            shown = formula_errors(written, trimmed=True)
            if shown is None:
                continue
            label = source_headers.get(key, self.profile.source(key).headers[0])
            for text in shown.dropna().unique():
                error = formula_error(str(text))
                assert error is not None
                rows = (shown == text).fillna(False).to_numpy(dtype=bool)
                rejects.append(make_rejects(
                    batch[rows], column=label, value=written[rows], code=RejectCode.FORMULA_ERROR,
                    message=f"{label} {error.sentence()}.",
                ))  # fmt: skip
                drop |= rows
        return drop

    def _label(self, rule: ColumnRule, source_headers: Mapping[str, str]) -> str:
        if not rule.sources:
            return f"{rule.column} ({self.profile.name})"
        return " + ".join(
            source_headers.get(key, self.profile.source(key).headers[0]) for key in rule.sources
        )

    def _values(
        self, rule: ColumnRule, batch: pd.DataFrame
    ) -> tuple[pd.Series, np.ndarray, np.ndarray]:
        """(values, rows whose value no table holds, rows the table leaves out)."""
        none = np.zeros(len(batch), dtype=bool)
        if rule.value is not None:
            return pd.Series(rule.value, index=batch.index, dtype="str"), none, none
        if len(rule.sources) > 1:
            parts = [_text(batch, key) for key in rule.sources]
            joined = parts[0]
            for part in parts[1:]:
                joined = joined + rule.separator + part
            joined = joined.where(~np.logical_or.reduce([p == "" for p in parts]), "")
            return self._defaulted(rule, joined), none, none
        if rule.column not in self._lookups:
            values = batch[rule.sources[0]] if rule.sources[0] in batch else _empty(batch)
            return self._defaulted(rule, values), none, none
        lookup = self._lookups[rule.column]
        written = _text(batch, rule.sources[0])
        # table_key, vectorised: trimmed, runs of spaces as one, case folded.
        keys = written.str.strip().str.replace(r"\s+", " ", regex=True).str.casefold()
        mapped = _looked_up(keys, lookup.values)
        known = mapped.notna().to_numpy()
        left_out = known & (mapped.fillna("") == "").to_numpy()
        filled = (written != "").to_numpy()
        if rule.unknown == "keep":
            mapped = mapped.where(known, written)
        mapped = self._defaulted(rule, mapped.fillna(""))
        missing = filled & ~known & (rule.unknown == "reject") & is_blank(mapped)
        return mapped, missing, left_out & filled

    def _defaulted(self, rule: ColumnRule, values: pd.Series) -> pd.Series:
        default = rule.default
        if rule.default_input and self.inputs.get(rule.default_input):
            default = str(self.inputs.get(rule.default_input))
        if default is None:
            return values
        return values.where(~is_blank(values), default)

    def _applies(self, rule: ColumnRule, out: pd.DataFrame) -> np.ndarray:
        """Rows where the rule sets its column (``when`` and ``if_empty`` hold)."""
        keep = np.ones(len(out), dtype=bool)
        for column, allowed in rule.when.items():
            wanted = {value.casefold() for value in allowed}
            keep &= as_text(out[column]).str.casefold().isin(wanted).to_numpy()
        if rule.if_empty:
            keep &= is_blank(out[rule.if_empty])
        return keep

    def _left_out(
        self,
        batch: pd.DataFrame,
        keys: pd.Series,
        rows: np.ndarray,
        lookup: _Lookup,
        label: str,
    ) -> pd.DataFrame:
        if not rows.any():
            return empty_rejects()
        written = keys[rows]
        reasons = written.map(table_key).map(lookup.reasons).fillna("")
        message = (
            label + " '" + written + "' is not "
            + f"a {self.spec.name.replace('_', ' ')} activity"
            + reasons.map(lambda r: f": {r}" if r else "")
            + "; the row is left out."
        )  # fmt: skip
        return make_rejects(
            batch[rows], column=label, value=written, code=NOT_AN_ACTIVITY, message=message
        )

    def _unmapped(
        self,
        batch: pd.DataFrame,
        keys: pd.Series,
        rows: np.ndarray,
        lookup: _Lookup,
        rule: ColumnRule,
        label: str,
    ) -> pd.DataFrame:
        if not rows.any():
            return empty_rejects()
        where = f"the {lookup.table.name} table"
        if lookup.extended_by:
            where += f" nor in {lookup.extended_by}"
        fix = ""
        if rule.extend:
            option = rule.extend.replace("_", "-")
            fix = f" Add it to a file given with --{option} (EMISSIONS_{rule.extend.upper()})."
        if rule.default_input:
            option = rule.default_input.replace("_", "-")
            fix += (
                f" Or give --{option} (EMISSIONS_{rule.default_input.upper()}) for rows "
                "without one."
            )
        written = keys[rows]
        known = lookup.table.known()
        messages = {
            value: f"{label} '{value}' is not in {where}{_suggest(value, known)}; "
            f"{rule.column} cannot be set.{fix}"
            for value in written.unique()
        }
        message = written.map(messages)
        return make_rejects(
            batch[rows], column=label, value=written, code=UNMAPPED_VALUE, message=message
        )


def check_profile(profile: Profile, spec: ResourceSpec) -> None:
    """The profile fits ``spec``: it is declared for it, feeds only its columns and every
    required one (ValueError otherwise: a profile out of step with its resource)."""
    if profile.resource != spec.name:
        raise ValueError(f"profile {profile.name} is for {profile.resource}, not {spec.name}")
    fed = [rule.column for rule in profile.rules]
    foreign = [c for c in fed if c not in spec.columns]
    if foreign:
        raise ValueError(
            f"profile {profile.name} feeds {', '.join(foreign)}, not columns of {spec.name} "
            f"({', '.join(spec.columns)})"
        )
    unfed = [c for c in spec.required_columns if c not in fed]
    if unfed:
        raise ValueError(f"profile {profile.name} does not feed {', '.join(unfed)}")


def _suggest(value: str, known: list[str]) -> str:
    """`` (did you mean ZMOE01?)`` when a known value is close, else the known values."""
    close = difflib.get_close_matches(value, known, n=3, cutoff=0.8)
    if close:
        return f" (did you mean {' or '.join(close)}?)"
    shown = ", ".join(known[:KNOWN_SHOWN]) + (", ..." if len(known) > KNOWN_SHOWN else "")
    return f" (known: {shown})"


def _looked_up(keys: pd.Series, table: Mapping[str, str]) -> pd.Series:
    """``keys`` through ``table`` (missing where absent), one dict lookup per distinct key."""
    codes, uniques = pd.factorize(keys)
    found = np.array([table.get(key) for key in uniques] + [None], dtype=object)
    return pd.Series(found[codes], index=keys.index, dtype="str")


def _text(batch: pd.DataFrame, key: str) -> pd.Series:
    return as_text(batch[key]) if key in batch else pd.Series("", index=batch.index, dtype="str")


def _empty(batch: pd.DataFrame) -> pd.Series:
    return pd.Series("", index=batch.index, dtype="str")


__all__ = ["NOT_AN_ACTIVITY", "UNMAPPED_VALUE", "ProfileMapper", "check_profile"]
