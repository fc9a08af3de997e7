from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["license_plate", "name", "type", "ownership", "unknown_vehicle", "country",
          "vehicle_fuel", "custom_emission_factor_id", "registration_year", "market_segment",
          "size"]  # fmt: skip
ROWS: list[list[object]] = [
    ["1234 KLM", "Furgoneta reparto Madrid 1", "freight", "owned", "van", "ES", "diesel", None,
     2021, None, None],
    ["5678-LMN", "Furgoneta reparto Madrid 2", "freight", "renting", "furgoneta", "ES",
     "Gasóleo", None, 2022, None, None],
    ["9012 MNP", "Coche comercial Norte", "passenger", "owned", "car", "ES", "gasolina", None,
     2020, "lower_medium", "medium"],
    ["3456 NPR", "Eléctrico dirección", "Turismo", "leasing", "car", "ES", "eléctrico", None,
     2023, "executive", "large_car"],
    ["7890 PRS", "Camión Sevilla", "freight", "owned", "truck", "es", "diesel", None, 2019,
     None, None],
    ["AA-12-BC", "Carrinha Lisboa", "freight", "rented", "van", "PT", "diesel", None, 2022,
     None, None],
]  # fmt: skip

EXAMPLE = Example(
    resource="vehicles",
    header=HEADER,
    rows=ROWS,
    change=Change(row=2, header="registration_year", value=2021),
    # A custom factor id copied from another organization: the service does not know it.
    refusal=Refusal(
        row=[
            "4321 ZZZ",
            "Coche con factor propio",
            "passenger",
            "owned",
            "car",
            "ES",
            None,
            "3f2b9c1e-8d4a-4b6f-9a2e-5c7d1e0f4a6b",
            2022,
            None,
            None,
        ],  # fmt: skip
        header="custom_emission_factor_id",
        code="CUSTOM_EF_NOT_FOUND",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/vehicles")),
    cleared=Cleared(row=0, header="registration_year", field="registration_year"),
)
