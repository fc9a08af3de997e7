"""The TMS profile: shipment legs recognised from their header (their own columns are also
close to the resource's, but the profile reads more of them) and loaded through the real CLI."""

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

SAMPLE = SAMPLES / "tms_shipments" / "tms_shipment_legs_2026_q1.csv"
INBOX_COPY = ROOT / "sample_data" / "inbox" / "logistics_requests" / SAMPLE.name
pytestmark = needs_resource("logistics_requests")


def test_the_shipment_legs_load_with_their_mistakes(tenant: Tenant) -> None:
    rejects = tenant.workdir / "rejects.json"
    done = run_cli("load", SAMPLE, "--rejects", rejects, env=tenant_env(tenant))

    assert done.returncode == 1, done.stderr
    run = last_run(tenant)
    assert (run["resource"], run["rows_read"], run["rows_loaded"], run["rows_rejected"]) == (
        "logistics_requests", 90, 86, 4,
    )  # fmt: skip
    found = {(r["row"], r["column"], r["code"]) for r in read_rejects(rejects)}
    assert found == {
        (16, "Mode", "UNMAPPED_VALUE"),
        (35, "Gross Weight (kg)", "NOT_POSITIVE"),
        (54, "Destination", "REJECTED_BY_SERVICE"),
        (73, "Ship Date", "INVALID_DATE"),
    }
    legs = tenant.warehouse.query(
        "SELECT movement_stretch, category FROM logistics_requests "
        "WHERE movement_id = (SELECT movement_id FROM logistics_requests "
        "GROUP BY movement_id HAVING count(*) = 3 ORDER BY movement_id LIMIT 1) "
        "ORDER BY movement_stretch"
    ).to_dict("records")
    assert [(leg["movement_stretch"], leg["category"]) for leg in legs] == [
        ("1", "road"), ("2", "maritime"), ("3", "road"),
    ]  # fmt: skip


def test_the_profile_reads_the_export_even_where_the_resource_fits_its_header(
    tmp_path: Path,
) -> None:
    # "Sea FCL" is no category the resource's own spellings know; the profile's table does.
    done = run_cli("validate", INBOX_COPY, "--rejects", tmp_path / "r.json")

    assert done.returncode == 1
    assert "(logistics_requests): 90 rows read, 87 valid, 3 rejected" in done.stdout
    direct = run_cli("validate", SAMPLE, "--resource", "logistics_requests")
    assert "87 valid" in direct.stdout
