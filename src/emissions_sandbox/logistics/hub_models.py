"""Bodies and response shapes of logistic hubs (interface: Logistic hub; facts §9.3) and of the
minimal facility invoice store that the hub delete rule needs."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

HubType = Literal["owned", "subcontracted"]
HubCategory = Literal[
    "transshipment_ambient",
    "transshipment_mixed",
    "storage_transhipment_ambient",
    "storage_transhipment_mixed",
    "warehouse_ambient",
    "warehouse_mixed",
    "liquid_bulk_terminals_ambient",
    "liquid_bulk_terminals_mixed",
    "maritime_container_terminals_ambient",
    "maritime_container_terminals_temperature_controlled",
]
_STRICT = ConfigDict(extra="forbid", allow_inf_nan=False)


class HubCreate(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1, max_length=255)
    type: HubType
    category: HubCategory | None = None
    address: str | None = Field(None, max_length=500)
    country: str | None = Field(None, min_length=2, max_length=3)
    supercharger: bool = False
    facility_id: uuid.UUID | None = None

    @model_validator(mode="after")
    def _owned_needs_facility(self) -> HubCreate:
        if self.type == "owned" and self.facility_id is None:
            raise ValueError("facility_id is required when type is owned")
        return self


class HubUpdate(BaseModel):
    model_config = _STRICT
    name: str | None = Field(None, min_length=1, max_length=255)
    address: str | None = Field(None, max_length=500)
    country: str | None = Field(None, min_length=2, max_length=3)
    type: HubType | None = None
    category: HubCategory | None = None
    facility_id: uuid.UUID | None = None
    supercharger: bool | None = None


class Hub(BaseModel):
    id: str
    name: str
    address: str | None
    country: str | None
    type: HubType
    category: str | None
    status: Literal["active", "archived"]
    supercharger: bool
    facility_id: str | None
    co2e: float | None
    created_at: str
    updated_at: str | None


class HubPage(BaseModel):
    items: list[Hub]
    total: int
    page: int
    size: int
    pages: int


class InvoiceIn(BaseModel):
    """Minimal facility invoice (sandbox aid, so the hub delete rule can be exercised)."""

    model_config = _STRICT
    type: Literal["heat", "electricity", "water", "recharge"] = "electricity"
    invoice_number: str | None = Field(None, max_length=255)
    quantity: float | None = Field(None, ge=0, le=1e12)
    start_date: date | None = None
    end_date: date | None = None


class Invoice(BaseModel):
    id: str
    facility_id: str
    type: str
    invoice_number: str | None
    quantity: float | None
    start_date: str | None
    end_date: str | None
    created_at: str
