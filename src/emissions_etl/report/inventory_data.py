"""The inventory a report shows, as its options ask (approach, reporting year, base year, a
filed inventory to restate against), or why it shows none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from emissions_etl.errors import ConfigurationError, InputError
from emissions_etl.inventory import (
    Estimates,
    Inventory,
    Restatement,
    filed_inventory,
    read_inventory,
    restate_against,
)
from emissions_etl.warehouse import DEFAULT_APPROACH, Warehouse


@dataclass(frozen=True)
class InventoryRequest:
    """Which inventory the report shows: under ``approach``, of ``year`` (None: every year)
    beside the year before and ``base_year``, restated against the filed inventory ``against``
    when given, with ``estimates`` of missing months when given."""

    approach: str = DEFAULT_APPROACH
    year: int | None = None
    base_year: int | None = None
    against: str | None = None
    estimates: Estimates | None = None


class InventoryData(TypedDict, total=False):
    """The report data's inventory fields (``ReportData``'s of the same names) a page has."""

    inventory: Inventory | None
    inventory_note: str
    restatement: Restatement | None


def inventory_data(warehouse: Warehouse, request: InventoryRequest) -> InventoryData:
    """The inventory and its restatement, or why the page shows none (one organization's: the
    report has no organization to pick among several). A filed inventory it is asked to restate
    against must be there (a ConfigurationError, or WarehouseError, otherwise)."""
    filed = None if request.against is None else filed_inventory(warehouse, request.against)
    try:
        inventory = read_inventory(
            warehouse, approach=request.approach, year=request.year,
            base_year=request.base_year, organization=filed.organization if filed else None,
            estimates=request.estimates,
        )  # fmt: skip
    except InputError:
        note = "This warehouse has no GHG inventory yet: any load with this version adds it."
        return {"inventory": None, "inventory_note": note}
    except ConfigurationError as error:
        note = (
            f"No inventory on this page: {error}. Write each one with "
            "<code>emissions-etl inventory --organization NAME</code> (or its id)."
        )
        return {"inventory": None, "inventory_note": note}
    restatement = None if filed is None else restate_against(warehouse, filed.filed_id, inventory)
    return {"inventory": inventory, "restatement": restatement}
