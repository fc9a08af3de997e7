from __future__ import annotations

from pathlib import Path

import pandas as pd

from emissions_etl.resolution import RECORD_COLUMNS, resolve_wastes
from emissions_etl.sources import read_source
from emissions_etl.validation import validate_wastes
from emissions_etl_schemas import INPUT_ALIASES, SCHEMAS, WasteRecord
from tests.builders import WASTE_HEADERS, waste_row, write_xlsx

MADRID = "0b0e7c1e-1111-4a57-9d1f-0b6f5a7e3c21"
BARCELONA = "0b0e7c1e-2222-4a57-9d1f-0b6f5a7e3c21"
KG = "61743a63-ff70-459c-9567-5eee8f7dfd5c"
TONNES = "c6d4a0f1-2b9e-4a57-9d1f-0b6f5a7e3c21"
PAPER_R3 = "9a9e7c1e-3333-4a57-9d1f-0b6f5a7e3c21"
PAPER_D1 = "9a9e7c1e-4444-4a57-9d1f-0b6f5a7e3c21"
LOOKUPS = {
    "facilities": {
        "madrid warehouse": MADRID,
        MADRID: MADRID,
        "barcelona plant": BARCELONA,
        BARCELONA: BARCELONA,
    },  # fmt: skip
    "waste_efs": {("200101", "R3"): PAPER_R3, ("200101", "D1"): PAPER_D1},
    "units": {"kg": KG, "t": TONNES},
}


def valid_rows(tmp_path: Path, *rows: list) -> pd.DataFrame:  # type: ignore[type-arg]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [WASTE_HEADERS, *rows]})
    [batch] = read_source(path, expected_columns=list(SCHEMAS["wastes"].to_schema().columns),
                          aliases=INPUT_ALIASES)  # fmt: skip
    result = validate_wastes(batch)
    assert result.rejects.empty
    return result.valid


def test_names_resolve_to_ids_and_records_pass_the_api_schema(tmp_path: Path) -> None:
    valid = valid_rows(
        tmp_path, waste_row(1, facility="  madrid WAREHOUSE "), waste_row(2, facility=BARCELONA,
                                                                      unit="t", rd_code="D1")
    )  # fmt: skip
    result = resolve_wastes(valid, **LOOKUPS)
    assert result.rejects.empty
    records = result.records
    assert records["facility_id"].tolist() == [MADRID, BARCELONA]
    assert records["waste_efs_id"].tolist() == [PAPER_R3, PAPER_D1]
    assert records["unit_id"].tolist() == [KG, TONNES]
    assert set(RECORD_COLUMNS) | {"_file", "_sheet", "_row", "source_hash"} == set(records)
    WasteRecord.validate(records)


def test_an_unknown_facility_is_a_reject_that_names_the_known_ones(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1), waste_row(2, facility="Madrid Wharehouse"))
    result = resolve_wastes(valid, **LOOKUPS)
    [reject] = result.rejects.to_dict("records")
    assert (reject["row"], reject["column"], reject["code"]) == (3, "Facility", "UNKNOWN_FACILITY")
    assert "No facility named 'Madrid Wharehouse'" in reject["message"]
    assert "madrid warehouse" in reject["message"]
    assert result.records["_row"].tolist() == [2]


def test_an_unknown_ler_and_rd_pair_is_a_reject_listing_allowed_treatments(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1, rd_code="R1"), waste_row(2, ler_code="17 02 01"))
    rejects = resolve_wastes(valid, **LOOKUPS).rejects
    assert rejects["code"].tolist() == ["UNKNOWN_WASTE_EF", "UNKNOWN_WASTE_EF"]
    assert "use one of: D1, R3" in rejects["message"].iloc[0]
    assert "17 02 01 has no emission factor" in rejects["message"].iloc[1]
    assert rejects["column"].tolist() == ["LER code", "LER code"]


def test_nothing_to_resolve_gives_empty_records_and_rejects(tmp_path: Path) -> None:
    valid = valid_rows(tmp_path, waste_row(1)).iloc[0:0]
    result = resolve_wastes(valid, **LOOKUPS)
    assert result.records.empty
    assert result.rejects.empty
