"""The fuel card export sample: its deliberate mistakes are exactly those its README lists, and
a load after the fleet sample gives the counts it states."""

from __future__ import annotations

from tests.pipeline.tenancy import Tenant
from tests.resources._samples import load_parent_samples, load_sample, validated

FILE = "tarjetas_combustible_2026.csv"


def test_the_export_has_its_documented_mistakes_and_no_others() -> None:
    assert validated("vehicle_consumptions", FILE) == (
        226,
        [
            (21, "Cantidad", "NOT_POSITIVE"),
            (46, "Fecha", "INVALID_DATE"),
            (71, "Unidad", "INVALID_UNIT"),
            (96, "Nº operación", "DUPLICATE_ROW_ID"),
            (146, "Cantidad", "OUT_OF_RANGE"),
        ],
    )


def test_the_export_loads_212_rows_and_rejects_14(tenant: Tenant) -> None:
    load_parent_samples(tenant, "vehicles")

    summary = load_sample(tenant, "vehicle_consumptions", FILE)

    assert (summary.rows_read, summary.rows_loaded, summary.rows_rejected) == (226, 212, 14)
    later = summary.rejects[summary.rejects["code"].isin(["PARENT_NOT_LOADED",
                                                          "REJECTED_BY_SERVICE"])]  # fmt: skip
    assert sorted(zip(later["row"], later["column"], later["code"], strict=True)) == [
        (26, "Matrícula", "PARENT_NOT_LOADED"),
        (59, "Matrícula", "PARENT_NOT_LOADED"),
        (94, "Matrícula", "PARENT_NOT_LOADED"),
        (121, "Matrícula", "PARENT_NOT_LOADED"),
        (124, "Matrícula", "PARENT_NOT_LOADED"),
        (144, "Matrícula", "PARENT_NOT_LOADED"),
        (168, "Unidad", "REJECTED_BY_SERVICE"),
        (180, "Matrícula", "PARENT_NOT_LOADED"),
        (226, "Matrícula", "PARENT_NOT_LOADED"),
    ]
    [refused] = later[later["code"] == "REJECTED_BY_SERVICE"].to_dict("records")
    assert "UNIT_NOT_CONVERTIBLE" in refused["message"]
    assert refused["value"] == "liters"
