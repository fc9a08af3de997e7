"""The logistics package's router, in the shape `extensions` expects: one router that holds
the requests, recharges, overview, hub and invoice routes."""

from __future__ import annotations

from fastapi import APIRouter

from emissions_sandbox.logistics import hubs, invoices, overview_routes, recharges, request_routes

router = APIRouter()
for module in (request_routes, recharges, overview_routes, hubs, invoices):
    router.include_router(module.router)
