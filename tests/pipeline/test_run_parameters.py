"""A run's parameters: the load's options and its workbook's sheets as JSON, stored as they
always were (a tuple as a list, the profile inputs as an object, a path as its text)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from emissions_etl.loading.file_plan import SheetFate
from emissions_etl.loading.options import LoadOptions, run_parameters
from emissions_etl.profiles.inputs import ProfileInputs


def test_a_runs_parameters_are_its_options_and_sheets_as_json(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    inputs = ProfileInputs(sector_map=tmp_path / "sectors.csv", default_country="ES")
    options = LoadOptions(sheets=("Wastes", "Fleet"), profile_inputs=inputs, settle_seconds=5.0)
    workbook = (SheetFate("Wastes", "wastes"), SheetFate("Notes", not_loaded="no header"))

    parameters = run_parameters(path, options, workbook)

    as_stored = {"path": str(path), **asdict(options), "workbook": [f.record() for f in workbook]}
    assert parameters == json.loads(json.dumps(as_stored, default=str))
    assert parameters["profile_inputs"] == {
        "sector_map": str(tmp_path / "sectors.csv"),
        "default_country": "ES",
    }
    assert parameters["sheets"] == ["Wastes", "Fleet"]
