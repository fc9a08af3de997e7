"""Filed inventories: the figures a team filed, kept with what reproduces them exactly.

``file_inventory`` records an inventory of a reporting year (its years side by side) in the
warehouse's ``filed_inventories``: who filed it, when, under which approach, its lines, and on a
DuckLake the snapshot its figures were read at, on a DuckDB file a frozen copy of its records.
``read_filed`` reads it again from there, identical after any later load, mirror or rebuild, and
checks it against the lines that were filed: a figure that cannot be reproduced is an error,
never a quietly different file.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import replace

import numpy as np
import pandas as pd

from emissions_etl.errors import ConfigurationError, InputError, WarehouseError
from emissions_etl.inventory.estimates import Estimates, filed_estimates
from emissions_etl.inventory.filed import FILED_LINE_COLUMNS, FiledInventory
from emissions_etl.inventory.reading import Inventory, read_inventory
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.warehouse import DEFAULT_APPROACH, FILED_COLUMNS, FiledRow, Freeze, Warehouse

#: Whether the warehouse has filed inventories at all (written by a version that files them).
FILED_TABLE = """
    SELECT count(*) AS n FROM information_schema.tables
    WHERE table_schema = 'main' AND table_name = 'filed_inventories'
"""


def file_inventory(
    warehouse: Warehouse,
    *,
    year: int,
    by: str,
    approach: str = DEFAULT_APPROACH,
    organization: str | None = None,
    base_year: int | None = None,
    note: str | None = None,
    estimates: Estimates | None = None,
) -> tuple[FiledInventory, Inventory]:
    """File the inventory of ``year`` (beside the year before and ``base_year``) as it is now,
    with ``estimates`` of missing months when given (kept with it, line by line); returns what
    was filed and the inventory itself. InputError when the year has no record."""
    if warehouse.is_lake:
        snapshot = warehouse.snapshot_id()
        assert snapshot is not None
        inventory = read_inventory(warehouse.at_snapshot(snapshot), approach=approach, year=year,
                                   organization=organization, base_year=base_year,
                                   estimates=estimates)  # fmt: skip
        filed = _filed(inventory, by=by, note=note, snapshot_id=snapshot)
        warehouse.record_filed_inventory(_row(filed), None, _counted(inventory))
        return filed, inventory
    # What is read is what is frozen: no load comes in between.
    with warehouse.writer():
        inventory = read_inventory(warehouse, approach=approach, year=year,
                                   organization=organization, base_year=base_year,
                                   estimates=estimates)  # fmt: skip
        filed = _filed(inventory, by=by, note=note, snapshot_id=None)
        years = [compared.year for compared in inventory.compared]
        warehouse.record_filed_inventory(
            _row(filed), Freeze(approach, inventory.organization, years), _counted(inventory)
        )
    return filed, inventory


def _counted(inventory: Inventory) -> pd.DataFrame | None:
    """The estimates the filed lines count: those of the years it shows side by side."""
    if inventory.estimates is None:
        return None
    years = {compared.year for compared in inventory.compared}
    months = pd.to_datetime(inventory.estimates["activity_month"])
    return inventory.estimates[months.dt.year.isin(years).to_numpy()]


def filed_inventory(warehouse: Warehouse, filed_id: str) -> FiledInventory:
    """The filed inventory ``filed_id``; InputError when none was filed here, ConfigurationError
    when none has that id."""
    none = InputError(
        str(warehouse.target),
        f"no inventory has been filed here, so none is {filed_id!r} (file-inventory files one)",
    )
    with warehouse.reading():
        if not int(warehouse.query(FILED_TABLE)["n"].iloc[0]):
            raise none
        rows = warehouse.query("SELECT * FROM filed_inventories WHERE filed_id = ?", [filed_id])
        if rows.empty:
            held = warehouse.query(
                "SELECT filed_id FROM filed_inventories ORDER BY filed_at DESC LIMIT 5"
            )["filed_id"].tolist()
            if not held:
                raise none
            raise ConfigurationError(
                f"no filed inventory {filed_id!r} in {warehouse.target} (the latest filed: "
                f"{', '.join(held)})"
            )
    row = rows.iloc[0]
    return FiledInventory(
        filed_id=str(row["filed_id"]),
        organization=_text(row["organization_id"]),
        year=int(row["reporting_year"]),
        base_year=None if pd.isna(row["base_year"]) else int(row["base_year"]),
        approach=str(row["consolidation_approach"]),
        filed_at=pd.Timestamp(row["filed_at"]).to_pydatetime(),
        filed_by=str(row["filed_by"]),
        note=_text(row["note"]),
        total_kg=None if pd.isna(row["total_co2e_kg"]) else float(row["total_co2e_kg"]),
        records=int(row["records"]),
        lines=pd.DataFrame(json.loads(row["lines"]), columns=FILED_LINE_COLUMNS),
        snapshot_id=None if pd.isna(row["snapshot_id"]) else int(row["snapshot_id"]),
        estimates_as_of=_day(row.get("estimates_as_of")),
    )


def read_filed(warehouse: Warehouse, filed_id: str) -> Inventory:
    """The filed inventory ``filed_id`` read again from what reproduces it (its snapshot, or its
    frozen records), exactly as it was filed; WarehouseError when it no longer can be."""
    filed = filed_inventory(warehouse, filed_id)
    source = warehouse if filed.snapshot_id is None else warehouse.at_snapshot(filed.snapshot_id)
    estimates = None
    if filed.estimates_as_of is not None:  # as filed: kept beside it, not in its snapshot
        with warehouse.reading():
            estimates = Estimates(filed.estimates_as_of, filed_estimates(warehouse, filed_id))
    try:
        inventory = read_inventory(
            source, approach=filed.approach, year=filed.year, organization=filed.organization,
            base_year=filed.base_year, estimates=estimates,
            frozen=filed.filed_id if filed.snapshot_id is None else None,
        )  # fmt: skip
    except WarehouseError as error:
        raise WarehouseError(
            f"filed inventory {filed_id}: its lake snapshot {filed.snapshot_id} cannot be read "
            f"({error}); was it expired by hand?"
        ) from error
    _check_reproduced(filed, inventory)
    return replace(inventory, filed=filed)


def _check_reproduced(filed: FiledInventory, inventory: Inventory) -> None:
    """WarehouseError naming the first line whose figure is not the one filed."""
    now = _line_records(inventory.lines)
    for was in _line_records(filed.lines):
        again = next((line for line in now if line["line"] == was["line"]), None)
        if again != was:
            figure = "no such line" if again is None else f"{again['co2e_kg']} kg"
            raise WarehouseError(
                f"filed inventory {filed.filed_id} cannot be reproduced exactly: "
                f"{was['line']} was filed as {was['co2e_kg']} kg, what reproduces it gives "
                f"{figure}"
            )


def _filed(
    inventory: Inventory, *, by: str, note: str | None, snapshot_id: int | None
) -> FiledInventory:
    assert inventory.year is not None
    if inventory.is_empty:
        raise InputError(
            f"the inventory of {inventory.year}",
            "no activity record in that year: nothing to file",
        )
    return FiledInventory(
        filed_id=f"{inventory.year}-{uuid.uuid4().hex[:8]}",
        organization=inventory.organization,
        year=inventory.year,
        base_year=inventory.base_year,
        approach=inventory.approach,
        filed_at=dt.datetime.now(dt.UTC),
        filed_by=by,
        note=note or None,
        total_kg=inventory.total_kg,
        records=int(inventory.line("activity")["records"]),
        lines=inventory.lines[FILED_LINE_COLUMNS],
        snapshot_id=snapshot_id,
        estimates_as_of=inventory.estimates_as_of if inventory.with_estimates else None,
    )


def _row(filed: FiledInventory) -> FiledRow:
    """``filed`` as a ``filed_inventories`` row."""
    row: FiledRow = {
        "filed_id": filed.filed_id,
        "organization_id": filed.organization,
        "reporting_year": filed.year,
        "base_year": filed.base_year,
        "consolidation_approach": filed.approach,
        "filed_at": filed.filed_at,
        "filed_by": filed.filed_by,
        "note": filed.note,
        "total_co2e_kg": filed.total_kg,
        "records": filed.records,
        "lines": _line_records(filed.lines),
        "snapshot_id": filed.snapshot_id,
        "estimates_as_of": filed.estimates_as_of,
    }
    assert set(row) == set(FILED_COLUMNS)
    return row


def _line_records(lines: pd.DataFrame) -> list[JsonObject]:
    """Lines as plain JSON values (None for a missing figure), as they are filed."""
    return [
        {name: _plain(line[name]) for name in FILED_LINE_COLUMNS}
        for line in lines.to_dict("records")
    ]


def _plain(value: object) -> JsonValue:
    """A line's cell as a JSON value: numpy's scalars as Python's, None for a missing one."""
    if _missing(value):
        return None
    plain = value.item() if isinstance(value, np.generic) else value
    if isinstance(plain, str | int | float):  # a bool is an int
        return plain
    raise TypeError(f"a filed line holds {plain!r}, not a JSON value")


def _missing(value: object) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and bool(pd.isna(value)))


def _day(value: object) -> dt.date | None:
    """A DATE cell as a date: None for a null, or for a column an older warehouse has not."""
    if _missing(value) or value is pd.NaT:
        return None
    if isinstance(value, dt.date | str | np.datetime64):
        stamp = pd.Timestamp(value)
        return None if pd.isna(stamp) else stamp.date()  # numpy's NaT
    raise TypeError(f"not a date: {value!r}")


def _text(value: object) -> str | None:
    return None if _missing(value) else str(value)
