"""The declarations: every profile reads, feeds real columns of its resource, has its tables
and a described sample; mistakes in a declaration are refused when it is read."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from emissions_etl.profiles.apply import ProfileMapper, check_profile
from emissions_etl.profiles.catalog import all_profiles, parse_profile
from emissions_etl.profiles.inputs import ProfileInputs
from emissions_etl.profiles.tables import shipped_table, table_key, user_table
from emissions_etl.resources import RESOURCES
from tests.profiles.conftest import SAMPLES

PROFILES = sorted(all_profiles())
EXPECTED = {"sap_wastes", "sap_purchases", "concur_travels", "fuel_card", "fuel_card_fleet",
            "tms_shipments"}  # fmt: skip
#: Profiles reading another's layout share its sample.
SAMPLE_OF = {"fuel_card_fleet": "fuel_card"}


def test_the_export_profiles_are_declared() -> None:
    assert set(PROFILES) == EXPECTED
    assert all_profiles()["fuel_card_fleet"].sources == all_profiles()["fuel_card"].sources


@pytest.mark.parametrize("name", PROFILES)
def test_a_profile_has_its_tables_and_a_described_sample(name: str) -> None:
    profile = all_profiles()[name]
    for table in profile.tables:
        assert shipped_table(table).rows, table
    assert all(source.headers for source in profile.sources)
    folder = SAMPLES / SAMPLE_OF.get(name, name)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for source in profile.sources:
        assert source.headers[0] in readme, f"{name}: README does not describe {source.key}"
    assert [p for p in folder.iterdir() if p.name != "README.md"], f"{name}: no sample"


@pytest.mark.parametrize("name", PROFILES)
def test_a_profile_feeds_only_columns_of_its_resource(name: str) -> None:
    profile = all_profiles()[name]
    if profile.resource not in RESOURCES:
        pytest.skip(f"resource {profile.resource} is not in emissions_etl.resources yet")
    check_profile(profile, RESOURCES[profile.resource])
    for rule in profile.rules:
        if rule.map:
            shipped_table(rule.map).column(rule.take)


@pytest.mark.parametrize(
    ("change", "mistake"),
    [
        ({"columns": {"facility": {"from": "plant", "value": "x"}}}, "either 'from' or 'value'"),
        ({"columns": {"facility": {"from": "nowhere"}}}, "unknown source 'nowhere'"),
        ({"columns": {"facility": {"from": "plant", "frm": "x"}}}, "unknown key 'frm'"),
        ({"columns": {"facility": {"from": "plant", "unknown": "guess"}}}, "unknown must be"),
        ({"columns": {"facility": {"from": "plant", "default_input": "x"}}}, "no user input"),
        ({"columns": {"a": {"from": "plant", "if_empty": "b"}, "b": {"value": "1"}}}, "later"),
        # one text where a list is meant: its letters were read as so many headers
        ({"source": {"plant": {"headers": "Werk"}}}, r"\[source.plant\] headers: expected a list"),
    ],
)
def test_mistakes_in_a_declaration_are_refused_naming_them(change: dict, mistake: str) -> None:
    declaration = {
        "name": "p", "resource": "wastes", "description": "d",
        "source": {"plant": {"headers": ["Werk"], "required": True}},
        "columns": {},
    } | change  # fmt: skip
    with pytest.raises(ValueError, match=mistake):
        parse_profile(declaration, where="p.toml")


def test_table_values_match_ignoring_case_and_spaces() -> None:
    fuels = shipped_table("fuel_card_products")
    assert fuels.values(None)[table_key("  DIESEL   e+ ")] == "diesel"
    assert fuels.values(None)[table_key("adblue")] == ""
    assert "additive" in fuels.reasons()[table_key("AdBlue")]


def test_a_user_table_overrides_and_extends_the_shipped_one(tmp_path: Path) -> None:
    given = tmp_path / "mine.csv"
    given.write_text("Warengruppe;Sektor\nZIT02;541511\nZMRO01;561720\n", encoding="cp1252")
    table = shipped_table("material_group_sectors")
    merged = table.extended(user_table(table.name, given, "sector")).values("sector")
    assert merged[table_key("ZIT02")] == "541511"
    assert merged[table_key("ZMRO01")] == "561720"
    assert merged[table_key("ZBUE01")] == table.values("sector")[table_key("ZBUE01")]


def test_rows_a_profile_cannot_map_are_rejects_naming_the_source_header() -> None:
    profile = all_profiles()["sap_wastes"]
    batch = pd.DataFrame(
        {
            "plant": ["1000", "Valencia Office"], "waste_name": ["Holz", "Glas"],
            "valid_from": ["01.01.2026"] * 2, "valid_to": ["31.01.2026"] * 2,
            "quantity": ["1,5", "2"], "unit": ["TO", "kg"], "waste_code": ["170201"] * 2,
            "treatment": ["R3"] * 2, "_file": "f.csv", "_sheet": "", "_row": [2, 3],
        }
    )  # fmt: skip
    batch.attrs["headers"] = {"plant": "WERKS", "unit": "MEINS"}
    out, rejects = ProfileMapper(profile, RESOURCES["wastes"], ProfileInputs()).apply(batch)
    assert out["facility"].tolist() == ["Madrid Warehouse", "Valencia Office"]
    assert out["unit"].tolist() == ["t", "kg"]
    assert out.attrs["headers"]["facility"] == "WERKS"
    assert out.attrs["headers"]["ler_code"] == "LER-Code"
    assert rejects.empty
