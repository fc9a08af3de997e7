"""Wire models of business travels: the create and update bodies with every interface rule
(interface: Business travels, rules 1 to 3) and the record as served."""

from __future__ import annotations

from datetime import date
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

TransportType = Literal[
    "car", "metro", "train", "trolleybus", "bus", "motorbike", "aircraft", "ferry"
]
VehicleSize = Literal["small", "medium", "large", "average"]
FuelType = Literal[
    "petrol", "diesel", "cng", "lpg", "unknown", "plug_in_hybrid_electric", "battery_electric"
]
FlightType = Literal["domestic", "short_haul_international", "long_haul_international"]
CabinClass = Literal["economy", "premium_economy", "business", "first", "average"]
TravelStatus = Literal["pending", "active", "error"]

ROAD_VEHICLE_MODES = ("car", "motorbike")
MAX_DISTANCE_KM = 100_000.0  # sandbox bound (2.5 × Earth's circumference), keeps co2e finite
ROAD_VEHICLE_FIELDS = ("vehicle_size", "fuel_type")
FLIGHT_FIELDS = ("flight_type", "cabin_class")
Place = Field(None, min_length=1, max_length=255)


class BusinessTravelCreate(BaseModel):
    """POST body; also used to re-check a record merged with a PATCH."""

    model_config = ConfigDict(extra="forbid")
    travel_date: date
    transport_type: TransportType
    distance_km: float | None = Field(None, gt=0, le=MAX_DISTANCE_KM)
    origin: str | None = Place
    destination: str | None = Place
    travel_number: int = Field(1, ge=1, le=1000)
    round_trip: bool = False
    vehicle_size: VehicleSize | None = None
    fuel_type: FuelType | None = None
    flight_type: FlightType | None = None
    cabin_class: CabinClass | None = None

    @model_validator(mode="after")
    def _distance_xor_places(self) -> Self:
        """Rule 1: `distance_km`, or `origin` and `destination`; neither or both is 422."""
        has_places = self.origin is not None and self.destination is not None
        if self.distance_km is None and not has_places:
            raise ValueError("give either distance_km or both origin and destination")
        if self.distance_km is not None and (
            self.origin is not None or self.destination is not None
        ):
            raise ValueError("give either distance_km or origin and destination, not both")
        return self

    @model_validator(mode="after")
    def _mode_specific_fields(self) -> Self:
        """Rule 3: car/motorbike fields and aircraft fields only for their modes."""
        if self.transport_type not in ROAD_VEHICLE_MODES:
            for name in ROAD_VEHICLE_FIELDS:
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} applies only to car or motorbike")
        if self.transport_type != "aircraft":
            for name in FLIGHT_FIELDS:
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} applies only to aircraft")
        return self


class BusinessTravelUpdate(BaseModel):
    """PATCH body: every field optional; the merged record must satisfy the create rules."""

    model_config = ConfigDict(extra="forbid")
    travel_date: date | None = None
    transport_type: TransportType | None = None
    distance_km: float | None = Field(None, gt=0, le=MAX_DISTANCE_KM)
    origin: str | None = Place
    destination: str | None = Place
    travel_number: int | None = Field(None, ge=1, le=1000)
    round_trip: bool | None = None
    vehicle_size: VehicleSize | None = None
    fuel_type: FuelType | None = None
    flight_type: FlightType | None = None
    cabin_class: CabinClass | None = None


class BusinessTravel(BaseModel):
    id: str
    travel_date: date
    transport_type: TransportType
    distance_km: float
    origin: str | None
    destination: str | None
    travel_number: int
    round_trip: bool
    vehicle_size: VehicleSize | None
    fuel_type: FuelType | None
    flight_type: FlightType | None
    cabin_class: CabinClass | None
    status: TravelStatus
    co2e: float
    created_at: str
    updated_at: str


class BusinessTravelPage(BaseModel):
    items: list[BusinessTravel]
    total: int
    page: int
    size: int
    pages: int
