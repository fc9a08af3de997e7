"""Offline validation of a whole file, across the batches it is read in."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.loading.pipeline import LoadOptions, validate_file
from emissions_etl.resources import resource_spec

HEADER = (
    "facility,identification_name,start_date,end_date,base_quantity,ler_code,rd_code,client_row_id"
)


def test_a_row_id_repeated_in_a_later_batch_is_rejected_where_it_repeats(tmp_path: Path) -> None:
    lines = [HEADER] + [
        f"Madrid Warehouse,INV-{n},2026-01-01,2026-01-31,10,20 01 01,R3,{key}"
        for n, key in enumerate(["a", "b", "c", "a", "d"])
    ]
    path = tmp_path / "w.csv"
    path.write_text("\n".join(lines) + "\n")

    result = validate_file(path, spec=resource_spec("wastes"), options=LoadOptions(batch_rows=2))

    assert (result.rows_read, result.rows_valid) == (5, 4)
    reject = result.rejects.iloc[0]
    assert (int(reject["row"]), reject["column"], reject["value"]) == (5, "client_row_id", "a")
    assert reject["code"] == "DUPLICATE_ROW_ID"
