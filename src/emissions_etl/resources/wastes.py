"""Wastes: v2 bulk ingest jobs, calculated asynchronously, read back by ingest job.

A row names its facility, LER and RD codes and unit; they resolve to ``facility_id``,
``waste_efs_id`` and ``unit_id`` through the service's reference lists.
"""

from __future__ import annotations

import pandas as pd

from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.resources._records import keep_origin, text_of
from emissions_etl.resources._references import FACILITIES, UNITS
from emissions_etl.resources._spec import (
    Finding,
    IngestJobBulk,
    Readback,
    ResourceSpec,
    ViewColumn,
)
from emissions_etl.warehouse import CoverageEntity, CoverageRule, InventoryRule
from emissions_etl_schemas.wastes import INPUT_ALIASES, REQUIRED_INPUT_COLUMNS, WasteInput

WASTE_EFS = ReferenceList(
    "waste_efs", "/v1/waste-efs", keys=(), params={"region": "GLO"}, label="waste factor"
)
#: Unit names the service may use, by the short form spreadsheets use.
UNIT_NAMES = {"kg": ("kg", "kilogram", "kilograms"), "t": ("t", "tonne", "tonnes", "ton")}


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """kg when the unit is empty; ``R03`` read as ``R3``."""
    typed["unit"] = typed["unit"].fillna("kg")
    rd = typed["rd_code"]
    if (rd.str.slice(1, 2) == "0").any():  # a backreference-free pattern stays in Arrow's C code
        typed["rd_code"] = rd.str.replace(r"^R0+", "R", regex=True).str.replace(
            r"^D0+", "D", regex=True
        )
    return typed


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Facility, waste factor and unit ids for valid rows; unknown names become rejects."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    facility_ids = refs["facilities"].resolve(valid["facility"])
    pairs = valid["ler_code"] + "|" + valid["rd_code"]
    ef_lookup = {
        f"{item['low_code']}|{str(item['rd_code']).upper()}": str(item["id"])
        for item in refs["waste_efs"].items
    }
    ef_ids = pairs.map(ef_lookup)
    unit_ids = valid["unit"].map(_unit_ids(refs))
    no_facility = facility_ids.isna().to_numpy()
    no_ef = ef_ids.isna().to_numpy() & ~no_facility
    no_unit = unit_ids.isna().to_numpy() & ~no_facility & ~no_ef
    rejects = [
        unknown_rejects(
            valid[no_facility],
            column="facility",
            headers=headers,
            table=refs["facilities"],
            code=RejectCode.UNKNOWN_FACILITY,
        ),
        _waste_ef_rejects(valid[no_ef], refs, headers),
        make_rejects(
            valid[no_unit],
            column=headers.get("unit", "unit"),
            value=valid.loc[no_unit, "unit"],
            code=RejectCode.INVALID_UNIT,
            message="The service has no unit '" + valid.loc[no_unit, "unit"] + "'.",
        ),
    ]
    keep = ~(no_facility | no_ef | no_unit)
    rows = valid[keep]
    records = pd.DataFrame(
        {
            "facility_id": facility_ids[keep],
            "identification_name": rows["identification_name"],
            "start_date": rows["start_date"],
            "end_date": rows["end_date"],
            "base_quantity": rows["base_quantity"].astype("float64"),
            "unit_id": unit_ids[keep],
            "waste_efs_id": ef_ids[keep],
            "description": rows["description"].fillna(""),
            "destination": rows["destination"].fillna(""),
            "total_km_to_waste_center": rows["total_km_to_waste_center"],
            "client_row_id": rows["source_key"],
        }
    )
    return keep_origin(records, rows), pd.concat([empty_rejects(), *rejects], ignore_index=True)


def _unit_ids(refs: References) -> dict[str, str]:
    by_name = {str(u.get("name", "")).strip().lower(): str(u["id"]) for u in refs["units"].items}
    return {
        short: next(by_name[name] for name in names if name in by_name)
        for short, names in UNIT_NAMES.items()
        if any(name in by_name for name in names)
    }


