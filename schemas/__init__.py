"""Pandera schemas mirroring the resource tables of the service interface."""

from __future__ import annotations

import pandera.pandas as pa

from emissions_etl_schemas.wastes import (
    INPUT_ALIASES,
    REQUIRED_INPUT_COLUMNS,
    WasteInput,
    WasteRecord,
)

__all__ = ["INPUT_ALIASES", "REQUIRED_INPUT_COLUMNS", "SCHEMAS", "WasteInput", "WasteRecord"]

#: Resource name -> the schema of its spreadsheet side.
SCHEMAS: dict[str, type[pa.DataFrameModel]] = {"wastes": WasteInput}
