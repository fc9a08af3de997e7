from __future__ import annotations

from .tenancy import slow_tenant, tenant

__all__ = ["slow_tenant", "tenant"]
