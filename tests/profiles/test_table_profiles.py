"""A table source read through an export profile, chosen from its columns as from a header: a
fuel-card provider's transactions landed in SQLite, their rows left out named by key."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from emissions_etl.loading.options import LoadOptions
from emissions_etl.loading.table_loads import validate_table
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.resources import resource_spec
from emissions_etl.tables import TableSource, parse_attachment

RECHARGES = resource_spec("logistics_recharges")


def fuel_card_table(path: Path) -> Path:
    with sqlite3.connect(path) as con:
        con.execute(
            'CREATE TABLE transactions (txn_id TEXT, "Fecha" TEXT, "Tarjeta" TEXT, '
            '"Matrícula" TEXT, "País" TEXT, "Producto" TEXT, "Litros" TEXT)'
        )
        con.executemany(
            "INSERT INTO transactions VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                ("T-0101", "14/03/2026", "7078 1200 0002 4411", "4821 LKM", "España",
                 "Diesel e+", "312,45"),
                ("T-0102", "15/03/2026", "7078 1200 0002 4411", "4821 LKM", "España",
                 "Lavado", "1"),
            ],
        )  # fmt: skip
    return path


def test_a_tables_columns_pick_the_profile_and_a_row_it_leaves_out_is_named_by_key(
    tmp_path: Path,
) -> None:
    database = fuel_card_table(tmp_path / "cards.sqlite")
    source = TableSource(
        "SELECT * FROM cards.transactions", "logistics_recharges", ("txn_id",),
        (parse_attachment(f"cards=sqlite:{database}"),),
    )  # fmt: skip
    options = LoadOptions(profile_inputs=ProfileInputs())
    result = validate_table(source, spec=RECHARGES, options=options)
    assert (result.rows_read, result.rows_valid) == (2, 1)
    [reject] = result.rejects.to_dict("records")
    assert (reject["key"], reject["code"]) == ("txn_id=T-0102", "NOT_AN_ACTIVITY")
    assert "a car wash" in reject["message"]
