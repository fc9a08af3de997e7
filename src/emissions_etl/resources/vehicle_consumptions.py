"""Vehicle consumptions: one POST per row under its vehicle, calculated in the request.

The vehicle is found by plate among the organization's vehicles (a plate not there is
``PARENT_NOT_LOADED``: its row of the fleet file did not load); the unit by name among the units
the service's fuels take. The row key (``client_row_id``, else the row's place) is sent as
``custom_id``, which the service echoes in ``data``: that finds what a killed run created. The
interface has no update: a changed row's record is deleted and created again.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import RejectCode, empty_rejects, make_rejects
from emissions_etl.json_values import JsonValue
from emissions_etl.resources._records import keep_origin, text_of
from emissions_etl.resources._references import UNITS
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl.resources.vehicles import VEHICLE_FUELS, normalise_plates
from emissions_etl.warehouse import CoverageEntity, CoverageRule, InventoryRule, ParentRecord
from emissions_etl_schemas.vehicle_consumptions import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    VehicleConsumptionInput,
)

VEHICLES = ReferenceList(
    "vehicles", "/v1/vehicles", keys=("license_plate",), label="vehicle", column="license_plate"
)
#: The unit as read -> the service's unit name.
UNIT_NAMES = {"liters": "liters", "kilograms": "kilograms", "tonnes": "tonnes", "kwh": "kWh",
              "km": "km"}  # fmt: skip
_PARENT_HINT = " If it is in a vehicles file, that row did not load: fix it there first."
#: GHG Protocol Corporate Standard, chapter 4: the fuel of vehicles the company owns or controls
#: is Scope 1, the electricity that charges them Scope 2. Which vehicles are its own depends on the
#: consolidation approach (chapter 3; appendix F, leased assets): under operational control a
#: leased (``rented``) vehicle the company operates is its own; under financial control and equity
#: share an operating lease is not, and its fuel is Scope 3 category 8 "Upstream leased assets".
#: Equity share takes every vehicle of the fleet as wholly the company's (no share is recorded).
_BY_OWNERSHIP = "approach IN ('financial_control', 'equity_share')"
_LEASED = "json_extract_string(parent, '$.ownership') = 'rented'"
#: An electric vehicle, as the fleet file names its fuel; else a charge metered in kWh.
_ELECTRICITY = (
    "coalesce(json_extract_string(parent_source, '$.vehicle_fuel') = 'electricity', "
    "json_extract_string(record, '$.data.unit') = 'kWh')"
)


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """Plates as the fleet file's; one date (a refuelling) is its start and end."""
    typed["license_plate"] = normalise_plates(typed["license_plate"])
    typed["end_date"] = typed["end_date"].fillna(typed["start_date"])
    return typed


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Vehicle and unit ids; the row key sent as ``custom_id``."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    vehicles = refs["vehicles"].items  # plates compared as the fleet file's are read
    plates = normalise_plates(pd.Series([str(v.get("license_plate") or "") for v in vehicles]))
    by_plate = dict(zip(plates[::-1], [str(v["id"]) for v in vehicles][::-1], strict=True))
    vehicle_ids = valid["license_plate"].map(by_plate)
    unit_ids = valid["unit"].map(UNIT_NAMES).str.lower().map(_unit_ids(refs))
    no_vehicle = vehicle_ids.isna().to_numpy()
    no_unit = unit_ids.isna().to_numpy() & ~no_vehicle
    keep = ~(no_vehicle | no_unit)
    rows = valid[keep]
    records = pd.DataFrame(
        {
            "vehicle_id": vehicle_ids[keep],
            "quantity": rows["quantity"].astype("float64"),
            "unit_id": unit_ids[keep],
            "start_date": rows["start_date"],
            "end_date": rows["end_date"],
            "custom_id": rows["source_key"],
            "unit": rows["unit"].map(UNIT_NAMES),  # not sent: the value a refusal shows
        }
    )
    rejects = [
        empty_rejects(),
        unknown_rejects(
            valid[no_vehicle],
            column="license_plate",
            headers=headers,
            table=refs["vehicles"],
            code=RejectCode.PARENT_NOT_LOADED,
            hint=_PARENT_HINT,
        ),  # fmt: skip
        make_rejects(
            valid[no_unit],
            column=headers.get("unit", "unit"),
            value=valid.loc[no_unit, "unit"],
            code=RejectCode.INVALID_UNIT,
            message="The service has no unit '" + valid.loc[no_unit, "unit"] + "'.",
        ),
    ]
    return keep_origin(records, rows), pd.concat(rejects, ignore_index=True)


def custom_id(record: Mapping[str, JsonValue]) -> str | None:
    """The row key a consumption keeps (``data.custom_id``; None when it keeps none)."""
    data = record.get("data")
    return text_of(data.get("custom_id")) if isinstance(data, dict) else None


