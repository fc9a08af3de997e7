from __future__ import annotations

from .tenancy import tenant

__all__ = ["tenant"]
