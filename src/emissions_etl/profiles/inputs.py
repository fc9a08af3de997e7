"""What profiles take from the person running the load: their own tables and defaults.

Each comes both as a CLI option and as an ``EMISSIONS_*`` variable (``Settings``): a sector map
file (``--sector-map`` / ``EMISSIONS_SECTOR_MAP``) and a default country
(``--default-country`` / ``EMISSIONS_DEFAULT_COUNTRY``) for exports without a country column.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class ProfileInputs:
    """User-supplied values profiles may name (``extend = "sector_map"``,
    ``default_input = "default_country"``)."""

    #: CSV of material group -> sector extending (and overriding) the shipped table.
    sector_map: Path | None = None
    #: ISO country code used where an export has no country.
    default_country: str | None = None

    @classmethod
    def from_settings(cls) -> ProfileInputs:
        """The EMISSIONS_* settings: what a flow run, which passes no options, uses."""
        from emissions_etl.settings import Settings

        settings = Settings()
        return cls(sector_map=settings.sector_map, default_country=settings.default_country)

    @classmethod
    def names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls))

    def get(self, name: str) -> Path | str | None:
        value: Path | str | None = getattr(self, name)
        return value


__all__ = ["ProfileInputs"]
