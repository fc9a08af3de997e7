"""A sustainability team's data-collection workbook, as they send it: a sheet per topic with
Spanish names and headers ("Centros", "Flota", "Consumos", "Viajes", "Residuos"), often a notes
sheet in front and a summary at the back. Rows carry no key where people give none, so trips and
consumptions are identified by their content."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

Rows = list[list[Any]]

NOTES: Rows = [
    ["Datos de sostenibilidad 2026"],
    ["Rellene una hoja por tema; no cambie los encabezados."],
    ["Contacto", "sostenibilidad@example.com"],
]
#: The van "Furgo 1" has a name, a type and a country: a facility's required columns too.
SHEETS: dict[str, Rows] = {
    "Centros": [
        ["Nombre", "Tipo", "País", "Dirección", "Factor logístico"],
        ["Valencia Office", "office", "ES", "Calle de Colón 10, Valencia", 0.8],
        ["Sevilla Logistics Hub", "warehouse", "ES", "Polígono La Isla", 0.9],
        ["Lisboa Warehouse", "warehouse", "PT", None, 0.75],
    ],
    "Flota": [
        ["Matrícula", "Nombre", "Tipo", "Régimen", "Tipo de vehículo", "País", "Combustible"],
        ["1234 KLM", "Furgo 1", "freight", "owned", "van", "ES", "diesel"],
        ["5678-LMN", "Furgo 2", "freight", "renting", "furgoneta", "ES", "Gasóleo"],
        ["9012 MNP", "Coche comercial", "passenger", "owned", "car", "ES", "gasolina"],
    ],
    "Consumos": [
        ["Matrícula", "Cantidad", "Unidad", "Fecha inicio", "Fecha fin"],
        ["1234 KLM", 85.4, "liters", "2026-01-01", "2026-01-31"],
        ["5678-LMN", 92.0, "L", "2026-01-01", "2026-01-31"],
        ["9012 MNP", 1450, "km", "2026-01-01", "2026-01-31"],
        ["1234 KLM", 80.1, "liters", "2026-02-01", "2026-02-28"],
    ],
    "Viajes": [
        ["Fecha", "Medio de transporte", "Origen", "Destino", "Km", "Viajeros", "Ida y vuelta"],
        ["2026-01-12", "train", "Madrid", "Barcelona", None, 1, "sí"],
        ["2026-02-15", "bus", None, None, 45.0, 12, "sí"],
        ["2026-03-10", "ferry", "Barcelona", "Palma", None, 3, "no"],
    ],
    "Residuos": [
        ["Centro", "Identification name", "Fecha inicio", "Fecha fin", "Cantidad", "Unidad", "LER",
         "RD"],
        ["Valencia Office", "INV-0001", "2026-01-01", "2026-01-31", 120.0, "kg", "20 01 01", "R3"],
        ["Valencia Office", "INV-0002", "2026-02-01", "2026-02-28", 95.5, "kg", "15 01 02", "R3"],
    ],
}  # fmt: skip
SUMMARY: Rows = [["Tema", "Total kg CO2e"], ["Flota", 1520.4], ["Viajes", 310.2]]
#: What each sheet loads as, and how many records.
LOADS = {
    "Centros": ("facilities", 3),
    "Flota": ("vehicles", 3),
    "Consumos": ("vehicle_consumptions", 4),
    "Viajes": ("business_travels", 3),
    "Residuos": ("wastes", 2),
}


def write_workbook(path: Path, sheets: list[tuple[str, Rows]]) -> Path:
    """A workbook of the named sheets, in this order."""
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    book.remove(first)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def data_collection(path: Path, order: list[str] | None = None) -> Path:
    """The workbook with the sheets in ``order`` ("Notas" and "Resumen" among them or not):
    by default children before parents, between a notes sheet and a summary."""
    order = order or ["Notas", "Consumos", "Viajes", "Residuos", "Flota", "Centros", "Resumen"]
    known = {"Notas": NOTES, "Resumen": SUMMARY, **SHEETS}
    return write_workbook(path, [(name, known[name]) for name in order])


def rename_sheets(path: Path, renamed: dict[str, str], order: list[str]) -> Path:
    """The same workbook with sheets renamed (old -> new) and put in ``order`` (new names)."""
    book = openpyxl.load_workbook(path)
    for old, new in renamed.items():
        book[old].title = new
    book._sheets = [book[name] for name in order]  # openpyxl keeps the order here
    book.save(path)
    return path
