"""Write the export-profile samples: files as real systems export them, with known mistakes.

One folder per profile under ``sample_data/profiles/<profile>/`` (its README describes the
source layout and the rows wrong on purpose), and copies in the demo inbox, where the nightly
flow recognises the profile from the header: the SAP purchase orders in ``inbox/purchases/``,
the fuel-card statement in ``inbox/logistics_recharges/`` and the TMS shipment legs in
``inbox/logistics_requests/``.

Deterministic (seeded): running it again gives the same bytes. Run from the project root:
``.venv/bin/python sample_data/make_profiles.py``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import re
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).parent
PROFILES = HERE / "profiles"
INBOX = HERE / "inbox"
PLANTS = {"1000": "Madrid", "1100": "Barcelona", "1200": "Valencia", "1300": "Sevilla"}


def german_number(value: float, decimals: int = 2) -> str:
    """``1234.5`` -> ``1.234,50``; SAP writes a negative sign after the number (``150,00-``)."""
    text = f"{abs(value):,.{decimals}f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return text + ("-" if value < 0 else "")


def write_text(
    path: Path,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    delimiter: str,
    encoding: str,
    newline: str = "\r\n",
    bom: bool = False,
    title: Sequence[str] = (),
) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    for line in title:
        buffer.write(line + newline)
    writer.writerow(header)
    writer.writerows(rows)
    data = buffer.getvalue().encode(encoding)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


def put(
    rows: list[list[object]], header: Sequence[str], index: int, column: str, value: object
) -> None:
    rows[index][list(header).index(column)] = value


# --- sap_wastes: disposal documents with plant codes and SAP units -----------------------------

WASTE_HEADER = [
    "Werk",
    "Abfallart",
    "Gültig ab",
    "Gültig bis",
    "Entsorgte Menge",
    "Mengeneinheit",
    "AVV-Nummer",
    "Entsorgungsverfahren",
    "Entsorger",
    "Bemerkung",
]
WASTES = [
    ("Papier und Pappe", "20 01 01", "R3"),
    ("Verpackungen aus Kunststoff", "15 01 02", "R3"),
    ("Glas", "20 01 02", "R5"),
    ("Gemischte Siedlungsabfälle", "20 03 01", "D1"),
    ("Holz", "17 02 01", "R3"),
    ("Eisen und Stahl", "17 04 05", "R4"),
    ("Speiseabfälle", "20 01 08", "R3"),
]
DISPOSERS = ["Gestora Residuos Centro", "Reciclajes del Norte", "EcoLevante", "Andalucía Recicla"]


def make_sap_wastes(rng: random.Random) -> Path:
    rows: list[list[object]] = []
    for n in range(60):
        plant = list(PLANTS)[n % 4]
        month = n % 6 + 1
        name, ler, rd = WASTES[rng.randrange(len(WASTES))]
        start = dt.date(2026, month, 1)
        end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
        tonnes = n % 5 == 0
        quantity = rng.uniform(0.8, 6.5) if tonnes else rng.uniform(120, 4800)
        rows.append(
            [
                plant,
                f"{name} ({ler})",
                start.strftime("%d.%m.%Y"),
                end.strftime("%d.%m.%Y"),
                german_number(quantity, 3 if tonnes else 1),
                "TO" if tonnes else "KG",
                ler,
                rd,
                DISPOSERS[n % 4],
                f"Entsorgungsbeleg 2026{n + 1:04d}",
            ]
        )
    put(rows, WASTE_HEADER, 8, "Werk", "1400")  # a plant the table does not know
    put(rows, WASTE_HEADER, 20, "Mengeneinheit", "ST")  # pieces: no unit for wastes
    put(rows, WASTE_HEADER, 32, "Entsorgte Menge", "1.250,0-")  # a cancellation
    put(rows, WASTE_HEADER, 44, "AVV-Nummer", "15 01 10*")  # hazardous marker
    path = PROFILES / "sap_wastes" / "entsorgungsbelege_2026_h1.csv"
    return write_text(path, WASTE_HEADER, rows, delimiter=";", encoding="cp1252")


# --- sap_purchases: ME2N purchase-order history, "Text mit Tabulatoren" -------------------------

PURCHASE_HEADER = [
    "Einkaufsbeleg",
    "Position",
    "Belegdatum",
    "Material",
    "Kurztext",
    "Warengruppe",
    "Werk",
    "Bestellmenge",
    "BME",
    "Nettopreis",
    "Nettobestellwert",
    "Währg",
    "Lieferant",
]
#: material group -> (short texts, order unit, unit price range in EUR, vendor)
CATALOGUE = {
    "ZIT01": (
        ["Notebook Dell Latitude 5440", 'Monitor 27" LG 27UP850', "Dockingstation USB-C"],
        "ST",
        (180, 1450),
        "0000104711",
    ),
    "ZIT02": (
        ["Wartung Netzwerk Q1", "Implementierung SAP Fiori", "IT-Support Pauschale"],
        "LE",
        (900, 14000),
        "0000104720",
    ),
    "ZSW01": (
        ["Lizenz Microsoft 365 E3 (Jahr)", "Lizenz Adobe Acrobat Pro"],
        "ST",
        (160, 420),
        "0000104733",
    ),
    "ZBUE01": (
        ["Kopierpapier A4 80g", "Toner HP 305A schwarz", "Ordner A4 breit"],
        "KAR",
        (18, 95),
        "0000102001",
    ),
    "ZMOE01": (
        ["Bürostuhl ergonomisch", "Schreibtisch höhenverstellbar"],
        "ST",
        (240, 890),
        "0000102050",
    ),
    "ZBER01": (
        ["Beratung CSRD Reporting", "Projektmanagement ERP-Rollout"],
        "TAG",
        (850, 1200),
        "0000105100",
    ),
    "ZREI01": (
        ["Unterhaltsreinigung Büro", "Glasreinigung Lager"],
        "LE",
        (600, 3200),
        "0000105230",
    ),
    "ZFRA01": (
        ["Frachtkosten Komplettladung", "Teilladung Stückgut"],
        "LE",
        (380, 2600),
        "0000106010",
    ),
    "ZKUR01": (["Kurierdienst Express", "Paketversand national"], "LE", (45, 480), "0000106022"),
    "ZTEL01": (
        ["Mobilfunk Vertrag Firmenkunden", "Glasfaser Standleitung"],
        "LE",
        (220, 1900),
        "0000107001",
    ),
    "ZWER01": (
        ["Messestand Logistica Madrid", "Online-Kampagne Q1"],
        "LE",
        (1500, 18000),
        "0000107110",
    ),
    "ZCLOUD": (
        ["Hosting Rechenzentrum (Monat)", "Cloud Backup Speicher"],
        "LE",
        (700, 5200),
        "0000108001",
    ),
}


def make_sap_purchases(rng: random.Random) -> Path:
    rows: list[list[object]] = []
    document = 4500018800
    groups = list(CATALOGUE)
    while len(rows) < 120:
        document += rng.randint(1, 7)
        date = dt.date(2026, 1, 2) + dt.timedelta(days=rng.randrange(88))
        plant = rng.choice(list(PLANTS))
        group = rng.choice(groups[:-1])
        for item in range(1, rng.randint(1, 3) + 1):
            texts, unit, (low, high), vendor = CATALOGUE[group]
            quantity = rng.randint(1, 12) if unit in ("ST", "KAR", "TAG") else 1
            price = round(rng.uniform(low, high), 2)
            material = (
                f"{rng.randint(10_000_000, 10_099_999):018d}" if unit in ("ST", "KAR") else ""
            )
            rows.append(
                [
                    document,
                    item * 10,
                    date.strftime("%d.%m.%Y"),
                    material,
                    rng.choice(texts),
                    group,
                    plant,
                    german_number(quantity, 3),
                    unit,
                    german_number(price),
                    german_number(price * quantity),
                    "EUR",
                    vendor,
                ]
            )
    rows = rows[:120]
    put(rows, PURCHASE_HEADER, 9, "Werk", "1400")  # a new plant: no country in the table
    put(rows, PURCHASE_HEADER, 29, "Nettobestellwert", "1.250,00-")  # a return item
    put(rows, PURCHASE_HEADER, 49, "Belegdatum", "31.04.2026")  # no such day
    put(rows, PURCHASE_HEADER, 69, "Warengruppe", "ZMRO01")  # maintenance: not in the table
    put(rows, PURCHASE_HEADER, 89, "Währg", "USD")  # a US vendor's order in dollars
    for index in (99, 109):  # a group of the company's that the shipped table lacks
        put(rows, PURCHASE_HEADER, index, "Warengruppe", "ZCLOUD")
        put(rows, PURCHASE_HEADER, index, "Kurztext", CATALOGUE["ZCLOUD"][0][index % 2])
    path = PROFILES / "sap_purchases" / "ME2N_2026_Q1.txt"
    return write_text(path, PURCHASE_HEADER, rows, delimiter="\t", encoding="cp1252")


# --- concur_travels: an expense-report entry export ---------------------------------------------

#: How often each kind of expense appears: trips mostly, some hotel nights and meals.
TRIP_WEIGHTS = [3, 3, 2, 1, 2, 1, 1]
CONCUR_HEADER = [
    "Report ID",
    "Report Name",
    "Employee ID",
    "Employee",
    "Entry ID",
    "Transaction Date",
    "Expense Type",
    "Vendor",
    "From Location",
    "To Location",
    "Business Distance",
    "Class of Service",
    "Trip Type",
    "Amount",
    "Currency",
]
EMPLOYEES = [
    ("E1042", "Lucía Fernández"),
    ("E1077", "Jordi Puig"),
    ("E1103", "Ana Morales"),
    ("E1120", "Pablo Ruiz"),
    ("E1164", "Marta Gil"),
    ("E1189", "Sergio Navarro"),
]
#: (expense type, vendor, route or None, class, amount range)
TRIPS = [
    (
        "Airfare",
        "Iberia",
        [
            ("Madrid, Spain", "Paris, France"),
            ("Madrid, Spain", "Lisbon, Portugal"),
            ("Barcelona, Spain", "London, United Kingdom"),
            ("Madrid, Spain", "New York, United States"),
        ],
        "Economy",
        (90, 900),
    ),
    (
        "Train",
        "Renfe",
        [
            ("Madrid, Spain", "Barcelona, Spain"),
            ("Madrid, Spain", "Valencia, Spain"),
            ("Madrid, Spain", "Seville, Spain"),
        ],
        "Standard",
        (35, 140),
    ),
    ("Personal Car Mileage", "", None, "", (20, 160)),
    ("Car Rental", "Europcar", None, "", (60, 320)),
    ("Taxi", "Cabify", None, "", (12, 45)),
    ("Hotel", "NH Hotels", None, "", (95, 240)),
    ("Meals", "Restaurante", None, "", (14, 60)),
]


def make_concur_travels(rng: random.Random) -> Path:
    rows: list[list[object]] = []
    entry = 880_100
    for report in range(1, 19):
        employee_id, employee = EMPLOYEES[report % len(EMPLOYEES)]
        report_id = f"9C1A{report:04d}F"
        day = dt.date(2026, 2, 1) + dt.timedelta(days=rng.randrange(26))
        report_name = f"Viaje {day:%d/%m} {employee.split()[0]}"
        for _ in range(rng.randint(3, 6)):
            kind, vendor, routes, cabin, (low, high) = rng.choices(TRIPS, TRIP_WEIGHTS)[0]
            entry += 1
            origin = destination = distance = ""
            if routes:
                origin, destination = rng.choice(routes)
            elif kind in ("Personal Car Mileage", "Car Rental", "Taxi"):
                distance = f"{rng.randint(8, 420) if kind != 'Taxi' else rng.randint(4, 30)}"
            if kind == "Airfare":
                cabin = (
                    "Business"
                    if "New York" in destination
                    else rng.choice(["Economy", "Economy", "Premium Economy"])
                )
            trip = "Round Trip" if routes and rng.random() < 0.6 else ("One Way" if routes else "")
            rows.append(
                [
                    report_id,
                    report_name,
                    employee_id,
                    employee,
                    f"E{entry}",
                    day.isoformat(),
                    kind,
                    vendor,
                    origin,
                    destination,
                    distance,
                    cabin,
                    trip,
                    f"{rng.uniform(low, high):.2f}",
                    "EUR",
                ]
            )
            day += dt.timedelta(days=rng.randint(0, 1))
    air = [i for i, row in enumerate(rows) if row[6] == "Airfare"]
    trains = [i for i, row in enumerate(rows) if row[6] == "Train"]
    put(rows, CONCUR_HEADER, air[2], "To Location", "LHR")  # an airport code: no such place
    put(rows, CONCUR_HEADER, trains[1], "Expense Type", "Rail Pass")  # type not in the table
    put(rows, CONCUR_HEADER, air[4], "Transaction Date", "2026-02-30")  # no such day
    path = PROFILES / "concur_travels" / "concur_entries_2026-02.csv"
    return write_text(
        path, CONCUR_HEADER, rows, delimiter=",", encoding="utf-8", bom=True, newline="\n"
    )


# --- fuel_card: a Solred-style monthly statement (xlsx, Spanish labels) -------------------------

FUEL_HEADER = [
    "Fecha",
    "Hora",
    "Nº Tarjeta",
    "Matrícula",
    "Estación",
    "País",
    "Producto",
    "Litros",
    "Precio/Litro",
    "Importe (€)",
    "Nº Operación",
]
#: Plates of the demo fleet (inbox/vehicles/flota_2026.xlsx): diesel vans and trucks, petrol
#: company cars, so the statement also loads as the fleet's consumptions (``fuel_card_fleet``).
DIESEL_PLATES = ["8790 PSG", "8822 PHZ", "6931 YVD", "1081 FYP", "2494 ZMK", "5324 TRW",
                 "3352 JHK", "5831 PVS"]  # fmt: skip
PETROL_PLATES = ["8507 GLC", "1376 KHM"]
PLATES = DIESEL_PLATES + PETROL_PLATES
STATIONS = [
    ("Repsol Coslada", "España"),
    ("Repsol Getafe", "España"),
    ("Repsol Zaragoza Norte", "ES"),
    ("Repsol Sagunto", "España"),
    ("Repsol Mérida", "ES"),
    ("Galp Elvas", "Portugal"),
    ("Total Le Boulou", "Francia"),
]
#: product, price per litre, litres per fill, by the vehicle's fuel; with how often each comes.
PRODUCTS = {
    "diesel": [
        ("Diesel e+", 1.489, (40, 420), 70),
        ("Diesel e+10", 1.569, (40, 380), 20),
        ("AdBlue", 0.899, (10, 40), 10),
    ],
    "petrol": [("Efitec 95", 1.629, (25, 55), 85), ("Efitec 98", 1.759, (25, 50), 15)],
}


def make_fuel_card(rng: random.Random) -> Path:
    cards = {
        plate: f"7078 1200 {i + 1:04d} {rng.randint(1000, 9999)}" for i, plate in enumerate(PLATES)
    }
    minutes = sorted(rng.randrange(31 * 24 * 60 - 600) for _ in range(140))
    rows: list[list[object]] = []
    operation = 60_215_000
    for minute in minutes:
        when = dt.datetime(2026, 3, 1, 5) + dt.timedelta(minutes=minute)
        plate = rng.choice(PLATES)
        choices = PRODUCTS["petrol" if plate in PETROL_PLATES else "diesel"]
        product, price, (low, high), _ = rng.choices(choices, [c[3] for c in choices])[0]
        if product.startswith("Diesel") and plate in DIESEL_PLATES[:4]:
            low, high = 35, 85  # a van's tank, not a truck's
        station, country = rng.choice(STATIONS)
        litres = round(rng.uniform(low, high), 2)
        operation += rng.randint(3, 90)
        rows.append([when.strftime("%d/%m/%Y"), when.strftime("%H:%M"), cards[plate], plate,
                     station, country, product, german_number(litres),
                     german_number(price, 3), german_number(litres * price),
                     operation])  # fmt: skip
    # A car wash: one unit at its price, not litres.
    for column, value in (("Producto", "Lavado Premium"), ("Litros", "1,00"),
                          ("Precio/Litro", "12,900"), ("Importe (€)", "12,90")):  # fmt: skip
        put(rows, FUEL_HEADER, 11, column, value)
    for column in ("Litros", "Importe (€)"):  # an authorisation cancelled at the pump
        put(rows, FUEL_HEADER, 37, column, "0,00")
    put(rows, FUEL_HEADER, 63, "Producto", "Gasóleo B")  # farm diesel: not in the table
    put(rows, FUEL_HEADER, 88, "Fecha", "31/02/2026")  # no such day
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Movimientos"
    sheet.append(["Solred - Extracto de operaciones"])
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append(["Cliente: Transportes Demo Iberia S.L.", None, None, "Periodo: 03/2026"])
    sheet.append([])
    sheet.append(FUEL_HEADER)
    for cell in sheet[4]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(row)
    sheet.append([])
    sheet.append(["Total operaciones", len(rows)])
    path = PROFILES / "fuel_card" / "solred_extracto_2026-03.xlsx"
    path.parent.mkdir(parents=True, exist_ok=True)
    workbook.save(path)
    return _fixed_zip_times(path)


def _fixed_zip_times(path: Path) -> Path:
    """The workbook with fixed timestamps (zip members, document properties), so re-running
    gives the same bytes."""
    fixed = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(fixed, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:(created|modified)[^>]*>)[^<]*",
                    rb"\g<1>2026-04-01T00:00:00Z",
                    data,
                )
            out.writestr(
                zipfile.ZipInfo(info.filename, date_time=(2026, 4, 1, 0, 0, 0)),
                data,
                compress_type=zipfile.ZIP_DEFLATED,
            )
    fixed.replace(path)
    return path


# --- tms_shipments: shipment legs from a transport management system ----------------------------

TMS_HEADER = [
    "Shipment ID",
    "Leg",
    "Ship Date",
    "Origin",
    "Origin Country",
    "Destination",
    "Destination Country",
    "Gross Weight (kg)",
    "Mode",
    "Carrier",
    "Distance (km)",
    "Customer",
    "Truck Plate",
]
#: Routes as legs: (origin, country, destination, country, mode).
ROUTES = [
    [("Madrid", "ES", "Barcelona", "ES", "FTL")],
    [("Madrid", "ES", "Valencia", "ES", "LTL")],
    [("Barcelona", "ES", "Lyon", "FR", "FTL")],
    [
        ("Madrid", "ES", "Valencia", "ES", "FTL"),
        ("Valencia", "ES", "Genoa", "IT", "Sea FCL"),
        ("Genoa", "IT", "Milan", "IT", "FTL"),
    ],
    [("Seville", "ES", "Madrid", "ES", "Rail"), ("Madrid", "ES", "Bilbao", "ES", "LTL")],
    [("Madrid", "ES", "Frankfurt", "DE", "Air Freight")],
    [
        ("Barcelona", "ES", "Rotterdam", "NL", "Sea LCL"),
        ("Rotterdam", "NL", "Hamburg", "DE", "Rail"),
    ],
    [("Zaragoza", "ES", "Porto", "PT", "FTL")],
]
CUSTOMERS = ["Distribuciones Centro S.A.", "Retail Iberia", "Farma Logística", "Hogar y Jardín"]
CARRIERS = {
    "FTL": "Transportes Ochoa",
    "LTL": "Palletways",
    "Rail": "Renfe Mercancías",
    "Sea FCL": "MSC",
    "Sea LCL": "Maersk",
    "Air Freight": "IAG Cargo",
}


def make_tms_shipments(rng: random.Random) -> Path:
    rows: list[list[object]] = []
    shipment = 26_004_100
    while len(rows) < 90:
        shipment += rng.randint(1, 9)
        day = dt.date(2026, 1, 5) + dt.timedelta(days=rng.randrange(80))
        weight = rng.randint(1, 24) * 500 + rng.randint(0, 499)
        route = rng.choice(ROUTES)
        customer = rng.choice(CUSTOMERS)
        for leg, (origin, oc, destination, dc, mode) in enumerate(route, start=1):
            if mode == "Air Freight":
                weight = min(weight, 1800)
            plate = (
                f"{rng.randint(1000, 9999)} {rng.choice(['LKM', 'MHZ', 'KXP'])}"
                if mode in ("FTL", "LTL")
                else ""
            )
            rows.append(
                [
                    f"SHP-{shipment}",
                    leg,
                    day.strftime("%d/%m/%Y"),
                    origin,
                    oc,
                    destination,
                    dc,
                    weight,
                    mode,
                    CARRIERS[mode],
                    "",
                    customer,
                    plate,
                ]
            )
            day += dt.timedelta(days=1 if mode in ("FTL", "LTL", "Rail") else 3)
    rows = rows[:90]
    put(rows, TMS_HEADER, 14, "Mode", "Pipeline")  # not a mode the table knows
    put(rows, TMS_HEADER, 33, "Gross Weight (kg)", 0)  # a weight not yet captured
    put(rows, TMS_HEADER, 52, "Destination", "Polígono Industrial Norte")  # no such place
    put(rows, TMS_HEADER, 71, "Ship Date", "2026-13-02")  # no such month
    path = PROFILES / "tms_shipments" / "tms_shipment_legs_2026_q1.csv"
    return write_text(path, TMS_HEADER, rows, delimiter=",", encoding="utf-8", newline="\n")


def main() -> None:
    written = [
        make_sap_wastes(random.Random(2026_05)),
        make_sap_purchases(random.Random(2026_01)),
        make_concur_travels(random.Random(2026_02)),
        make_fuel_card(random.Random(2026_03)),
        make_tms_shipments(random.Random(2026_04)),
    ]
    # Two of them also arrive in the demo inbox, where the nightly flow recognises the profile.
    copies = ((written[1], "purchases"), (written[3], "logistics_recharges"),
              (written[4], "logistics_requests"))  # fmt: skip
    for source, folder in copies:
        target = INBOX / folder / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(target)
    for path in written:
        print(path.relative_to(HERE))  # noqa: T201


if __name__ == "__main__":
    main()
