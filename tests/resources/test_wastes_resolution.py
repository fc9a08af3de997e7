"""Wastes' ``to_records``: names people write become the ids the service wants, offline, from
reference lists shaped as the service returns them; names it does not know become rejects."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from emissions_etl.domain.references import References, ReferenceTable
from emissions_etl.loading.validation import validate_batch
from emissions_etl.loading.writing.payloads import to_payload
from emissions_etl.resources import resource_spec
from emissions_etl.resources.wastes import FACILITIES, UNITS, WASTE_EFS
from emissions_etl.sources import read_source
from emissions_sandbox.waste_records import WasteRecord
from tests.builders import WASTE_HEADERS, waste_row, write_xlsx

WASTES = resource_spec("wastes")
MADRID = "0b0e7c1e-1111-4a57-9d1f-0b6f5a7e3c21"
BARCELONA = "0b0e7c1e-2222-4a57-9d1f-0b6f5a7e3c21"
KG = "61743a63-ff70-459c-9567-5eee8f7dfd5c"
TONNES = "c6d4a0f1-2b9e-4a57-9d1f-0b6f5a7e3c21"
PAPER_R3 = "9a9e7c1e-3333-4a57-9d1f-0b6f5a7e3c21"
PAPER_D1 = "9a9e7c1e-4444-4a57-9d1f-0b6f5a7e3c21"
REFERENCES = References(
    [
        ReferenceTable(FACILITIES, [
            {"id": MADRID, "name": "Madrid Warehouse", "country": "ES"},
            {"id": BARCELONA, "name": "Barcelona Plant", "country": "ES"},
        ]),
        ReferenceTable(WASTE_EFS, [
            {"id": PAPER_R3, "low_code": "200101", "rd_code": "R3"},
            {"id": PAPER_D1, "low_code": "200101", "rd_code": "d1"},
        ]),
        ReferenceTable(UNITS, [{"id": KG, "name": "kilogram"}, {"id": TONNES, "name": "tonne"}]),
    ]
)  # fmt: skip


def valid_rows(tmp_path: Path, *rows: list) -> pd.DataFrame:  # type: ignore[type-arg]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [WASTE_HEADERS, *rows]})
    [batch] = read_source(path, expected_columns=WASTES.columns, aliases=WASTES.aliases)
    result = validate_batch(batch, WASTES)
    assert result.rejects.empty, result.rejects.to_dict("records")
    return result.valid


def test_names_resolve_to_ids_and_records_pass_the_service_model(tmp_path: Path) -> None:
    valid = valid_rows(
        tmp_path,
        waste_row(1, facility="  madrid WAREHOUSE "),
        waste_row(2, facility=BARCELONA, unit="t", rd_code="D1"),
    )
    records, rejects = WASTES.to_records(valid, REFERENCES)
    assert rejects.empty
    assert records["facility_id"].tolist() == [MADRID, BARCELONA]
    assert records["waste_efs_id"].tolist() == [PAPER_R3, PAPER_D1]
    assert records["unit_id"].tolist() == [KG, TONNES]
    # A row without its own id is sent under its content key (its source, by default the
    # file's name, its content hash and which of that content it is), so the service echoes it.
    hashes = valid["source_hash"].tolist()
    assert records["client_row_id"].tolist() == [f"w.xlsx#{digest}#1" for digest in hashes]
    assert set(WASTES.record_fields) | {"_file", "_sheet", "_row", "source_key",
                                        "source_hash"} == set(records)  # fmt: skip
    payloads = to_payload(records, WASTES)
    assert payloads[0]["start_date"] == "2026-01-01"
    assert "total_km_to_waste_center" not in payloads[0]  # empty optional fields left out
    for payload in payloads:
        WasteRecord.model_validate(payload)  # the sandbox's own model of the v2 record


def test_an_unknown_facility_is_a_reject_that_names_the_known_ones(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1), waste_row(2, facility="Madrid Wharehouse"))
    records, rejects = WASTES.to_records(valid, REFERENCES)
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (3, "Facility", "UNKNOWN_FACILITY")
    assert "No facility 'Madrid Wharehouse'" in reject["message"]
    assert "known: Barcelona Plant, Madrid Warehouse" in reject["message"]
    assert "Did you mean 'Madrid Warehouse'?" in reject["message"]
    assert records["_row"].tolist() == [2]


def test_an_unknown_ler_and_rd_pair_is_a_reject_listing_allowed_treatments(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1, rd_code="R1"), waste_row(2, ler_code="17 02 01"))
    records, rejects = WASTES.to_records(valid, REFERENCES)
    assert records.empty
    assert rejects["code"].tolist() == ["UNKNOWN_WASTE_EF", "UNKNOWN_WASTE_EF"]
    assert "use one of: D1, R3" in rejects["message"].iloc[0]
    assert "17 02 01 has no emission factor" in rejects["message"].iloc[1]
    assert rejects["column"].tolist() == ["LER code", "LER code"]


def test_a_unit_the_service_does_not_list_keeps_the_invalid_unit_code(tmp_path: Path) -> None:
    only_kg = References(
        [REFERENCES["facilities"], REFERENCES["waste_efs"],
         ReferenceTable(UNITS, [{"id": KG, "name": "kg"}])]
    )  # fmt: skip
    valid = valid_rows(tmp_path, waste_row(1), waste_row(2, unit="tonnes"))
    records, rejects = WASTES.to_records(valid, only_kg)
    [reject] = rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (3, "Unit", "INVALID_UNIT")
    assert reject["value"] == "t"
    assert records["unit_id"].tolist() == [KG]


def test_nothing_to_resolve_gives_empty_records_and_rejects(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1)).iloc[0:0]
    records, rejects = WASTES.to_records(valid, REFERENCES)
    assert records.empty
    assert rejects.empty
