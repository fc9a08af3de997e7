from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pandera
import pytest

from emissions_etl.domain.rejects import REJECT_COLUMNS
from emissions_etl.domain.row_keys import ContentKeys, content_key, hex_digests
from emissions_etl.errors import UnsupportedSourceError
from emissions_etl.loading.cell_kinds import column_rules, parse_column
from emissions_etl.loading.validation import ValidationResult, broken_rules, validate_batch
from emissions_etl.resources import RESOURCES, resource_spec
from emissions_etl.sources import read_source
from tests.builders import WASTE_HEADERS, set_cached_errors, waste_row, write_csv, write_xlsx

WASTES = resource_spec("wastes")


def validate_path(path: Path) -> ValidationResult:
    [batch] = read_source(path, expected_columns=WASTES.columns, aliases=WASTES.aliases)
    return validate_batch(batch, WASTES)


def validate_xlsx(tmp_path: Path, *rows: list) -> tuple[pd.DataFrame, pd.DataFrame]:  # type: ignore[type-arg]
    path = write_xlsx(tmp_path / "w.xlsx", {"Jan": [["Title"], WASTE_HEADERS, *rows]})
    result = validate_path(path)
    return result.valid, result.rejects


def only_reject(rejects: pd.DataFrame) -> dict:  # type: ignore[type-arg]
    assert len(rejects) == 1, rejects.to_dict("records")
    return rejects.iloc[0].to_dict()


def test_a_valid_row_comes_out_typed_with_a_default_key_and_a_hash(tmp_path: Path) -> None:
    valid, rejects = validate_xlsx(tmp_path, waste_row(1, unit=None, ler_code="20 01 01"))
    assert rejects.empty
    row = valid.iloc[0]
    assert row["start_date"] == pd.Timestamp("2026-01-01")
    assert row["base_quantity"] == 120.5
    assert (row["unit"], row["ler_code"], row["rd_code"]) == ("kg", "200101", "R3")
    # Without a client_row_id the row's content within its source (by default the file's
    # name) is its key, never its place: <source>#<content hash>#<n-th of that content>.
    assert pd.isna(row["client_row_id"])
    assert len(row["source_hash"]) == 16
    assert row["source_key"] == f"w.xlsx#{row['source_hash']}#1"
    assert list(rejects.columns) == list(REJECT_COLUMNS)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        (dt.date(2026, 3, 5), "2026-03-05"),
        (46086, "2026-03-05"),  # Excel serial, origin 1899-12-30
        ("2026-03-05", "2026-03-05"),
        ("05/03/2026", "2026-03-05"),  # day first, as European spreadsheets write it
        ("05.03.2026", "2026-03-05"),
    ],
)
def test_dates_are_read_from_every_form_people_use(
    tmp_path: Path, cell: object, expected: str
) -> None:
    valid, rejects = validate_xlsx(tmp_path, waste_row(1, start_date=cell, end_date="2026-03-31"))
    assert rejects.empty
    assert valid["start_date"].iloc[0] == pd.Timestamp(expected)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [(12.5, 12.5), ("12,5", 12.5), ("1.234,5", 1234.5), ("1,234.5", 1234.5), ("1 234", 1234.0)],
)
def test_numbers_are_read_with_decimal_commas_and_thousands_separators(
    tmp_path: Path, cell: object, expected: float
) -> None:
    valid, _ = validate_xlsx(tmp_path, waste_row(1, base_quantity=cell))
    assert valid["base_quantity"].iloc[0] == expected


