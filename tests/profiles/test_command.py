"""`emissions-etl profiles`, and the profile options as `load --help` and `validate` show them."""

from __future__ import annotations

from emissions_etl.resources import RESOURCES
from tests.profiles.conftest import SAMPLES, run_cli


def test_profiles_lists_each_profile_with_its_resource() -> None:
    done = run_cli("profiles")

    assert done.returncode == 0, done.stderr
    for name in ("sap_wastes", "sap_purchases", "concur_travels", "fuel_card", "tms_shipments"):
        assert name in done.stdout
    if "logistics_recharges" not in RESOURCES:
        assert "(not available yet)" in done.stdout


def test_a_profile_shows_its_source_layout_and_what_each_column_feeds() -> None:
    done = run_cli("profiles", "sap_purchases")

    assert done.returncode == 0, done.stderr
    for text in ("Warengruppe*", "MATKL", "material_group_sectors", "--sector-map", "purchases"):
        assert text in done.stdout, text


def test_an_unknown_profile_is_exit_2_listing_the_known_ones() -> None:
    listed = run_cli("profiles", "oracle_ebs")
    used = run_cli("validate", SAMPLES / "sap_wastes" / "entsorgungsbelege_2026_h1.csv",
                   "--profile", "oracle_ebs")  # fmt: skip

    for done in (listed, used):
        assert done.returncode == 2
        assert "unknown profile 'oracle_ebs'; known: " in done.stderr
        assert "sap_purchases" in done.stderr


def test_user_inputs_are_options_and_environment_variables_in_help() -> None:
    for command in ("load", "validate"):
        done = run_cli(command, "--help", env={"COLUMNS": "200"})

        assert done.returncode == 0
        for text in ("--profile", "--sector-map", "EMISSIONS_SECTOR_MAP", "--default-country",
                     "EMISSIONS_DEFAULT_COUNTRY"):  # fmt: skip
            assert text in done.stdout, (command, text)
