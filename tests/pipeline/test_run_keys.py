"""A file's content is its run key: the same content loads once, whatever it is called, over a
served sandbox and a real warehouse file; and the rule itself, run by run."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from emissions_etl.errors import AlreadyLoadedError
from emissions_etl.loading.file_loads import FileOutcome
from emissions_etl.loading.file_plan import PlannedFile
from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.loading.run_keys import source_for_content
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import ContentRun

from .tenancy import Tenant, waste_row, write_wastes_csv

WASTES = resource_spec("wastes")
DIGEST, OTHER = "a" * 64, "b" * 64


def _load(tenant: Tenant, path: Path, **options: object) -> FileOutcome:
    """One file loaded as the CLI and the flows load it (``load_files``): its outcome."""
    from emissions_etl.loading.file_loads import load_files

    [outcome] = load_files(
        [PlannedFile(path, WASTES)], settings=tenant.settings(), options=LoadOptions(**options),
        keep_going=False,
    )  # fmt: skip
    return outcome


def _remote_wastes(tenant: Tenant) -> int:
    with tenant.client() as client:
        return sum(1 for _ in client.iter_wastes())


def test_the_same_content_under_another_name_adds_nothing_and_says_where_it_was_loaded(
    tenant: Tenant,
) -> None:
    (tenant.workdir / "wastes").mkdir()
    first = write_wastes_csv(tenant.workdir / "wastes" / "residuos_enero.csv",
                             [waste_row(n) for n in range(6)])  # fmt: skip
    copy = shutil.copy(first, tenant.workdir / "wastes" / "residuos_enero (1).csv")
    _load(tenant, first)

    again = _load(tenant, Path(copy))

    today = datetime.now(UTC).date().isoformat()
    assert again.already_loaded
    assert again.skipped == f"already loaded as wastes/residuos_enero.csv on {today}"
    assert _remote_wastes(tenant) == 6
    runs = tenant.warehouse.query("SELECT count(*) AS n FROM load_runs")
    assert int(runs["n"][0]) == 1


def test_the_same_file_loads_again_as_the_nightly_loads_its_inbox(tenant: Tenant) -> None:
    path = write_wastes_csv(tenant.workdir / "w.csv", [waste_row(n) for n in range(4)])
    _load(tenant, path)

    again = _load(tenant, path)

    assert again.summary is not None
    assert (again.summary.rows_unchanged, again.summary.rows_sent) == (4, 0)


def test_a_file_that_arrives_again_unchanged_is_skipped(tenant: Tenant) -> None:
    path = write_wastes_csv(tenant.workdir / "w.csv", [waste_row(n) for n in range(4)])
    _load(tenant, path, content_once=True)

    again = _load(tenant, path, content_once=True)

    assert again.already_loaded
    assert again.skipped.startswith("already loaded as ")


def test_a_file_that_arrives_back_at_an_earlier_content_loads_again(tenant: Tenant) -> None:
    path = tenant.workdir / "w.csv"
    january = [waste_row(n) for n in range(4)]
    write_wastes_csv(path, january)
    _load(tenant, path, content_once=True)
    write_wastes_csv(path, [*january, waste_row(9)])
    _load(tenant, path, content_once=True)

    write_wastes_csv(path, january)
    back = _load(tenant, path, content_once=True, mirror=True)

    assert back.summary is not None
    assert (back.summary.rows_unchanged, back.summary.rows_deleted) == (4, 1)
    assert _remote_wastes(tenant) == 4


def test_a_source_given_by_hand_loads_the_content_as_that_source(tenant: Tenant) -> None:
    first = write_wastes_csv(tenant.workdir / "a.csv", [waste_row(n) for n in range(3)])
    copy = shutil.copy(first, tenant.workdir / "b.csv")
    _load(tenant, first)

    given = _load(tenant, Path(copy), source="a.csv")

    assert given.summary is not None
    assert (given.summary.rows_unchanged, given.summary.rows_sent) == (3, 0)


def test_the_copy_of_a_file_the_service_failed_loads_as_that_files_source(
    tenant: Tenant,
) -> None:
    first = write_wastes_csv(tenant.workdir / "a.csv", [waste_row(n) for n in range(3)])
    copy = shutil.copy(first, tenant.workdir / "b.csv")
    loaded = _load(tenant, first)
    assert loaded.summary is not None
    with tenant.warehouse.writer() as writer:  # as if the service had failed a row of it
        writer.runs.finish_run(loaded.summary.run_id, outcome="partial", counts={"rows_failed": 1})

    again = _load(tenant, Path(copy))

    assert again.summary is not None
    assert again.summary.source_name == "a.csv"
    assert (again.summary.rows_unchanged, again.summary.rows_sent) == (3, 0)
    assert any("loaded before as the source 'a.csv'" in note for note in again.summary.notes)
    assert _remote_wastes(tenant) == 3


def test_loading_a_file_the_warehouse_knows_by_content_raises_already_loaded(
    tenant: Tenant,
) -> None:
    first = write_wastes_csv(tenant.workdir / "a.csv", [waste_row(n) for n in range(2)])
    copy = shutil.copy(first, tenant.workdir / "b.csv")
    with tenant.client() as client:
        load_file(first, api=client, warehouse=tenant.warehouse, spec=WASTES)

        with pytest.raises(AlreadyLoadedError, match=r"already loaded as .*/a\.csv on "):
            load_file(Path(copy), api=client, warehouse=tenant.warehouse, spec=WASTES)


def _run(name: str, digest: str, outcome: str = "succeeded", failed: int = 0,
         minutes: int = 0) -> ContentRun:  # fmt: skip
    started = datetime(2026, 12, 1, 10, tzinfo=UTC) + timedelta(minutes=minutes)
    return ContentRun(f"/inbox/wastes/{name}", name, digest, outcome, failed, started)


def test_content_never_loaded_loads_as_its_own_source() -> None:
    runs = [_run("enero.csv", OTHER)]

    assert source_for_content(runs, digest=DIGEST, name="enero.csv") == "enero.csv"


def test_content_settled_elsewhere_is_skipped_naming_the_last_load_of_it() -> None:
    runs = [_run("a.csv", DIGEST, minutes=0), _run("b.csv", DIGEST, "partial", minutes=5)]

    with pytest.raises(AlreadyLoadedError) as raised:
        source_for_content(runs, digest=DIGEST, name="c.csv")

    assert str(raised.value) == "already loaded as wastes/b.csv on 2026-12-01"


def test_content_the_service_failed_elsewhere_loads_as_the_first_source_of_it() -> None:
    runs = [_run("a.csv", DIGEST, "failed"), _run("b.csv", DIGEST, "partial", failed=2)]

    assert source_for_content(runs, digest=DIGEST, name="c.csv") == "a.csv"


def test_content_loaded_as_itself_before_loads_again_unless_once() -> None:
    runs = [_run("a.csv", DIGEST)]

    assert source_for_content(runs, digest=DIGEST, name="a.csv") == "a.csv"
    with pytest.raises(AlreadyLoadedError):
        source_for_content(runs, digest=DIGEST, name="a.csv", once=True)


def test_once_loads_content_whose_last_load_of_its_source_did_not_settle() -> None:
    runs = [_run("a.csv", DIGEST), _run("a.csv", DIGEST, "failed", minutes=5)]

    assert source_for_content(runs, digest=DIGEST, name="a.csv", once=True) == "a.csv"


def test_once_loads_content_its_source_has_changed_from_since() -> None:
    runs = [_run("a.csv", DIGEST), _run("a.csv", OTHER, minutes=5)]

    assert source_for_content(runs, digest=DIGEST, name="a.csv", once=True) == "a.csv"
