"""Write the sample inbox: a people's workbook and an ERP csv export, with known mistakes.

Deterministic (seeded): running it again gives the same rows. Run from the project root:
``.venv/bin/python sample_data/make_samples.py``. The mistakes are listed in README.md.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import shutil
import zipfile
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

INBOX = Path(__file__).parent / "inbox" / "wastes"
SITE_GROUPS = {
    "Madrid-Valencia": ["Madrid Warehouse", "Valencia Office"],
    "Barcelona-Sevilla": ["Barcelona Plant", "Sevilla Logistics Hub"],
}
#: LER code -> (name, treatments the sandbox knows for it).
WASTES = {
    "20 01 01": ("Paper and cardboard", ["R3", "D1"]),
    "15 01 01": ("Paper packaging", ["R3"]),
    "15 01 02": ("Plastic packaging", ["R3", "R1", "D1"]),
    "20 01 02": ("Glass", ["R5"]),
    "20 01 08": ("Food waste", ["R3", "D1"]),
    "20 03 01": ("Mixed municipal waste", ["D1", "R1", "D10"]),
    "17 02 01": ("Wood", ["R3", "R1"]),
    "17 04 05": ("Iron and steel", ["R4"]),
    "16 02 14": ("WEEE", ["R4"]),
    "17 09 04": ("Mixed construction waste", ["D1", "R5"]),
}
DESTINATIONS = ["Gestora Residuos Centro", "Reciclajes del Norte", "EcoLevante", "Vertedero Sur"]
HEADERS = ["Facility", "Identification name", "Start date", "End date", "Containers",
           "Kg per container", "Base quantity", "Unit", "LER code", "RD code", "Destination",
           "Description", "Client row id"]  # fmt: skip
#: (sheet, data row index within the sheet, header, bad value): the deliberate mistakes.
WORKBOOK_MISTAKES = [
    ("Madrid-Valencia", 5, "Base quantity", -40),
    ("Madrid-Valencia", 17, "Base quantity", "approx 50"),
    ("Madrid-Valencia", 29, "Start date", "31/02/2026"),
    ("Madrid-Valencia", 41, "Start date", "2026-05-20"),  # after its end date
    ("Madrid-Valencia", 53, "LER code", "20 01"),
    ("Madrid-Valencia", 65, "RD code", "R14"),
    ("Madrid-Valencia", 77, "Unit", "lb"),
    ("Madrid-Valencia", 89, "Facility", None),
    ("Barcelona-Sevilla", 8, "Facility", "Barcelona Plnat"),
    ("Barcelona-Sevilla", 20, "LER code", "20 01 02"),
    ("Barcelona-Sevilla", 20, "RD code", "D10"),  # glass (20 01 02) has no D10 factor
    ("Barcelona-Sevilla", 32, "Identification name", None),
    ("Barcelona-Sevilla", 44, "Base quantity", 0),
    ("Barcelona-Sevilla", 56, "End date", "soon"),
    ("Barcelona-Sevilla", 68, "Client row id", "BAR-2026-0067"),  # repeats the row above
]


def month_period(month: int) -> tuple[dt.date, dt.date]:
    start = dt.date(2026, month, 1)
    end = (dt.date(2026, month + 1, 1) if month < 12 else dt.date(2027, 1, 1)) - dt.timedelta(1)
    return start, end


def workbook_rows(rng: random.Random, facilities: list[str], prefix: str) -> list[list[object]]:
    rows: list[list[object]] = []
    for month in range(1, 7):
        start, end = month_period(month)
        for facility in facilities:
            for ler in rng.sample(sorted(WASTES), 6) + rng.sample(sorted(WASTES), 6):
                name, treatments = WASTES[ler]
                number = len(rows) + 1
                as_text = rng.random() < 0.05  # some people type dates as text
                rows.append([
                    facility, f"{prefix}-2026-{number:04d}",
                    start.strftime("%d/%m/%Y") if as_text else start, end,
                    rng.randint(1, 12), round(rng.uniform(20, 400), 1), None,
                    rng.choice(["kg", "kg", "kg", "t"]) if ler != "17 04 05" else "t",
                    ler, rng.choice(treatments), rng.choice(DESTINATIONS),
                    f"{name}, {start:%B}", f"{prefix}-2026-{number:04d}",
                ])  # fmt: skip
    return rows


def write_workbook(path: Path, rng: random.Random) -> None:
    workbook = Workbook()
    workbook.remove(workbook.active)
    cached: dict[int, dict[str, float]] = {}
    for index, (group, facilities) in enumerate(SITE_GROUPS.items()):
        sheet = workbook.create_sheet(group)
        sheet.append([f"Waste records {group}, first half of 2026"])
        sheet["A1"].font = Font(bold=True, size=14)
        sheet.append([])
        sheet.append(HEADERS)
        rows = workbook_rows(rng, facilities, group[:3].upper())[:150]
        for mistake_sheet, position, header, value in WORKBOOK_MISTAKES:
            if mistake_sheet == group:
                rows[position][HEADERS.index(header)] = value
        cached[index] = {}
        for offset, row in enumerate(rows):
            excel_row = offset + 4
            if row[6] is None:  # Base quantity = Containers x Kg per container, as a formula
                row[6] = f"=E{excel_row}*F{excel_row}"
                quantity = row[4] * row[5]  # type: ignore[operator]
                cached[index][f"G{excel_row}"] = round(
                    quantity / 1000 if row[7] == "t" else quantity, 3
                )
                if row[7] == "t":
                    row[6] = f"=E{excel_row}*F{excel_row}/1000"
            sheet.append(row)
            sheet.cell(excel_row, 3).number_format = "dd/mm/yyyy"
            sheet.cell(excel_row, 4).number_format = "dd/mm/yyyy"
    workbook.save(path)
    for index, values in cached.items():
        store_cached_values(path, index, values)


def store_cached_values(path: Path, sheet_index: int, values: dict[str, float]) -> None:
    """Give formula cells the cached result Excel would have saved (openpyxl writes none)."""
    member = f"xl/worksheets/sheet{sheet_index + 1}.xml"
    temporary = path.with_suffix(".tmp")
    with (
        zipfile.ZipFile(path) as source,
        zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == member:
                data = re.sub(
                    r'(<c r="([A-Z]+\d+)"[^>]*>\s*<f>[^<]*</f>)\s*<v\s*/>',
                    lambda m: (
                        f"{m.group(1)}<v>{values[m.group(2)]}</v>"
                        if m.group(2) in values
                        else m.group(0)
                    ),
                    data.decode(),
                ).encode()
            target.writestr(item, data)
    shutil.move(temporary, path)


ERP_HEADER = "Werk;Abfallbezeichnung;Von;Bis;Menge;ME;LER-Code;R/D;Entsorger;Text"
ERP_PLANTS = {
    "Madrid Warehouse": "Gestión Ambiental Madrid",
    "Barcelona Plant": "Reciclatges Besòs",
    "Valencia Office": "EcoLevante",
    "Sevilla Logistics Hub": "Andalucía Recicla",
}
#: data row index -> (column, bad text): the deliberate mistakes of the ERP export.
ERP_MISTAKES = {
    11: (4, "-5,0"),
    23: (6, "2001O1"),
    47: (7, "X3"),
    59: (2, "32.01.2026"),
    83: (5, "Stk"),
}


def write_erp_csv(path: Path, rng: random.Random) -> None:
    lines = [ERP_HEADER]
    for index in range(100):
        facility = rng.choice(sorted(ERP_PLANTS))
        ler = rng.choice(sorted(WASTES))
        name, treatments = WASTES[ler]
        start, end = month_period(rng.randint(1, 6))
        quantity = (
            f"{rng.uniform(50, 9000):,.1f}".replace(",", "X").replace(".", ",").replace("X", ".")
        )
        cells = [
            facility, f"{name} ({ler})", f"{start:%d.%m.%Y}", f"{end:%d.%m.%Y}", quantity, "kg",
            ler, rng.choice(treatments), ERP_PLANTS[facility], f"Abholung {index + 1:03d}",
        ]  # fmt: skip
        if index in ERP_MISTAKES:
            column, bad = ERP_MISTAKES[index]
            cells[column] = bad
        lines.append(";".join(cells))
    # ERP systems here write Windows-1252 with CRLF line ends.
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))


def main() -> None:
    INBOX.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    write_workbook(INBOX / "wastes_2026_h1.xlsx", rng)
    write_erp_csv(INBOX / "erp_export_wastes.csv", rng)


if __name__ == "__main__":
    main()