def _unit_ids(refs: References) -> dict[str, str]:
    """Unit name (lower case) -> id, over the units every vehicle fuel takes and ``/v1/units``."""
    listed = [fuel.get("fuel_units") for fuel in refs["vehicle_fuels"].items]
    units = [
        unit
        for fuel_units in listed
        if isinstance(fuel_units, list)
        for unit in fuel_units
        if isinstance(unit, dict)
    ]
    found: dict[str, str] = {}
    for unit in [*units, *refs["units"].items]:
        found.setdefault(str(unit.get("name", "")).strip().lower(), str(unit["id"]))
    return found


SPEC = ResourceSpec(
    name="vehicle_consumptions",
    description="Fuel, electricity or distance used by a vehicle over a period (scope 1/2).",
    schema=VehicleConsumptionInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=(),
    prepare=prepare,
    to_records=to_records,
    lookups=(VEHICLES, VEHICLE_FUELS, UNITS),
    write=SingleCreate(
        create_path="/v1/vehicles/{vehicle_id}/consumptions",
        delete_path="/v1/vehicles/{vehicle_id}/consumptions/{id}",
    ),
    readback=Readback(
        activity_date_field="data.end_date",
        list_path="/v1/vehicles/{vehicle_id}/consumptions",
        list_query=lambda record: {},
        unsettled=frozenset({"loading"}),
    ),
    finding=Finding(
        list_path="/v1/vehicles/{vehicle_id}/consumptions",
        query=lambda payload: {},
        match_fields=("vehicle_id", "custom_id"),
        # What was sent lives under ``data`` in the record the list returns.
        item_paths={
            name: f"data.{name}"
            for name in ("custom_id", "quantity", "unit_id", "start_date", "end_date")
        },  # fmt: skip
        parent=("vehicles", "vehicle_id"),
        key_of=custom_id,
    ),
    record_fields=("vehicle_id", "quantity", "unit_id", "start_date", "end_date", "custom_id"),
    date_fields=("start_date", "end_date"),
    depends_on=("vehicles",),
    view_columns=(
        ViewColumn("vehicle_id", meaning="The service's id of the vehicle (vehicles)."),
        ViewColumn("quantity", "DOUBLE", "$.data.quantity", meaning="Quantity consumed, in unit."),
        ViewColumn(
            "unit", "VARCHAR", "$.data.unit", meaning="liters, kilograms, tonnes, kWh or km."
        ),
        ViewColumn(
            "start_date", "DATE", "$.data.start_date", meaning="First day of the consumption."
        ),
        ViewColumn("end_date", "DATE", "$.data.end_date", meaning="Last day of the consumption."),
        ViewColumn(
            "custom_id",
            "VARCHAR",
            "$.data.custom_id",
            meaning="The row's key as sent (a fuel card transaction or invoice reference).",
        ),
        ViewColumn(
            "fuel_consumed",
            "DOUBLE",
            "$.data.fuel_consumed",
            meaning="Fuel consumed, in unit (null when the quantity is a distance).",
        ),
        ViewColumn(
            "distance_km",
            "DOUBLE",
            "$.data.distance_km",
            meaning="Distance driven in km (null when the quantity is fuel or energy).",
        ),
        ViewColumn(
            "error_code", meaning="The service's code when it could not calculate the record."
        ),
    ),
    inventory=InventoryRule(
        scope=f"CASE WHEN {_BY_OWNERSHIP} AND parent IS NULL THEN NULL "
        f"WHEN {_BY_OWNERSHIP} AND {_LEASED} THEN 3 WHEN {_ELECTRICITY} THEN 2 ELSE 1 END",
        category=f"CASE WHEN {_BY_OWNERSHIP} AND {_LEASED} THEN 8 END",
        unclassified_reason=f"CASE WHEN {_BY_OWNERSHIP} AND parent IS NULL THEN "
        "'the vehicle is not in the warehouse: whether it is leased (category 8 under ' "
        "|| approach || ') is unknown' END",
        parent=ParentRecord("vehicles", key="json_extract_string(record, '$.vehicle_id')"),
    ),
    # Each vehicle reports its consumptions every month, until it is archived (interface:
    # Vehicle status); a consumption covers its period, start to end.
    coverage=CoverageRule(
        first_day="json_extract_string(record, '$.data.start_date')",
        entity=CoverageEntity(
            "vehicles",
            key="json_extract_string(record, '$.vehicle_id')",
            label="json_extract_string(entity, '$.license_plate')",
            ended="json_extract_string(entity, '$.status') = 'archived'",
        ),
    ),
    input_column_of_field={
        "vehicle_id": "license_plate",
        "unit_id": "unit",
        "custom_id": "client_row_id",
        "UNIT_NOT_CONVERTIBLE": "unit",
        "VEHICLE_NOT_FOUND": "license_plate",
    },
)

__all__ = ["SPEC"]
