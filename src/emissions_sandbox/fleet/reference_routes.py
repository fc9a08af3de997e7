"""GET /v1/vehicle-fuels and GET /v1/unknown-vehicles (facts §9.4): bare arrays, global data.

`Authorization: Bearer <key or JWT>` + `x-organization-id` (`x-api-key` is accepted too).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from emissions_sandbox.auth import Principal, require_api_key_or_jwt
from emissions_sandbox.fleet.models import UnknownVehicleItem, VehicleFuelItem
from emissions_sandbox.fleet.reference import KM_UNIT, unit_named, unknown_vehicles, vehicle_fuels
from emissions_sandbox.wire_models import V1_RESPONSES

router = APIRouter(tags=["vehicles"], responses=V1_RESPONSES)


@router.get(
    "/v1/vehicle-fuels", response_model=list[VehicleFuelItem], operation_id="list_vehicle_fuels"
)
def list_vehicle_fuels(_: Principal = Depends(require_api_key_or_jwt)) -> Any:
    """Each fuel lists the units its consumptions may use: its factor units, then km."""
    items = []
    for fuel in vehicle_fuels().values():
        fuel_units = [unit_named(name) for name in (*fuel.kg_co2e_per_unit, KM_UNIT)]
        items.append(
            {
                "id": fuel.id,
                "fuel": fuel.fuel,
                "country": fuel.country,
                "fuel_units": [{"id": u.id, "name": u.name, "type": u.type} for u in fuel_units],
                "created_at": fuel.created_at,
                "updated_at": fuel.created_at,
            }
        )
    return items


@router.get(
    "/v1/unknown-vehicles",
    response_model=list[UnknownVehicleItem],
    operation_id="list_unknown_vehicles",
)
def list_unknown_vehicles(_: Principal = Depends(require_api_key_or_jwt)) -> Any:
    return [
        {
            "id": v.id,
            "type": v.type,
            "country": v.country,
            "created_at": v.created_at,
            "updated_at": v.created_at,
        }
        for v in unknown_vehicles().values()
    ]
