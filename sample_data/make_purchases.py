"""Write the purchases sample: a buying department's ledger (xlsx, Spanish headers) with known
mistakes.

Deterministic (seeded): running it again gives the same file. Run from the project root:
``.venv/bin/python sample_data/make_purchases.py``. The mistakes are listed in
``inbox/purchases/README.md``; sectors are NAICS codes or names the sandbox has factors for,
except where a row is wrong on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

INBOX = Path(__file__).parent / "inbox" / "purchases"
HEADER = ["Pedido", "Fecha factura", "Concepto", "Descripción", "Sector", "País", "Importe",
          "Moneda", "Tipo de compra", "Tipo de gasto", "Reciclado", "Proveedor", "Factor propio",
          "Centro de coste"]  # fmt: skip
#: (concept, NAICS sector as people write it, expense type, amount range, recycled share)
CATALOGUE = [
    ("Papel A4 reciclado", "322230", "opex", (300, 2500), 0.8),
    ("Material de oficina", "Office Supplies (except Paper) Manufacturing", "opex", (80, 900),
     None),
    ("Portátiles", "334111", "capex", (2500, 24000), None),
    ("Sillas y mesas", "NAICS 337214", "capex", (900, 15000), 0.1),
    ("Asesoría jurídica", "Offices of Lawyers", "opex", (1200, 9000), None),
    ("Auditoría de cuentas", "541211", "opex", (4000, 18000), None),
    ("Alojamiento cloud", "518210", "opex", (400, 6000), None),
    ("Fibra y telefonía", "517311", "opex", (300, 2200), None),
    ("Mensajería", "492110", "opex", (90, 1500), None),
    ("Limpieza de oficinas", "561720", "opex", (700, 4200), None),
    ("Campaña publicitaria", "Advertising Agencies", "opex", (3000, 30000), None),
    ("Consultoría de gestión", "541611", "opex", (2500, 20000), None),
    ("Transporte de mercancías", "484121", "opex", (1500, 12000), None),
    ("Almacenaje externo", "493110", "opex", (2000, 9000), None),
    ("Impresión de catálogos", "323111", "opex", (600, 5000), 0.5),
]
CENTRES = ["Madrid Warehouse", "Barcelona Plant", "Valencia Office", "Sevilla Logistics Hub"]
SUPPLIERS = ["B12345678", "A28000001", "B86543210", "A08011234", "B46123987", "PT501234567"]
#: (data row index, header, bad value): the deliberate mistakes.
MISTAKES = [
    (7, "País", "ESP"),
    (16, "Importe", "aprox. 300"),
    (25, "Moneda", "GBP"),
    (34, "Reciclado", 35),
    (43, "Fecha factura", None),
    (52, "Concepto", None),
    (61, "Pedido", "PC-2026-0061"),  # the order number of the row above
    (70, "Sector", "Consultoría varios"),  # no factor: loads with status error, counts failed
]


def ledger_rows(rng: random.Random) -> list[list[object]]:
    rows: list[list[object]] = []
    day = dt.date(2026, 1, 5)
    for number in range(1, 91):
        day += dt.timedelta(days=rng.choice([0, 1, 1, 2]))
        concept, sector, expense, (low, high), recycled = rng.choice(CATALOGUE)
        abroad = rng.random() < 0.1
        rows.append([
            f"PC-2026-{number:04d}", day, concept, f"{concept}, {day:%B}", sector,
            "PT" if abroad else "ES", round(rng.uniform(low, high), 2),
            rng.choice(["EUR", "EUR", "€", "euros"]), None, expense, recycled,
            rng.choice(SUPPLIERS), None, rng.choice(CENTRES),
        ])  # fmt: skip
    for position, header, value in MISTAKES:
        rows[position][HEADER.index(header)] = value
    # Two supplier-specific purchases of steel (kg): one without the organization's factor,
    # which the service refuses, and one naming a factor the service does not hold (status
    # error, counts failed).
    for position, factor in ((79, None), (85, "5f0c2d7e-1b9a-4c3e-8f21-7a6b5c4d3e2f")):
        steel = ["Acero reciclado", "Perfiles", "331110", "ES", 2400.0, "kg",
                 "Específico proveedor", "capex", 0.9, "A08011234", factor]  # fmt: skip
        rows[position][2:13] = steel
    return rows


def write_ledger(path: Path, rng: random.Random) -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Compras T1"
    sheet.append(["Libro de compras, primer trimestre 2026"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append(HEADER)
    for row in ledger_rows(rng):
        sheet.append(row)
        sheet.cell(sheet.max_row, 2).number_format = "dd/mm/yyyy"
        sheet.cell(sheet.max_row, 7).number_format = "#,##0.00"
    workbook.save(path)


def main() -> None:
    INBOX.mkdir(parents=True, exist_ok=True)
    write_ledger(INBOX / "compras_2026_t1.xlsx", random.Random(2026))


if __name__ == "__main__":
    main()
