"""Feature packages built beside the foundation: webhooks and the v1 resource modules.

Each package ``emissions_sandbox.<name>`` listed in PACKAGES may provide:
- ``<name>.store.SCHEMA_SQL``: idempotent DDL that ``Database.migrate()`` applies;
- ``<name>.routes.router``: an ``APIRouter`` that ``create_app()`` includes;
- ``<name>.workers.start(app)`` / ``stop(app)``: background threads run in the app's lifespan.
A package that does not exist (yet) is skipped; an import error inside one is raised.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

PACKAGES = ("webhooks", "fleet", "business_travels", "logistics", "purchases", "employees")


def _module(package: str, name: str) -> ModuleType | None:
    full = f"emissions_sandbox.{package}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name in (full, f"emissions_sandbox.{package}"):
            return None
        raise


def schema_sql() -> list[str]:
    """Every package's DDL, in PACKAGES order."""
    modules = (_module(package, "store") for package in PACKAGES)
    return [str(module.SCHEMA_SQL) for module in modules if module is not None]


def routers() -> list[Any]:
    """Every package's router, in PACKAGES order."""
    modules = (_module(package, "routes") for package in PACKAGES)
    return [module.router for module in modules if module is not None]


def start_workers(app: Any) -> None:
    for package in PACKAGES:
        module = _module(package, "workers")
        if module is not None:
            module.start(app)


def stop_workers(app: Any) -> None:
    for package in reversed(PACKAGES):
        module = _module(package, "workers")
        if module is not None:
            module.stop(app)
