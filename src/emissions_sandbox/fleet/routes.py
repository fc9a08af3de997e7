"""The fleet package's router, in the shape ``extensions`` expects."""

from __future__ import annotations

from fastapi import APIRouter

from emissions_sandbox.fleet import consumption_routes, reference_routes, vehicle_routes

router = APIRouter()
router.include_router(reference_routes.router)
router.include_router(vehicle_routes.router)
router.include_router(consumption_routes.router)
