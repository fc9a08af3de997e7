from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["fuel", "country", "date", "quantity", "vehicle_license_plate", "toc", "client_row_id"]

EXAMPLE = Example(
    resource="logistics_recharges",
    header=HEADER,
    rows=[
        ["diesel", "ES", "2026-01-08", 312.45, "4821 LKM", "articulated_truck_diesel", "OP-1"],
        [
            "Gasóleo",
            "ES",
            "2026-01-09",
            287.1,
            "1093 KZB",
            "rigid_truck_26_32_t_euro6_diesel",
            "OP-2",
        ],
        ["electricity", "ES", "2026-01-12", 185.0, "7710 MNP", None, "OP-3"],
        ["Electricidad", "PT", "2026-02-03", 92.5, "7710 MNP", None, "OP-4"],
        ["gasolina", "ES", "2026-02-14", 45.3, "2256 JTR", "van_diesel", None],
        ["GNC", "FR", "2026-03-01", 120.0, "9034 LHD", None, "OP-6"],
    ],  # fmt: skip
    # Not part of the service's upsert key (country, date, quantity, plate): an update.
    change=Change(row=0, header="toc", value="articulated_truck_diesel_desnz"),
    # Validation accepts every recharge the sandbox does, except lengths no document states:
    # a plate cell holding a note runs past the 255 characters the service takes.
    refusal=Refusal(
        row=[
            "diesel",
            "ES",
            "2026-03-20",
            150.0,
            "5567 KWS (tarjeta compartida con el remolque R-2231-BCD, ver nota de taller) " * 4,
            None,
            "OP-9",
        ],  # fmt: skip
        header="vehicle_license_plate",
        code="VALIDATION_ERROR",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/logistics/recharges")),
    cleared=Cleared(row=0, header="toc", field="toc_id"),
)
