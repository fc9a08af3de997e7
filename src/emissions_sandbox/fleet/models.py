"""Wire models of the fleet: request bodies (validated, so bad input is a 422) and responses
(declared so the OpenAPI document describes them). Names follow the interface tables."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

VehicleType = Literal["passenger", "freight"]
Ownership = Literal["owned", "rented"]
VehicleStatus = Literal["active", "archived", "error"]
MarketSegment = Literal[
    "mini",
    "supermini",
    "lower_medium",
    "upper_medium",
    "executive",
    "luxury",
    "sports",
    "dual_purpose_4x4",
    "mpv",
]
Size = Literal["small_car", "medium", "large_car", "average_car"]
ConsumptionStatus = Literal["active", "success", "loading", "error"]
VehicleSort = Literal[
    "name",
    "-name",
    "license_plate",
    "-license_plate",
    "created_at",
    "-created_at",
    "updated_at",
    "-updated_at",
]
Name = Field(None, max_length=255)
Plate = Field(min_length=1, max_length=255)
Country = Field(min_length=2, max_length=3, pattern="^[A-Za-z]+$")
Year = Field(None, ge=1886, le=2100)


class VehicleCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Name
    type: VehicleType
    ownership: Ownership
    license_plate: str = Plate
    unknown_vehicle_id: uuid.UUID
    country: str = Country
    vehicle_fuel_id: uuid.UUID | None = None
    custom_emission_factor_id: uuid.UUID | None = None
    registration_year: int | None = Year
    market_segment: MarketSegment | None = None
    size: Size | None = None

    @model_validator(mode="after")
    def _fuel_or_custom_factor(self) -> VehicleCreate:
        # interface: POST /v1/vehicles, 422 when neither fuel nor custom factor is given
        if self.vehicle_fuel_id is None and self.custom_emission_factor_id is None:
            raise ValueError("vehicle_fuel_id or custom_emission_factor_id is required")
        return self


class VehicleUpdate(BaseModel):
    """PATCH: omitted fields keep their values; the merged vehicle is checked again."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Name
    type: VehicleType | None = None
    ownership: Ownership | None = None
    license_plate: str | None = Field(None, min_length=1, max_length=255)
    unknown_vehicle_id: uuid.UUID | None = None
    country: str | None = Field(None, min_length=2, max_length=3, pattern="^[A-Za-z]+$")
    vehicle_fuel_id: uuid.UUID | None = None
    custom_emission_factor_id: uuid.UUID | None = None
    registration_year: int | None = Year
    market_segment: MarketSegment | None = None
    size: Size | None = None

    @model_validator(mode="after")
    def _required_fields_are_not_null(self) -> VehicleUpdate:
        required = ("type", "ownership", "license_plate", "unknown_vehicle_id", "country")
        nulls = [
            name
            for name in required
            if name in self.model_fields_set and getattr(self, name) is None
        ]
        if nulls:
            raise ValueError(f"{', '.join(nulls)} cannot be null")
        return self


class Vehicle(BaseModel):
    id: str
    name: str | None
    type: VehicleType
    ownership: Ownership
    license_plate: str
    country: str
    status: VehicleStatus
    co2e: float
    vehicle_fuel_id: str | None
    unknown_vehicle_type: dict[str, Any] | None
    registration_year: int | None
    market_segment: MarketSegment | None
    size: Size | None
    created_at: str
    updated_at: str


class VehiclePage(BaseModel):
    items: list[Vehicle]
    total: int
    page: int
    size: int
    pages: int


class ConsumptionCreate(BaseModel):
    """One consumption (facts §9.4, legacy CSV columns): quantity in one of the vehicle fuel's
    `fuel_units` (or kilograms/tonnes with a custom factor), over start_date..end_date."""

    model_config = ConfigDict(extra="forbid")
    quantity: float = Field(gt=0, le=1e12, allow_inf_nan=False)
    unit_id: uuid.UUID
    start_date: date
    end_date: date
    custom_id: str | None = Field(
        None, max_length=255, description="fuel card or invoice reference"
    )

    @model_validator(mode="after")
    def _dates_in_order(self) -> ConsumptionCreate:
        if self.end_date < self.start_date:
            raise ValueError("end_date is before start_date")
        return self


class ConsumptionData(BaseModel):
    quantity: float
    unit_id: str
    unit: str | None
    start_date: str
    end_date: str
    custom_id: str | None
    period: str
    fuel_consumed: float | None
    distance_km: float | None
    fuel_efficiency: float | None


class VehicleConsumption(BaseModel):
    id: str
    vehicle_id: str
    status: ConsumptionStatus
    co2e: float | None
    error_code: str | None
    data: ConsumptionData
    created_at: str
    updated_at: str


class VehicleConsumptionPage(BaseModel):
    items: list[VehicleConsumption]
    total: int
    page: int
    size: int
    pages: int


class FuelUnit(BaseModel):
    id: str
    name: str
    type: str


class VehicleFuelItem(BaseModel):
    id: str
    fuel: str
    country: str
    fuel_units: list[FuelUnit]
    created_at: str
    updated_at: str


class UnknownVehicleItem(BaseModel):
    id: str
    type: str
    country: str
    created_at: str
    updated_at: str
