"""A fresh organization per test on the served sandbox, and waste workbooks to load into it."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl
import pytest

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.settings import Settings
from emissions_etl.warehouse import Warehouse
from tests.built_warehouses import empty_warehouse
from tests.sandbox_fixture import create_org

FACILITIES = ("Madrid Warehouse", "Barcelona Plant")
HEADER = (
    "Facility",
    "Identification name",
    "Start date",
    "End date",
    "Base quantity",
    "Unit",
    "LER code",
    "RD code",
    "Destination",
    "Client row id",
)


@dataclass(frozen=True)
class Tenant:
    """An organization of its own, with facilities, a client and a warehouse file."""

    organization_id: str
    api_key: str = field(repr=False)
    base_url: str
    ca_file: Path
    warehouse: Warehouse
    workdir: Path

    def settings(self, **given: object) -> Settings:
        """The settings of a load for this tenant into its warehouse (and ``given``)."""
        return Settings(
            api_url=self.base_url,
            api_key=self.api_key,
            organization_id=self.organization_id,
            ca_file=self.ca_file,
            warehouse=str(self.warehouse.path),
            **given,  # type: ignore[arg-type]
        )

    def client(self, **kwargs: object) -> EmissionsClient:
        return EmissionsClient(
            self.base_url,
            ApiKeyAuth(self.api_key, self.organization_id),
            ca_file=self.ca_file,
            **kwargs,  # type: ignore[arg-type]
        )


@pytest.fixture
def tenant(sandbox, tmp_path: Path) -> Tenant:  # type: ignore[no-untyped-def]
    return new_tenant(sandbox, tmp_path)


@pytest.fixture
def slow_tenant(slow_sandbox, tmp_path: Path) -> Tenant:  # type: ignore[no-untyped-def]
    """A tenant of the sandbox that takes 0.5 s per calculation chunk."""
    return new_tenant(slow_sandbox, tmp_path)


def new_tenant(sandbox, tmp_path: Path) -> Tenant:  # type: ignore[no-untyped-def]
    org = create_org(sandbox.db_path, tmp_path.name)
    tenant = Tenant(
        organization_id=org.organization_id,
        api_key=org.api_key,
        base_url=sandbox.base_url,
        ca_file=sandbox.ca_file,
        warehouse=Warehouse(empty_warehouse(tmp_path / "warehouse.duckdb")),
        workdir=tmp_path,
    )
    with tenant.client() as client:
        for name in FACILITIES:
            client.create_facility(name=name, type="warehouse", country="ES")
    return tenant


def write_wastes_csv(path: Path, rows: list[tuple[object, ...]]) -> Path:
    """The rows under the header, as a CSV export."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return path


def write_wastes_xlsx(path: Path, rows: list[tuple[object, ...]], *, title: bool = True) -> Path:
    """A workbook as people make them: a title row, a blank row, then the header and rows."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Wastes"
    if title:
        sheet.append(["Waste register 2026"])
        sheet.append([])
    sheet.append(list(HEADER))
    for row in rows:
        sheet.append(list(row))
    workbook.save(path)
    return path


def waste_row(
    n: int,
    *,
    facility: str = "Madrid Warehouse",
    quantity: object = 100.0,
    client_row_id: str | None = None,
) -> tuple[object, ...]:
    """A valid row; ``n`` varies the content and the month; no key unless given."""
    month = n % 12 + 1
    return (
        facility,
        f"INV-{n:05d}",
        f"2026-{month:02d}-01",
        f"2026-{month:02d}-28",
        quantity,
        "kg",
        "20 01 01",
        "R3",
        "Recycling plant",
        client_row_id,
    )
