"""The sandbox's FastAPI application: routers, error handlers and the background workers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from emissions_sandbox import extensions
from emissions_sandbox.api import (
    custom_factors,
    facilities,
    ingest_jobs,
    login,
    reference,
    waste_reads,
    wastes_v1,
    wastes_v2,
)
from emissions_sandbox.body_limit import BodyLimitMiddleware
from emissions_sandbox.calculation import CalculationWorker
from emissions_sandbox.db import Database, WalCheckpointer
from emissions_sandbox.errors import install_error_handlers
from emissions_sandbox.settings import SandboxSettings
from emissions_sandbox.wire_models import add_components, use_problem_media_type

log = logging.getLogger(__name__)


def create_app(settings: SandboxSettings) -> FastAPI:
    db = Database(settings.db_path)
    db.migrate()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        checkpointer = WalCheckpointer(db)
        checkpointer.start()
        worker = CalculationWorker(db, settings)
        app.state.calculation_worker = worker
        worker.start()
        extensions.start_workers(app)
        try:
            yield
        finally:
            extensions.stop_workers(app)
            worker.stop()
            checkpointer.stop()

    app = FastAPI(
        title="Emissions Accounting Service (sandbox)",
        version="2.0.0-beta",
        description="Local implementation of the Emissions Accounting Service interface.",
        lifespan=lifespan,
    )
    app.state.db = db
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=settings.max_body_bytes)
    for module in (
        login,
        reference,
        facilities,
        custom_factors,
        wastes_v1,
        wastes_v2,
        waste_reads,
        ingest_jobs,
    ):
        app.include_router(module.router)
    for router in extensions.routers():
        app.include_router(router)
    generate_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        document = use_problem_media_type(generate_openapi())
        add_components(document, wastes_v2.BODY_MODELS)
        return document

    app.openapi = openapi  # type: ignore[method-assign]
    if settings.test_routes:
        from emissions_sandbox.api import limit_probes

        app.include_router(limit_probes.router)
    return app