def _waste_ef_rejects(
    rows: pd.DataFrame, refs: References, headers: dict[str, str]
) -> pd.DataFrame:
    if rows.empty:
        return empty_rejects()
    treatments: dict[str, list[str]] = {}
    for item in refs["waste_efs"].items:
        treatments.setdefault(str(item["low_code"]), []).append(str(item["rd_code"]).upper())
    messages = {}
    for ler, rd in set(zip(rows["ler_code"], rows["rd_code"], strict=True)):
        spaced = f"{ler[:2]} {ler[2:4]} {ler[4:]}"
        if ler in treatments:
            allowed = ", ".join(sorted(treatments[ler]))
            messages[f"{ler}|{rd}"] = (
                f"LER code {spaced} cannot be combined with {rd}; use one of: {allowed}."
            )
        else:
            messages[f"{ler}|{rd}"] = (
                f"LER code {spaced} has no emission factor in the service; check the code."
            )
    pairs = rows["ler_code"] + "|" + rows["rd_code"]
    return make_rejects(
        rows,
        column=headers.get("ler_code", "ler_code"),
        value=rows["ler_code"] + " / " + rows["rd_code"],
        code=RejectCode.UNKNOWN_WASTE_EF,
        message=pairs.map(messages),
    )


SPEC = ResourceSpec(
    name="wastes",
    description="Waste records of a facility and period (v2 bulk, asynchronous co2e).",
    schema=WasteInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(),
    prepare=prepare,
    to_records=to_records,
    lookups=(FACILITIES, WASTE_EFS, UNITS),
    write=IngestJobBulk(
        create_path="/v2/wastes",
        delete_path="/v2/wastes/delete",
        delete_field="waste_ids",
        list_path="/v2/wastes",
    ),
    readback=Readback(
        activity_date_field="end_date",
        facility_field="facility_id",
        list_path="/v2/wastes",
        ids_param="ids",
        unsettled=frozenset({"loading"}),
    ),
    # Found by ``client_row_id`` (the row's key, which the service keeps), 100 a request.
    finding=Finding(
        list_path="/v2/wastes",
        query=lambda payload: {},
        match_fields=("client_row_id",),
        keys_param="client_row_id",
        key_of=lambda record: text_of(record.get("client_row_id")),
    ),
    record_fields=(
        "facility_id",
        "identification_name",
        "start_date",
        "end_date",
        "base_quantity",
        "unit_id",
        "waste_efs_id",
        "description",
        "destination",
        "total_km_to_waste_center",
        "client_row_id",
    ),  # fmt: skip
    date_fields=("start_date", "end_date"),
    depends_on=("facilities",),
    view_columns=(
        ViewColumn("identification_name", meaning="Waste identifier or invoice number."),
        ViewColumn("start_date", "DATE", meaning="First day of the waste period."),
        ViewColumn("end_date", "DATE", meaning="Last day of the waste period."),
        ViewColumn("base_quantity", "DOUBLE", meaning="Quantity in the row's unit."),
        ViewColumn(
            "quantity_t",
            "DOUBLE",
            "$.quantity",
            meaning="Quantity in tonnes, as the service converted it.",
        ),
        ViewColumn("low_code", meaning="European Waste List (LER) code."),
        ViewColumn("rd_code", meaning="Treatment: R1 to R13 (recovery) or D1 to D15 (disposal)."),
        ViewColumn("destination", meaning="Treatment plant or waste manager."),
        ViewColumn("ingest_job_id", meaning="The ingest job that created the record."),
        ViewColumn(
            "error_code", meaning="The service's code when it could not calculate the record."
        ),
    ),
    # GHG Protocol Scope 3 Standard, category 5 "Waste generated in operations": the treatment
    # by third parties of the waste the company's operations generate.
    inventory=InventoryRule(scope="3", category="5"),
    # Each facility that has wastes reports them every month, until it is archived (interface:
    # Facility status); a waste record covers its period, start to end.
    coverage=CoverageRule(
        first_day="json_extract_string(record, '$.start_date')",
        entity=CoverageEntity(
            "facilities",
            key="json_extract_string(record, '$.facility_id')",
            label="json_extract_string(entity, '$.name')",
            ended="json_extract_string(entity, '$.status') = 'archived'",
            every=False,
        ),
    ),
    input_column_of_field={
        "facility_id": "facility",
        "waste_efs_id": "ler_code",
        "unit_id": "unit",
        "client_row_id": "client_row_id",
    },
)

__all__ = ["SPEC"]