@pytest.mark.parametrize(
    ("changes", "header", "code", "message_part"),
    [
        ({"facility": None}, "Facility", "REQUIRED", "Facility is required"),
        ({"identification_name": " "}, "Identification name", "REQUIRED", "is required"),
        ({"base_quantity": "abc"}, "Base quantity", "INVALID_NUMBER", "got 'abc'"),
        ({"base_quantity": -3}, "Base quantity", "NOT_POSITIVE", "greater than 0; got '-3'."),
        ({"base_quantity": 0}, "Base quantity", "NOT_POSITIVE", "greater than 0"),
        ({"start_date": "soon"}, "Start date", "INVALID_DATE", "got 'soon'"),
        ({"end_date": "2026-02-30"}, "End date", "INVALID_DATE", "got '2026-02-30'"),
        ({"ler_code": "2001"}, "LER code", "INVALID_LER_CODE", "like 20 01 01; got '2001'"),
        ({"rd_code": "R99"}, "RD code", "INVALID_RD_CODE",
         "R1 to R13 or D1 to D15, like R3; got 'R99'"),
        ({"rd_code": None}, "RD code", "REQUIRED", "is required"),
        ({"unit": "lbs"}, "Unit", "INVALID_UNIT", "Unit must be one of: kg, t; got 'lbs'."),
        ({"client_row_id": "x" * 256}, "Client row id", "TOO_LONG", "at most 255 characters"),
        ({"base_quantity": 1e308}, "Base quantity", "OUT_OF_RANGE", "at most 100,000,000"),
        (
            {"start_date": "2026-03-05", "end_date": "2026-02-28"},
            "Start date", "DATE_ORDER", "Start date is after End date; swap or correct them.",
        ),
    ],
)  # fmt: skip
def test_each_kind_of_bad_cell_is_one_reject_at_its_row_and_column(
    tmp_path: Path,
    changes: dict,
    header: str,
    code: str,
    message_part: str,  # type: ignore[type-arg]
) -> None:
    valid, rejects = validate_xlsx(tmp_path, waste_row(1), waste_row(2, **changes))
    reject = only_reject(rejects)
    # Messages name the header as the file writes it.
    assert reject["message"].startswith(header)
    assert (reject["file"], reject["sheet"], reject["row"]) == ("w.xlsx", "Jan", 4)
    assert (reject["column"], reject["code"]) == (header, code)
    assert message_part in reject["message"]
    assert valid["_row"].tolist() == [3]


@pytest.mark.parametrize(
    ("cell", "header", "error", "meaning"),
    [
        ("E4", "Base quantity", "#DIV/0!", "a division by zero"),  # required
        ("A4", "Facility", "#REF!", "a reference to cells that were deleted"),  # required
        ("J4", "Description", "#N/A", "a lookup that found nothing"),  # optional
        ("K4", "Client row id", "#NAME?", "a name the formula uses is not known"),  # the row id
        ("C4", "Start date", "#VALUE!", "a value of the wrong kind in the formula"),
    ],
)
def test_a_cell_showing_a_formula_error_rejects_its_row_whatever_its_column(
    tmp_path: Path, cell: str, header: str, error: str, meaning: str
) -> None:
    rows = [["Title"], WASTE_HEADERS, waste_row(1), waste_row(2, client_row_id="R-2")]
    rows[3][ord(cell[0]) - ord("A")] = "=FAILED()"
    path = write_xlsx(tmp_path / "w.xlsx", {"Jan": rows})
    set_cached_errors(path, 0, {cell: error})

    result = validate_path(path)

    reject = only_reject(result.rejects)
    assert (reject["row"], reject["column"], reject["code"]) == (4, header, "FORMULA_ERROR")
    assert reject["value"] == error
    assert reject["message"] == (
        f"{header} shows the spreadsheet error {error} ({meaning}): correct the formula or type "
        "the value."
    )
    # Never loaded without the cell, nor under another key.
    assert result.valid["_row"].tolist() == [3]


def test_csv_text_of_a_formula_error_is_one_whatever_the_language_and_case(
    tmp_path: Path,
) -> None:
    shown = ["#N/A", "#¡VALOR!", "#WERT!", " #div/0! ", "Err:502"]
    rows = [WASTE_HEADERS] + [
        waste_row(n, start_date="2026-01-01", end_date="2026-01-31", description=text)
        for n, text in enumerate(shown, start=1)
    ]
    rows.append(waste_row(9, start_date="2026-01-01", end_date="2026-01-31", description="#3 bin"))
    result = validate_path(write_csv(tmp_path / "w.csv", rows))

    assert set(result.rejects["code"]) == {"FORMULA_ERROR"}
    assert result.rejects["row"].tolist() == [2, 3, 4, 5, 6]
    assert "#WERT! (a value of the wrong kind" in result.rejects["message"].iloc[2]
    assert "Err:502 (a LibreOffice formula error)" in result.rejects["message"].iloc[4]
    assert result.valid["description"].tolist() == ["#3 bin"]


