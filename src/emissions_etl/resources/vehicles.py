"""Vehicles: one POST per vehicle, PATCH when its row changes, keyed by license plate.

The fuel is resolved by name among ``GET /v1/vehicle-fuels`` for the vehicle's country, else the
global (``GLO``) list; the generic vehicle type among ``GET /v1/unknown-vehicles``. A vehicle's
co2e is the sum of its consumptions' (``is_aggregate``), read back from ``GET /v1/vehicles/{id}``.
"""

from __future__ import annotations

import re

import pandas as pd

from emissions_etl.domain.references import ReferenceList, References, unknown_rejects
from emissions_etl.domain.rejects import empty_rejects
from emissions_etl.domain.row_keys import key_text
from emissions_etl.resources._records import keep_origin
from emissions_etl.resources._spec import (
    Finding,
    Readback,
    ResourceSpec,
    SingleCreate,
    ViewColumn,
)
from emissions_etl_schemas.vehicles import (
    FUEL_WORDS,
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    VEHICLE_WORDS,
    VehicleInput,
)

VEHICLE_FUELS = ReferenceList(
    "vehicle_fuels", "/v1/vehicle-fuels", keys=("fuel",), scope="country",
    fallback_scope="GLO", label="vehicle fuel", column="vehicle_fuel",
)  # fmt: skip
UNKNOWN_VEHICLES = ReferenceList(
    "unknown_vehicles", "/v1/unknown-vehicles", keys=("type",), scope="country",
    fallback_scope="GLO", label="vehicle type", column="unknown_vehicle",
)  # fmt: skip


def normalise_plates(plates: pd.Series) -> pd.Series:
    """Plates in upper case without spaces, hyphens or dots: ``1234-klm`` -> ``1234KLM``."""
    return plates.str.replace(r"[\s.\-]+", "", regex=True).str.upper()


def normalised_plate(plate: object) -> str | None:
    """One plate as ``normalise_plates`` writes it (None for none)."""
    if plate is None:
        return None
    return re.sub(r"[\s.\-]+", "", str(plate)).upper() or None


def prepare(typed: pd.DataFrame) -> pd.DataFrame:
    """Plates normalised; fuel and vehicle-type words in the reference lists' names."""
    typed["license_plate"] = normalise_plates(typed["license_plate"])
    for column, words in (("vehicle_fuel", FUEL_WORDS), ("unknown_vehicle", VEHICLE_WORDS)):
        typed[column] = typed[column].str.strip().str.lower().replace(dict(words))
    return typed


def to_records(valid: pd.DataFrame, refs: References) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fuel and vehicle-type ids (for the vehicle's country, else global); an unknown name
    rejects its row listing the names the service knows."""
    headers: dict[str, str] = dict(valid.attrs.get("headers", {}))
    fuel_ids = refs["vehicle_fuels"].resolve(valid["vehicle_fuel"], scope=valid["country"])
    type_ids = refs["unknown_vehicles"].resolve(valid["unknown_vehicle"], scope=valid["country"])
    no_fuel = (valid["vehicle_fuel"].notna() & fuel_ids.isna()).to_numpy()
    no_type = type_ids.isna().to_numpy() & ~no_fuel
    keep = ~(no_fuel | no_type)
    rows = valid[keep]
    records = pd.DataFrame(
        {
            "name": rows["name"],
            "type": rows["type"],
            "ownership": rows["ownership"],
            "license_plate": rows["license_plate"],
            "unknown_vehicle_id": type_ids[keep],
            "country": rows["country"],
            "vehicle_fuel_id": fuel_ids[keep],
            "custom_emission_factor_id": rows["custom_emission_factor_id"],
            "registration_year": rows["registration_year"],
            "market_segment": rows["market_segment"],
            "size": rows["size"],
        }
    )
    rejects = [
        empty_rejects(),
        unknown_rejects(
            valid[no_fuel], column="vehicle_fuel", headers=headers, table=refs["vehicle_fuels"]
        ),  # fmt: skip
        unknown_rejects(
            valid[no_type],
            column="unknown_vehicle",
            headers=headers,
            table=refs["unknown_vehicles"],
        ),  # fmt: skip
    ]
    return keep_origin(records, rows), pd.concat(rejects, ignore_index=True)


SPEC = ResourceSpec(
    name="vehicles",
    description="Fleet vehicles; co2e is the sum of their consumptions' (an aggregate).",
    schema=VehicleInput,
    aliases=INPUT_ALIASES,
    required_columns=REQUIRED_INPUT_COLUMNS,
    natural_key=("license_plate",),
    prepare=prepare,
    to_records=to_records,
    lookups=(VEHICLE_FUELS, UNKNOWN_VEHICLES),
    write=SingleCreate(
        create_path="/v1/vehicles",
        item_path="/v1/vehicles/{id}",
        update_method="PATCH",
        delete_path="/v1/vehicles/{id}",
    ),
    readback=Readback(get_path="/v1/vehicles/{id}", is_aggregate=True),
    # Found by plate among every vehicle of the organization (one list a run), the plates
    # written as ``prepare`` writes them (``1234 KLM`` is ``1234KLM``).
    finding=Finding(
        list_path="/v1/vehicles",
        query=lambda payload: {},
        match_fields=("license_plate",),
        identity=lambda record: normalised_plate(record.get("license_plate")),
        key_of=lambda record: key_text(normalised_plate(record.get("license_plate")) or "") or None,
        # Input-only references (interface: Vehicle): the record does not return them.
        not_returned=("unknown_vehicle_id", "custom_emission_factor_id"),
    ),
    record_fields=(
        "name",
        "type",
        "ownership",
        "license_plate",
        "unknown_vehicle_id",
        "country",
        "vehicle_fuel_id",
        "custom_emission_factor_id",
        "registration_year",
        "market_segment",
        "size",
    ),  # fmt: skip
    view_columns=(
        ViewColumn("license_plate", meaning="The vehicle's license plate."),
        ViewColumn("name", meaning="What the fleet calls the vehicle (its alias)."),
        ViewColumn("type", meaning="passenger or freight."),
        ViewColumn("ownership", meaning="owned or rented (renting and leasing are rented)."),
        ViewColumn("country", meaning="ISO 3166-1 country code where the vehicle runs."),
        ViewColumn("vehicle_fuel_id", meaning="The service's id of the vehicle's fuel."),
        ViewColumn("registration_year", "INTEGER", meaning="Year of first registration."),
        ViewColumn(
            "market_segment",
            meaning="Car market segment: mini, supermini, lower_medium, upper_medium, executive, "
            "luxury, sports, dual_purpose_4x4 or mpv.",
        ),
        ViewColumn("size", meaning="Car size: small_car, medium, large_car or average_car."),
    ),
    input_column_of_field={
        "vehicle_fuel_id": "vehicle_fuel",
        "unknown_vehicle_id": "unknown_vehicle",
        "VEHICLE_FUEL_NOT_FOUND": "vehicle_fuel",
        "UNKNOWN_VEHICLE_NOT_FOUND": "unknown_vehicle",
        "CUSTOM_EF_NOT_FOUND": "custom_emission_factor_id",
    },
)

__all__ = ["SPEC", "normalise_plates"]
