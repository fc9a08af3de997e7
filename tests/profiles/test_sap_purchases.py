"""The SAP purchase-order profile: an ME2N export recognised from its header and loaded through
the real CLI as spend-based purchases; the user's sector map and default country."""

from __future__ import annotations

from pathlib import Path

from tests.pipeline.tenancy import Tenant
from tests.profiles.conftest import (
    ROOT,
    SAMPLES,
    last_run,
    needs_resource,
    read_rejects,
    run_cli,
    tenant_env,
)

SAMPLE = SAMPLES / "sap_purchases" / "ME2N_2026_Q1.txt"
INBOX_COPY = ROOT / "sample_data" / "inbox" / "purchases" / "ME2N_2026_Q1.txt"
pytestmark = needs_resource("purchases")


def test_the_me2n_export_is_recognised_and_loads_with_its_mistakes(tenant: Tenant) -> None:
    rejects = tenant.workdir / "rejects.json"
    done = run_cli("load", SAMPLE, "--rejects", rejects, env=tenant_env(tenant))

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "purchases", 120, 114, 6,
    )  # fmt: skip
    found = {(r["row"], r["column"], r["value"], r["code"]) for r in read_rejects(rejects)}
    assert found == {
        (11, "Werk", "1400", "UNMAPPED_VALUE"),
        (31, "Nettobestellwert", "1.250,00-", "INVALID_NUMBER"),
        (51, "Belegdatum", "31.04.2026", "INVALID_DATE"),
        (71, "Warengruppe", "ZMRO01", "UNMAPPED_VALUE"),
        (101, "Warengruppe", "ZCLOUD", "UNMAPPED_VALUE"),
        (111, "Warengruppe", "ZCLOUD", "UNMAPPED_VALUE"),
    }
    landed = tenant.warehouse.query(
        "SELECT sector, country, unit_id, expense_type, quantity FROM purchases "
        "WHERE product_name = 'Lizenz Adobe Acrobat Pro' ORDER BY quantity LIMIT 1"
    ).to_dict("records")
    assert landed
    assert landed[0]["sector"] == "541511"
    assert (landed[0]["country"], landed[0]["unit_id"], landed[0]["expense_type"]) == (
        "ES", "EUR", "opex",
    )  # fmt: skip


def test_the_sector_map_and_default_country_come_from_the_environment(tenant: Tenant) -> None:
    sector_map = tenant.workdir / "my_groups.csv"
    sector_map.write_text(
        "Warengruppe;Sektor\nZCLOUD;518210\nZMRO01;561720\nZIT02;541511\n", encoding="cp1252"
    )
    env = tenant_env(tenant, EMISSIONS_SECTOR_MAP=str(sector_map), EMISSIONS_DEFAULT_COUNTRY="ES")
    done = run_cli("load", SAMPLE, env=env)

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (120, 118, 2)
    sectors = tenant.warehouse.query(
        "SELECT DISTINCT sector FROM purchases WHERE product_name IN "
        "('Wartung Netzwerk Q1', 'Hosting Rechenzentrum (Monat)', 'Cloud Backup Speicher')"
    )["sector"].tolist()
    assert sorted(sectors) == ["518210", "541511"]  # ZIT02 overridden, ZCLOUD added


def test_the_options_win_over_nothing_and_name_the_file_they_extend(tmp_path: Path) -> None:
    sector_map = tmp_path / "groups.csv"
    sector_map.write_text(
        'material_group,sector\nZCLOUD,"Data Processing, Hosting, and Related Services"\n'
    )
    done = run_cli(
        "validate", SAMPLE, "--sector-map", sector_map, "--default-country", "ES",
        "--rejects", tmp_path / "r.json",
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert "120 rows read, 117 valid, 3 rejected" in done.stdout
    [unmapped] = [r for r in read_rejects(tmp_path / "r.json") if r["code"] == "UNMAPPED_VALUE"]
    assert unmapped["value"] == "ZMRO01"
    assert "nor in groups.csv" in unmapped["message"]
    assert "--sector-map" in unmapped["message"]


def test_the_inbox_copy_is_read_through_the_profile_within_its_folder() -> None:
    done = run_cli("validate", INBOX_COPY)

    assert done.returncode == 1, done.stderr
    assert "ME2N_2026_Q1.txt (purchases): 120 rows read, 114 valid, 6 rejected" in done.stdout


def test_technical_field_names_are_a_spelling_of_the_same_layout(tmp_path: Path) -> None:
    path = tmp_path / "ekpo.csv"
    path.write_text(
        "EBELN;EBELP;BEDAT;TXZ01;MATKL;WERKS;NETWR;WAERS;LIFNR\n"
        "4500020001;10;15.02.2026;Toner HP 305A;ZBUE01;1100;245,90;EUR;0000102001\n",
        encoding="utf-8",
    )
    done = run_cli("validate", path)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "(purchases): 1 rows read, 1 valid, 0 rejected" in done.stdout


def test_a_missing_material_group_is_exit_2_naming_it(tmp_path: Path) -> None:
    lines = SAMPLE.read_text(encoding="cp1252").splitlines()
    drop = lines[0].split("\t").index("Warengruppe")
    path = tmp_path / "no_group.txt"
    path.write_text(
        "\n".join("\t".join(c for i, c in enumerate(line.split("\t")) if i != drop)
                  for line in lines),
        encoding="cp1252",
    )  # fmt: skip
    for extra in (("--profile", "sap_purchases"), ()):
        done = run_cli("validate", path, *extra)

        assert done.returncode == 2, (extra, done.stdout)
        assert "needs Warengruppe (or Material Group, Matl Group, MATKL)" in done.stderr