def test_a_row_with_two_bad_cells_gives_two_rejects(tmp_path: Path) -> None:
    valid, rejects = validate_xlsx(tmp_path, waste_row(1, base_quantity=-1, rd_code="X1"))
    assert sorted(rejects["code"]) == ["INVALID_RD_CODE", "NOT_POSITIVE"]
    assert valid.empty


def test_repeated_client_row_ids_reject_all_but_the_first(tmp_path: Path) -> None:
    rows = [waste_row(i, client_row_id="A") for i in range(1, 4)]
    valid, rejects = validate_xlsx(tmp_path, *rows)
    assert valid["_row"].tolist() == [3]
    assert rejects["row"].tolist() == [4, 5]
    assert set(rejects["code"]) == {"DUPLICATE_ROW_ID"}
    assert "already used by row 3" in rejects["message"].iloc[0]


def test_csv_cells_are_parsed_and_default_ids_name_the_source_not_the_row(
    tmp_path: Path,
) -> None:
    rows = [WASTE_HEADERS, ["Madrid Warehouse", "A", "01/02/2026", "28/02/2026", "12,5", "t",
                            "200101", "d1", "", "", ""]]  # fmt: skip
    path = write_csv(tmp_path / "e.csv", rows, delimiter=";")
    valid = validate_path(path).valid
    assert valid["source_key"].tolist() == [f"e.csv#{valid['source_hash'].iloc[0]}#1"]
    assert (valid["base_quantity"].iloc[0], valid["unit"].iloc[0]) == (12.5, "t")
    assert valid["rd_code"].iloc[0] == "D1"


def test_the_same_row_content_gives_the_same_hash(tmp_path: Path) -> None:
    valid, _ = validate_xlsx(
        tmp_path, waste_row(1, client_row_id="A"), waste_row(1, client_row_id="A2")
    )
    other, _ = validate_xlsx(tmp_path, waste_row(1, client_row_id="A"))
    assert valid["source_hash"].iloc[0] == other["source_hash"].iloc[0]
    assert valid["source_hash"].iloc[0] != valid["source_hash"].iloc[1]


def test_a_batch_without_a_required_column_is_unsupported(tmp_path: Path) -> None:
    headers = [h for h in WASTE_HEADERS if h != "RD code"]
    row = [v for h, v in zip(WASTE_HEADERS, waste_row(1), strict=True) if h != "RD code"]
    path = write_xlsx(tmp_path / "w.xlsx", {"S": [headers, row]})
    with pytest.raises(UnsupportedSourceError, match="rd_code"):
        validate_path(path)


def test_a_date_column_mixing_real_dates_and_text_reads_both(tmp_path: Path) -> None:
    valid, rejects = validate_xlsx(
        tmp_path,
        waste_row(1),
        waste_row(2, start_date="02/01/2026"),
        waste_row(3, start_date=46024),
    )
    assert rejects.empty
    assert valid["start_date"].dt.day.tolist() == [1, 2, 2]


def test_a_default_key_longer_than_255_characters_is_hashed(tmp_path: Path) -> None:
    name = "w" * 250 + ".xlsx"
    path = write_xlsx(tmp_path / name, {"S": [WASTE_HEADERS, waste_row(1), waste_row(2)]})
    ids = validate_path(path).valid["source_key"]
    assert ids.str.startswith("sha256:").all()
    assert ids.str.len().max() <= 255
    assert ids.nunique() == 2


