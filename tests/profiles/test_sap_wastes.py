"""The SAP waste profile: disposal documents with plant codes and SAP units, recognised from
their German header and loaded through the real CLI; the existing ERP export read through it."""

from __future__ import annotations

from pathlib import Path

from tests.pipeline.tenancy import Tenant
from tests.profiles.conftest import ROOT, SAMPLES, last_run, read_rejects, run_cli, tenant_env

SAMPLE = SAMPLES / "sap_wastes" / "entsorgungsbelege_2026_h1.csv"
ERP_EXPORT = ROOT / "sample_data" / "inbox" / "wastes" / "erp_export_wastes.csv"


def test_the_disposal_documents_are_recognised_and_load_with_their_mistakes(
    demo_tenant: Tenant,
) -> None:
    rejects = demo_tenant.workdir / "rejects.json"
    done = run_cli("load", SAMPLE, "--rejects", rejects, env=tenant_env(demo_tenant))

    assert done.returncode == 1, done.stderr
    run = last_run(demo_tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "wastes", 60, 56, 4,
    )  # fmt: skip
    found = {(r["row"], r["column"], r["value"], r["code"]) for r in read_rejects(rejects)}
    assert found == {
        (10, "Werk", "1400", "UNKNOWN_FACILITY"),
        (22, "Mengeneinheit", "ST", "INVALID_UNIT"),
        (34, "Entsorgte Menge", "1.250,0-", "INVALID_NUMBER"),
        (46, "AVV-Nummer", "15 01 10*", "INVALID_LER_CODE"),
    }


def test_plant_codes_and_sap_units_become_facilities_and_tonnes(demo_tenant: Tenant) -> None:
    path = demo_tenant.workdir / "disposal.csv"
    path.write_text(
        "Werk;Abfallart;Gültig ab;Gültig bis;Entsorgte Menge;Mengeneinheit;AVV-Nummer;"
        "Entsorgungsverfahren\n"
        "1000;Holz;01.01.2026;31.01.2026;1,290;TO;17 02 01;R3\n"
        "1300;Glas;01.02.2026;28.02.2026;2.400,5;KG;20 01 02;R5\n",
        encoding="cp1252",
    )
    done = run_cli("load", path, env=tenant_env(demo_tenant))

    assert done.returncode == 0, done.stdout + done.stderr
    landed = demo_tenant.warehouse.query(
        "SELECT f.name AS facility, w.quantity_t FROM wastes w "
        "JOIN facilities f USING (facility_id) ORDER BY w.quantity_t"
    )
    assert landed.to_dict("records") == [
        {"facility": "Madrid Warehouse", "quantity_t": 1.29},
        {"facility": "Sevilla Logistics Hub", "quantity_t": 2.4005},
    ]


def test_the_erp_export_of_the_inbox_loads_through_the_profile_named(demo_tenant: Tenant) -> None:
    rejects = demo_tenant.workdir / "rejects.json"
    done = run_cli(
        "load", ERP_EXPORT, "--profile", "sap_wastes", "--rejects", rejects,
        env=tenant_env(demo_tenant),
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    run = last_run(demo_tenant)
    assert (run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (100, 95, 5)
    assert '"profile": "sap_wastes"' in run["parameters"]
    assert sorted((r["row"], r["column"]) for r in read_rejects(rejects)) == [
        (13, "Menge"), (25, "LER-Code"), (49, "R/D"), (61, "Von"), (85, "ME"),
    ]  # fmt: skip


def _without_column(source: Path, target: Path, header: str) -> Path:
    lines = source.read_text(encoding="cp1252").splitlines()
    position = lines[0].split(";").index(header)
    kept = [";".join(c for i, c in enumerate(line.split(";")) if i != position) for line in lines]
    target.write_text("\n".join(kept) + "\n", encoding="cp1252")
    return target


def test_a_missing_required_source_column_is_exit_2_naming_it(tmp_path: Path) -> None:
    path = _without_column(SAMPLE, tmp_path / "no_avv.csv", "AVV-Nummer")
    for extra in (("--profile", "sap_wastes"), ("--resource", "wastes"), ()):
        done = run_cli("validate", path, *extra)

        assert done.returncode == 2, (extra, done.stdout, done.stderr)
        assert "AVV-Nummer" in done.stderr, (extra, done.stderr)
        assert "profile sap_wastes needs LER-Code" in done.stderr, (extra, done.stderr)
        assert done.stderr.strip().count("\n") == 0
