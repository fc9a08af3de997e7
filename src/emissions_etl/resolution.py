"""Resolve the names people write to the ids the service wants, without calling it.

The lead fetches the lookups once per load (``lookups.fetch_waste_lookups``); this module only
maps: facility name or id -> facility id, (LER, RD) -> waste_efs_id, kg/t -> unit id. A name
that does not resolve becomes a reject saying what is known instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pandera.pandas as pandera

from emissions_etl.rejects import RejectCode, empty_rejects, make_rejects, sort_rejects
from emissions_etl.sources.frames import ORIGIN_COLUMNS
from emissions_etl_schemas.wastes import WasteRecord

RECORD_COLUMNS = tuple(WasteRecord.to_schema().columns)
_RECORD_SCHEMA = WasteRecord.to_schema()
_KNOWN_SHOWN = 6


@dataclass(frozen=True)
class ResolutionResult:
    """API records (``WasteRecord`` columns + origin + ``source_hash``) and what did not resolve."""

    records: pd.DataFrame
    rejects: pd.DataFrame


def resolve_wastes(
    valid: pd.DataFrame,
    *,
    facilities: Mapping[str, str],
    waste_efs: Mapping[tuple[str, str], str],
    units: Mapping[str, str],
) -> ResolutionResult:
    """Map ``validate_wastes`` output to API records; unknown names become rejects."""
    valid = valid.reset_index(drop=True)
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    facility_ids = _facility_ids(valid, facilities)
    efs_ids = _waste_ef_ids(valid, waste_efs)
    unit_ids = valid["unit"].map(dict(units)).astype("str")
    no_unit = (unit_ids.isna() & (valid["unit"] != "kg")).to_numpy(dtype=bool)
    unknown_facility = facility_ids.isna().to_numpy(dtype=bool)
    unknown_ef = efs_ids.isna().to_numpy(dtype=bool)
    rejects = [
        _facility_rejects(valid[unknown_facility], facilities, headers),
        _waste_ef_rejects(valid[unknown_ef], waste_efs, headers),
        _unit_rejects(valid[no_unit], units, headers),
    ]
    keep = ~(unknown_facility | unknown_ef | no_unit)
    records = _records(valid[keep], facility_ids[keep], efs_ids[keep], unit_ids[keep])
    records, refused = _check_records(records)
    rejects.append(refused)
    frame = sort_rejects(pd.concat([empty_rejects(), *rejects], ignore_index=True))
    return ResolutionResult(records, frame)


def _facility_ids(valid: pd.DataFrame, facilities: Mapping[str, str]) -> pd.Series:
    # Facility names are matched trimmed and case-insensitively; ids map to themselves.
    lookup = {str(key).strip().lower(): str(value) for key, value in facilities.items()}
    return valid["facility"].str.strip().str.lower().map(lookup)


def _waste_ef_ids(valid: pd.DataFrame, waste_efs: Mapping[tuple[str, str], str]) -> pd.Series:
    lookup = {
        f"{str(ler).replace(' ', '')}|{str(rd).upper()}": str(ef)
        for (ler, rd), ef in waste_efs.items()
    }
    return (valid["ler_code"] + "|" + valid["rd_code"]).map(lookup)


def _records(
    valid: pd.DataFrame, facility_ids: pd.Series, efs_ids: pd.Series, unit_ids: pd.Series
) -> pd.DataFrame:
    records = pd.DataFrame(
        {
            "facility_id": facility_ids.astype("str"),
            "identification_name": valid["identification_name"],
            "start_date": valid["start_date"],
            "end_date": valid["end_date"],
            "base_quantity": valid["base_quantity"].astype("float64"),
            "unit_id": unit_ids.astype("str"),
            "waste_efs_id": efs_ids.astype("str"),
            "description": valid["description"],
            "destination": valid["destination"],
            "total_km_to_waste_center": np.nan,
            "client_row_id": valid["client_row_id"],
            "custom_ef_record_id": pd.Series(pd.NA, index=valid.index, dtype="str"),
        }
    )
    for name in (*ORIGIN_COLUMNS, "source_hash"):
        records[name] = valid[name]
    return records.reset_index(drop=True)


def _check_records(records: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Validate against ``WasteRecord``; a row it refuses (a lookup gave a malformed id) is
    rejected rather than sent, so the service never sees it."""
    try:
        _RECORD_SCHEMA.validate(records, lazy=True)
        return records, empty_rejects()
    except pandera.errors.SchemaErrors as errors:
        cases = errors.failure_cases
    cases = cases[cases["index"].notna()].drop_duplicates("index")
    bad = np.zeros(len(records), dtype=bool)
    bad[cases["index"].astype("int64").to_numpy()] = True
    refused = records[bad]
    columns = cases.set_index(cases["index"].astype("int64"))["column"].reindex(refused.index)
    message = "The service would refuse this row's " + columns.astype("str") + " ("
    message = message + cases.set_index(cases["index"].astype("int64"))["check"].astype("str")
    rejects = make_rejects(
        refused,
        column=", ".join(sorted(set(columns.astype("str")))),
        value=pd.Series("", index=refused.index),
        code=RejectCode.REJECTED_BY_SERVICE,
        message=message.reindex(refused.index) + ").",
    )
    return records[~bad].reset_index(drop=True), rejects