@pytest.mark.parametrize("source", ["inbox/w.xlsx", "é#ü.xlsx", "w" * 240 + ".xlsx"])
def test_content_keys_numbered_in_bulk_are_the_nth_row_of_each_content_in_the_file(
    source: str,
) -> None:
    """``ContentKeys`` numbers a batch at once; the key is still defined row by row: the n-th
    row of a content, counting the file's earlier batches (the reference below)."""
    rng = np.random.default_rng(7)
    contents = rng.integers(0, 2**64, size=60, dtype=np.uint64)
    bulk, seen = ContentKeys(source), Counter[str]()
    in_batch = in_earlier_batch = hashed = 0
    for _ in range(40):
        digests = contents[rng.integers(0, min(5 + len(seen), 60), size=int(rng.integers(1, 40)))]
        given = rng.random(len(digests)) < 0.2  # rows with a key of their own keep it
        keys = pd.Series([f"own-{n}" if g else None for n, g in enumerate(given)], dtype="str")
        before, expected = Counter(seen), []
        for own, digest in zip(keys, hex_digests(digests, keys.index), strict=True):
            if isinstance(own, str):
                expected.append(own)
                continue
            in_earlier_batch += before[digest] > 0
            in_batch += seen[digest] > before[digest]
            seen[digest] += 1
            expected.append(content_key(source, digest, seen[digest]))
        filled = bulk.fill(keys, digests)
        assert filled.tolist() == expected
        assert filled.dtype == keys.dtype
        hashed += sum(key.startswith("sha256:") for key in expected)
    # Contents met again in the same batch and in earlier ones; new ones too (5 + len(seen)).
    assert in_batch > 50
    assert in_earlier_batch > 200
    assert len(seen) > 30
    assert hashed > 0 if len(source) > 230 else hashed == 0


#: Cells people write, good and bad for one column or another: each column of each resource
#: gets a random mix of them and of its own example (seeded: the same frames every run).
_TROUBLEMAKERS = (
    "", "0", "-1", "1", "0.5", "1e12", "abc", "x" * 300, "2026-02-01", "2025-01-01", "ES",
    "ESP", "kg", "t", "EUR", "R3", "D16", "20 01 01", "2001", "car", "aircraft", "owned",
    "telecommuting", "yes", "Mon-Fri", "0,1,9", "ana@example.es", "no-at-sign", "heat,water",
    "ES0021000000000001AB", "Madrid Warehouse", "active", "diesel", None, 12, 12.5, -3.0,
)  # fmt: skip


def _pandera_broken_rules(
    schema: pandera.DataFrameSchema, typed: pd.DataFrame
) -> dict[tuple[str | None, str], list[int]]:
    """The rows each rule breaks, read from the failure cases of Pandera's own validate."""
    try:
        schema.validate(typed, lazy=True)
        return {}
    except pandera.errors.SchemaErrors as errors:
        cases = errors.failure_cases
    cases = cases[cases["index"].notna()]
    found: dict[tuple[str | None, str], set[int]] = {}
    for case in cases.itertuples():
        column = case.column if case.schema_context == "Column" else None
        name = str(case.check).split("(", 1)[0]
        found.setdefault((column, name), set()).add(int(case.index))
    return {rule: sorted(rows) for rule, rows in found.items()}


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_rules_a_frame_breaks_are_those_panderas_validate_finds(name: str) -> None:
    """``broken_rules`` runs the schema's checks one by one, for speed: every rule it finds
    broken, on exactly the rows, Pandera's ``validate(lazy=True)`` finds, and no other."""
    spec = RESOURCES[name]
    schema = spec.schema.to_schema()
    rng = random.Random(name)
    rules = column_rules(spec.schema)
    examples = {
        column: str(dict(component.metadata or {}).get("example", ""))
        for column, component in schema.columns.items()
    }
    seen: set[tuple[str | None, str]] = set()
    for rows in (1, 7, 60, 240):
        raw = {
            rule.name: pd.Series(
                [rng.choice((examples[rule.name],) * 6 + _TROUBLEMAKERS) for _ in range(rows)],
                dtype=object,
            )
            for rule in rules
        }
        typed = pd.DataFrame(
            {rule.name: parse_column(rule, raw[rule.name]).values for rule in rules}
        )
        if spec.prepare is not None:
            typed = spec.prepare(typed)
        expected = _pandera_broken_rules(schema, typed)
        found = {
            (broken.column, broken.check): list(np.flatnonzero(broken.rows))
            for broken in broken_rules(schema, typed)
        }
        assert found == expected
        seen |= set(expected)
    # Not a comparison of empty results: required columns were found empty (those ``prepare``
    # does not fill with a default), and other rules were broken too.
    assert {check for _, check in seen} > {"not_nullable"}
    assert len(seen) >= 4, seen
