"""Pandera schemas mirroring the resource tables of the service interface, one module each."""

from __future__ import annotations

from emissions_etl_schemas.business_travels import BusinessTravelInput
from emissions_etl_schemas.commuting_periods import CommutingPeriodInput
from emissions_etl_schemas.employees import EmployeeInput
from emissions_etl_schemas.facilities import FacilityInput
from emissions_etl_schemas.logistic_hubs import LogisticHubInput
from emissions_etl_schemas.logistics_recharges import LogisticsRechargeInput
from emissions_etl_schemas.logistics_requests import LogisticsRequestInput
from emissions_etl_schemas.purchases import PurchaseInput
from emissions_etl_schemas.vehicle_consumptions import VehicleConsumptionInput
from emissions_etl_schemas.vehicles import VehicleInput
from emissions_etl_schemas.wastes import WasteInput

__all__ = [
    "BusinessTravelInput",
    "CommutingPeriodInput",
    "EmployeeInput",
    "FacilityInput",
    "LogisticHubInput",
    "LogisticsRechargeInput",
    "LogisticsRequestInput",
    "PurchaseInput",
    "VehicleConsumptionInput",
    "VehicleInput",
    "WasteInput",
]
