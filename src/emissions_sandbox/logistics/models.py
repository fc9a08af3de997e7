"""Bodies and response shapes of the logistics endpoints (facts §4.1-4.5, §9.3), declared so the
OpenAPI document describes them and bad input is a 422, never a 500."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Category = Literal["road", "rail", "maritime", "air"]
LoadUnit = Literal["kg", "ton", "pallets", "teu", "feu"]
MAX_BULK_RECORDS = 5000  # facts §4.3
_STRICT = ConfigDict(extra="forbid", allow_inf_nan=False)


def _text() -> Any:
    """An optional free-text field of at most 255 characters."""
    return Field(None, max_length=255)


class RequestIn(BaseModel):
    """One shipment leg (facts §4.1); either `distance_km` or both `origin` and `destination`."""

    model_config = _STRICT
    origin: str | None = Field(None, min_length=1, max_length=255)
    destination: str | None = Field(None, min_length=1, max_length=255)
    distance_km: float | None = Field(None, gt=0, le=100_000)
    load: float | None = Field(None, gt=0, le=1e9)
    load_unit: LoadUnit = "kg"
    load_factor: float = Field(1.0, gt=0, le=1)
    toc: str | None = Field(None, min_length=1, max_length=100)
    category: Category | None = None
    origin_country: str = Field("GLO", min_length=2, max_length=3)
    year: int | None = Field(None, ge=1990, le=2100)
    cleaning: bool = False
    movement_id: str | None = _text()
    client: str | None = _text()
    shipment_date: dt.date | None = None
    movement_stretch: str | None = _text()
    movement_stage: str | None = _text()
    vehicle_license_plate: str | None = _text()
    trailer_license_plate: str | None = _text()
    subcontractor: bool = False
    tkm: float | None = Field(None, gt=0, le=1e12)
    hub_id: uuid.UUID | None = None
    package_key: str | None = _text()
    project_id: uuid.UUID | None = None

    @model_validator(mode="after")
    def _route_and_vehicle(self) -> RequestIn:
        if self.distance_km is None and (self.origin is None or self.destination is None):
            raise ValueError("give distance_km, or both origin and destination")
        if self.toc is None and self.category is None:
            raise ValueError("give toc, or category when toc is absent")
        return self


class LogisticsRequest(BaseModel):
    """A stored shipment leg: the input echoed plus the calculated values (facts §4.1, §4.5)."""

    id: str
    status: Literal["pending", "active", "error"]
    co2e: float | None
    kgco2e: float | None
    emission_intensity: float | None
    origin: str | None
    destination: str | None
    distance_km: float | None
    load: float | None
    load_unit: str
    load_factor: float
    category: str | None
    toc: str | None
    origin_country: str
    year: int
    cleaning: bool
    movement_id: str | None
    client: str | None
    shipment_date: str
    movement_stretch: str | None
    movement_stage: str | None
    vehicle_license_plate: str | None
    trailer_license_plate: str | None
    subcontractor: bool
    tkm: float | None
    hub_id: str | None
    package_id: str | None
    package_key: str | None
    project_id: str | None
    error_messages: list[str]
    estimated_data: list[str]
    created_at: str
    updated_at: str


class ValidationIssue(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationProblem(BaseModel):
    """FastAPI's 422 body: `{detail: [{loc, msg, type}]}` (interface: Validation error)."""

    detail: list[ValidationIssue]


class BulkOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    continue_on_error: bool = True  # facts §4.4: default true


class BulkBody(BaseModel):
    """`records` are validated one by one, so one bad record fails alone (facts §4.3)."""

    model_config = ConfigDict(extra="forbid")
    records: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_BULK_RECORDS)
    options: BulkOptions = Field(default_factory=BulkOptions)


class BulkError(BaseModel):
    index: int
    code: str
    detail: str
    errors: list[dict[str, Any]] | None = None


class BulkResult(BaseModel):
    total_received: int
    total_processed: int
    success: int
    failed: int
    results: list[dict[str, Any]]
    errors: list[BulkError]


class RequestPage(BaseModel):
    page: int
    size: int
    total: int
    items: list[LogisticsRequest]
    filter_hash: str


class RequestIds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request_ids: list[uuid.UUID] = Field(min_length=1, max_length=100_000)


class RechargeIds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    recharge_ids: list[uuid.UUID] = Field(min_length=1, max_length=100_000)


class RechargeIn(BaseModel):
    """A fuel recharge (facts §4.4); upsert key (country, date, quantity, vehicle_license_plate)."""

    model_config = _STRICT
    fuel_id: uuid.UUID
    country: str = Field(pattern=r"^[A-Za-z]{2}$")
    date: dt.date
    quantity: float = Field(gt=0, le=1e9)
    vehicle_license_plate: str | None = _text()
    toc_id: uuid.UUID | None = None
    project_id: uuid.UUID | None = None


class Recharge(BaseModel):
    id: str
    fuel_id: str
    fuel_name: str
    country: str
    date: str
    quantity: float
    unit: str
    vehicle_license_plate: str | None
    vehicle_type: str | None
    toc_id: str | None
    project_id: str | None
    status: Literal["active"]
    co2e: float
    created_at: str
    updated_at: str


class RechargePage(BaseModel):
    page: int
    size: int
    total: int
    items: list[Recharge]


class PackageLeg(BaseModel):
    id: str
    origin: str | None
    destination: str | None
    distance_km: float | None
    co2e: float | None


class Package(BaseModel):
    id: str
    shipment_id: str | None
    package_key: str
    client_billing_id: str | None = None
    weight_kg: float | None
    total_distance_km: float | None
    total_co2e: float | None
    status: str
    created_at: str
    updated_at: str
    legs: list[PackageLeg] | None = None


class PackagePage(BaseModel):
    """The Package page: no `pages` (interface: Page wrappers)."""

    page: int
    size: int
    total: int
    items: list[Package]


class SummaryEntry(BaseModel):
    count: int
    last_updated: str | None


class Summary(BaseModel):
    requests: SummaryEntry
    recharges: SummaryEntry
    hubs: SummaryEntry


class TocOut(BaseModel):
    id: str
    toc: str
    category: str
    vehicle: str
    type: str
    wtw: float
    default_load: float
    location: str
    source: str


class FuelOut(BaseModel):
    id: str
    name: str
    unit: str
    region: str


class FuelCatalogue(BaseModel):
    total_count: int
    fuels: list[FuelOut]
