"""What ``inventory`` and ``file-inventory`` say once they have written: the scopes and the one
total, the years beside it, the evidence drawn, what was filed and how it is reproduced."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emissions_etl.inventory import Evidence, FiledInventory, Inventory
    from emissions_etl.storage import AnyPath


def written(out: AnyPath, inventory: Inventory, warehouse: str) -> str:
    """One line: the scopes, the total and what is outside it, in tonnes."""
    if inventory.is_empty:
        return f"{out}: no activity record in {warehouse} for these filters: every line is 0"
    when = inventory.year if inventory.year is not None else "every year"
    outside = inventory.lines[inventory.lines["kind"] == "not_classified"]
    note = (
        f"; {int(outside['records'].sum()):,} record(s), {outside['co2e_t'].sum():,.1f} t, "
        "not in the total (reasons in the file)"
        if not outside.empty
        else ""
    )
    filed = f" (filed inventory {inventory.filed.filed_id})" if inventory.filed else ""
    return f"{out}: {scopes(inventory)} ({inventory.approach}, {when}){note}{filed}" + (
        estimated(inventory)
    )


def estimated(inventory: Inventory) -> str:
    """``; 12.3 t of the total estimated (missing months, as of 2026-07-01)``; empty without
    estimates."""
    if not inventory.with_estimates:
        return ""
    part = inventory.line("total_location")["estimated_kg"]
    as_of = f"{inventory.estimates_as_of:%Y-%m-%d}" if inventory.estimates_as_of else "today"
    return f"; {float(part) / 1000:,.1f} t of the total estimated (missing months, as of {as_of})"


def scopes(inventory: Inventory) -> str:
    """``Scope 1 0.3 t, Scope 2 0.1 t, Scope 3 6.5 t, total 6.9 t co2e``."""

    def tonnes(kind: str) -> str:
        return f"{float(inventory.line(kind)['co2e_t']):,.1f} t"

    return (
        f"Scope 1 {tonnes('scope_1')}, Scope 2 {tonnes('scope_2_location')}, "
        f"Scope 3 {tonnes('scope_3')}, total {tonnes('total_location')} co2e"
    )


def beside(inventory: Inventory) -> str:
    """The total of each year beside the reporting year: ``the total beside it: 2025 0.4 t,
    base year 2024 no record``; empty without a reporting year."""
    if inventory.comparison is None:
        return ""
    total = inventory.comparison[inventory.comparison["kind"] == "total_location"].iloc[0]
    shown = []
    for compared in reversed(inventory.compared[:-1]):
        name = f"base year {compared.year}" if compared.is_base else str(compared.year)
        value = total[compared.header]
        shown.append(f"{name} {value:,.1f} t" if value is not None else f"{name} no record")
    return "the total beside it: " + ", ".join(shown)


def evidence_written(path: AnyPath, found: Evidence) -> list[str]:
    """What the evidence file holds, how it was drawn, and the rows without a file digest."""
    from emissions_etl.inventory.evidence import NO_DIGEST_NOTE

    lines = len(found.population)
    if found.sample is None:
        drawn = f"every record behind each of {lines:,} line(s)"
    else:
        drawn = (
            f"{found.sample:,} record(s) of each of {lines:,} line(s), of their "
            f"{int(found.population.sum()):,}, drawn with --seed {found.seed}"
        )
    said = [f"{path}: {len(found.rows):,} rows, {drawn}"]
    if found.without_digest:
        said.append(f"{path}: {found.without_digest:,} row(s) {NO_DIGEST_NOTE}")
    return said


def filed_line(filed: FiledInventory, frozen_records: int | None) -> str:
    """What was filed and what reproduces it."""
    kept = (
        f"reproduced from the lake's snapshot {filed.snapshot_id}"
        if filed.snapshot_id is not None
        else f"reproduced from a copy of its {frozen_records or 0:,} records"
    )
    total = "no total" if filed.total_kg is None else f"total {filed.total_kg / 1000:,.1f} t co2e"
    if filed.estimates_as_of is not None:
        total += f" (with the estimates of missing months as of {filed.estimates_as_of:%Y-%m-%d})"
    of = f" of {filed.organization}" if filed.organization else ""
    return (
        f"filed the inventory of {filed.year}{of} ({filed.approach}): {total}, "
        f"{filed.records:,} records; {kept}"
    )
