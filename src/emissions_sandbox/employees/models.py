"""Wire models of employees and commuting periods (facts §9.1 field names and enums)."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

Situation = Literal["active", "inactive", "terminated"]
EmployeeStatus = Literal["uploaded", "loading"]
CommutingType = Literal["in_itinere", "in_labore"]
CommutingTransport = Literal[
    "car", "bus", "train", "metro", "tram", "motorbike", "bicycle", "walking",
    "telecommuting", "electric_kick_scooter", "trolleybus",
]  # fmt: skip
VehicleSize = Literal["small", "medium", "large", "average"]
FuelType = Literal[
    "petrol", "diesel", "cng", "lpg", "unknown", "plug_in_hybrid_electric", "battery_electric"
]
RenewableEnergy = Literal["yes", "no", "do_not_know"]
ResponseMedium = Literal["manual", "qr", "form"]
Text = Field(None, min_length=1, max_length=255)
Weekday = Annotated[int, Field(ge=0, le=6)]  # 0 = Monday … 6 = Sunday (Python weekday)
MAX_TRIP_KM = 10_000.0  # sandbox bound on one trip, keeps co2e finite


class EmployeeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Text
    email: str | None = Text
    situation: Situation
    status: EmployeeStatus

    @model_validator(mode="after")
    def _name_or_email(self) -> Self:
        if self.name is None and self.email is None:
            raise ValueError("give name or email (at least one)")
        return self


class EmployeeUpdate(BaseModel):
    """PATCH body: only sent fields change; the employee keeps a name or an email."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Text
    email: str | None = Text
    situation: Situation | None = None
    status: EmployeeStatus | None = None


class CommutingPeriodCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    employee_id: uuid.UUID
    start_date: date
    end_date: date
    commuting_type: CommutingType
    transport_type: CommutingTransport
    total_km: float | None = Field(None, ge=0, le=MAX_TRIP_KM, description="km of one trip")
    weekly_travels: list[Weekday] | None = Field(
        None, max_length=7, description="weekdays travelled, 0 = Monday … 6 = Sunday"
    )
    daily_trips: int = Field(1, ge=1, le=20)
    vehicle_size: VehicleSize | None = None
    fuel_type: FuelType | None = None
    renewable_energy: RenewableEnergy | None = None
    carpool: bool = False
    situation: Situation | None = None
    response_medium: ResponseMedium | None = None
    origin: str | None = Text
    destination: str | None = Text

    @model_validator(mode="after")
    def _period_rules(self) -> Self:
        if self.end_date <= self.start_date:
            raise ValueError("end_date must be after start_date")
        if self.transport_type not in ("car", "motorbike") and (
            self.vehicle_size is not None or self.fuel_type is not None
        ):
            raise ValueError("vehicle_size and fuel_type apply only to car or motorbike")
        if self.transport_type != "telecommuting" and (
            self.total_km is None or self.weekly_travels is None
        ):
            raise ValueError("total_km and weekly_travels are required for a commuting trip")
        return self


class CommutingPeriod(BaseModel):
    id: str
    employee_id: str
    start_date: date
    end_date: date
    commuting_type: CommutingType
    transport_type: CommutingTransport
    total_km: float | None
    weekly_travels: list[int] | None
    daily_trips: int
    vehicle_size: VehicleSize | None
    fuel_type: FuelType | None
    renewable_energy: RenewableEnergy | None
    carpool: bool
    situation: Situation | None
    response_medium: ResponseMedium | None
    origin: str | None
    destination: str | None
    co2e: float
    created_at: str
    updated_at: str


class Employee(BaseModel):
    id: str
    name: str | None
    email: str | None
    organization_id: str
    situation: Situation
    status: EmployeeStatus
    periods: list[CommutingPeriod]
    created_at: str
    updated_at: str


class EmployeePage(BaseModel):
    items: list[Employee]
    total: int
    page: int
    size: int
    pages: int


class CommutingPeriodPage(BaseModel):
    items: list[CommutingPeriod]
    total: int
    page: int
    size: int
    pages: int