def _known_names(facilities: Mapping[str, str]) -> list[str]:
    ids = {str(value).lower() for value in facilities.values()}
    return sorted({str(key).strip() for key in facilities if str(key).lower() not in ids})


def _facility_rejects(
    rows: pd.DataFrame, facilities: Mapping[str, str], headers: dict[str, str]
) -> pd.DataFrame:
    if rows.empty:
        return empty_rejects()
    known = _known_names(facilities)
    shown = ", ".join(known[:_KNOWN_SHOWN]) + (", ..." if len(known) > _KNOWN_SHOWN else "")
    messages = {}
    for name in rows["facility"].unique():  # one sentence per distinct unknown name
        close = difflib.get_close_matches(name.strip().lower(), known, n=1, cutoff=0.75)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        messages[name] = (
            f"No facility named '{name}' in this organization; known: {shown or 'none'}.{hint}"
        )
    return make_rejects(
        rows,
        column=headers.get("facility", "facility"),
        value=rows["facility"],
        code=RejectCode.UNKNOWN_FACILITY,
        message=rows["facility"].map(messages),
    )


def _waste_ef_rejects(
    rows: pd.DataFrame, waste_efs: Mapping[tuple[str, str], str], headers: dict[str, str]
) -> pd.DataFrame:
    if rows.empty:
        return empty_rejects()
    treatments: dict[str, list[str]] = {}
    for ler, rd in waste_efs:
        treatments.setdefault(str(ler).replace(" ", ""), []).append(str(rd).upper())
    pairs = rows["ler_code"] + "|" + rows["rd_code"]
    messages = {}
    for pair in pairs.unique():
        ler, rd = pair.split("|")
        spaced = f"{ler[:2]} {ler[2:4]} {ler[4:]}"
        if ler in treatments:
            allowed = ", ".join(sorted(treatments[ler]))
            messages[pair] = (
                f"LER code {spaced} cannot be combined with {rd}; use one of: {allowed}."
            )
        else:
            messages[pair] = (
                f"LER code {spaced} has no emission factor in the service; check the code."
            )
    return make_rejects(
        rows,
        column=headers.get("ler_code", "ler_code"),
        value=rows["ler_code"] + " / " + rows["rd_code"],
        code=RejectCode.UNKNOWN_WASTE_EF,
        message=pairs.map(messages),
    )


def _unit_rejects(
    rows: pd.DataFrame, units: Mapping[str, str], headers: dict[str, str]
) -> pd.DataFrame:
    known = ", ".join(sorted(units)) or "none"
    return make_rejects(
        rows,
        column=headers.get("unit", "unit"),
        value=rows["unit"],
        code=RejectCode.INVALID_UNIT,
        message="The service has no unit '" + rows["unit"] + f"'; known: {known}.",
    )
