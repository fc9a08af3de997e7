"""Wire models of purchases: request bodies (validated, so bad input is a 422) and the response
shape of the interface's Purchase table (plus `error_code`)."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# facts §8 / §11; `error` is set by the calculation only
ClientStatus = Literal["active", "pending", "in_progress", "in_review", "inactive"]
PurchaseStatus = Literal["active", "pending", "in_progress", "in_review", "inactive", "error"]
PurchaseType = Literal["spend_based", "supplier_specific"]
ExpenseType = Literal["capex", "opex"]
Frequency = Literal["once", "weekly", "monthly", "quarterly", "yearly"]
REQUIRED_ON_CREATE = ("product_name", "sector", "country", "quantity", "unit_id", "purchase_date")
CUSTOM_FACTOR_RULE = "custom_emission_factor_id is required for a supplier_specific purchase"


class PurchaseCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    product_name: str = Field(min_length=1, max_length=255)
    sector: str = Field(min_length=1, max_length=255, description="NAICS code or sector name")
    country: str = Field(pattern="^[A-Za-z]{2}$")
    quantity: float = Field(ge=0, le=1e12, allow_inf_nan=False)
    unit_id: str = Field(min_length=1, max_length=64, description="EUR, USD, kg, t or a unit id")
    purchase_date: date
    expense_type: ExpenseType | None = None
    description: str | None = Field(None, max_length=500)
    purchase_type: PurchaseType = "spend_based"
    status: ClientStatus = "active"
    recycled: float | None = Field(None, ge=0, le=1, allow_inf_nan=False)
    supplier_id: str | None = Field(None, max_length=255)
    custom_emission_factor_id: uuid.UUID | None = None
    frequency: Frequency | None = "once"
    file_id: uuid.UUID | None = None
    file_name: str | None = Field(None, max_length=255)
    file_url: str | None = Field(None, max_length=2048)

    @model_validator(mode="after")
    def _supplier_specific_needs_a_factor(self) -> PurchaseCreate:
        if self.purchase_type == "supplier_specific" and self.custom_emission_factor_id is None:
            raise ValueError(CUSTOM_FACTOR_RULE)
        return self


class PurchaseUpdate(BaseModel):
    """PATCH: omitted fields keep their values; the merged purchase is checked again."""

    model_config = ConfigDict(extra="forbid")
    product_name: str | None = Field(None, min_length=1, max_length=255)
    sector: str | None = Field(None, min_length=1, max_length=255)
    country: str | None = Field(None, pattern="^[A-Za-z]{2}$")
    quantity: float | None = Field(None, ge=0, le=1e12, allow_inf_nan=False)
    unit_id: str | None = Field(None, min_length=1, max_length=64)
    purchase_date: date | None = None
    expense_type: ExpenseType | None = None
    description: str | None = Field(None, max_length=500)
    purchase_type: PurchaseType | None = None
    status: ClientStatus | None = None
    recycled: float | None = Field(None, ge=0, le=1, allow_inf_nan=False)
    supplier_id: str | None = Field(None, max_length=255)
    custom_emission_factor_id: uuid.UUID | None = None
    frequency: Frequency | None = None
    file_id: uuid.UUID | None = None
    file_name: str | None = Field(None, max_length=255)
    file_url: str | None = Field(None, max_length=2048)

    @model_validator(mode="after")
    def _required_fields_are_not_null(self) -> PurchaseUpdate:
        required = (*REQUIRED_ON_CREATE, "purchase_type", "status")
        nulls = [n for n in required if n in self.model_fields_set and getattr(self, n) is None]
        if nulls:
            raise ValueError(f"{', '.join(nulls)} cannot be null")
        return self


class Purchase(BaseModel):
    id: str
    organization_id: str
    product_name: str | None
    description: str | None
    sector: str | None
    country: str | None
    quantity: float | None
    unit_id: str | None
    purchase_date: str | None
    purchase_type: PurchaseType | None
    expense_type: ExpenseType | None
    status: PurchaseStatus | None
    recycled: float | None
    supplier_id: str | None
    custom_emission_factor_id: str | None
    file_id: str | None
    file_name: str | None
    file_url: str | None
    co2e: float | None
    error_code: str | None
    frequency: str | None
    created_at: str | None
    updated_at: str | None


class PurchasePage(BaseModel):
    items: list[Purchase]
    total: int
    page: int
    size: int
    pages: int
