"""Files and folders in a real S3-compatible server (moto's, on loopback): read as files are,
a large csv streamed, a workbook from a local copy, every failure of the store one line naming
the object and no credential."""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest

from emissions_etl.errors import CorruptSourceError, SourceNotFoundError, StorageError
from emissions_etl.loading.inbox import plan_inbox
from emissions_etl.resources import resource_spec
from emissions_etl.sources import read_source
from emissions_etl.storage import (
    as_path,
    folder_entries,
    local_file,
    stamped_entries,
    write_text,
)
from tests.pipeline.tenancy import HEADER, waste_row, write_wastes_xlsx
from tests.s3_server import SECRET_ACCESS_KEY, S3Server

pytestmark = [
    pytest.mark.slow,  # an S3 server: left out of the fast run
    pytest.mark.xdist_group("s3-objects"),  # one server for the module, on one worker
]

WASTES = resource_spec("wastes")


def put(s3: S3Server, url: str, data: bytes) -> str:
    bucket, _, key = url.removeprefix("s3://").partition("/")
    s3.client().put_object(Bucket=bucket, Key=key, Body=data)
    return url


def read_all(url: str, **options: object) -> list:  # type: ignore[type-arg]
    return list(read_source(as_path(url), expected_columns=WASTES.columns,
                            aliases=WASTES.aliases, **options))  # type: ignore[arg-type]  # fmt: skip


def wastes_csv(rows: int) -> bytes:
    lines = [",".join(HEADER)]
    lines += [",".join("" if c is None else str(c) for c in waste_row(n)) for n in range(rows)]
    return ("\n".join(lines) + "\n").encode()


def test_a_csv_object_reads_as_its_file_would(s3: S3Server, tmp_path: Path) -> None:
    s3.create_bucket("read-csv")
    data = wastes_csv(30)
    (tmp_path / "wastes.csv").write_bytes(data)
    url = put(s3, "s3://read-csv/inbox/wastes/wastes.csv", data)

    remote, local = read_all(url), read_all(str(tmp_path / "wastes.csv"))

    assert len(remote) == len(local) == 1
    assert remote[0].equals(local[0])  # _file is the name, in the store as on disk


def test_a_large_csv_object_streams_in_bounded_memory(s3: S3Server) -> None:
    s3.create_bucket("large-csv")
    peaks, sizes = [], []
    for rows in (200_000, 800_000):  # ~17 MB and ~70 MB
        data = wastes_csv(rows)
        url = put(s3, f"s3://large-csv/{rows}.csv", data)
        sizes.append(len(data))
        del data
        tracemalloc.start()
        try:
            assert sum(len(batch) for batch in _stream(url)) == rows
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()

    # Four times the object, the same memory: what streams is a block and a batch at a time.
    assert sizes[1] > 60_000_000
    assert peaks[1] < 1.3 * peaks[0], [f"{p / 1e6:.0f} MB" for p in peaks]
    assert peaks[1] < sizes[1] / 2, [f"{p / 1e6:.0f} MB" for p in peaks]


def _stream(url: str):  # type: ignore[no-untyped-def]
    yield from read_source(as_path(url), expected_columns=WASTES.columns, aliases=WASTES.aliases,
                           batch_rows=20_000)  # fmt: skip


def test_a_workbook_object_is_read_from_a_local_copy_under_its_name(
    s3: S3Server, tmp_path: Path
) -> None:
    s3.create_bucket("read-xlsx")
    book = write_wastes_xlsx(tmp_path / "register.xlsx", [waste_row(n) for n in range(5)])
    url = put(s3, "s3://read-xlsx/register.xlsx", book.read_bytes())

    [batch] = read_all(url)
    copy = local_file(as_path(url))

    assert len(batch) == 5
    assert set(batch["_file"]) == {"register.xlsx"}
    assert copy.name == "register.xlsx"
    assert copy.read_bytes() == book.read_bytes()
    assert local_file(as_path(url)) == copy  # fetched once


def test_a_damaged_workbook_object_is_named_not_its_copy(s3: S3Server) -> None:
    s3.create_bucket("damaged")
    url = put(s3, "s3://damaged/broken.xlsx", b"PK\x03\x04 not a zip at all")

    with pytest.raises(CorruptSourceError) as raised:
        read_all(url)

    assert str(raised.value).startswith(f"{url}: ")
    assert raised.value.path == url


def test_a_missing_object_is_no_such_file(s3: S3Server) -> None:
    s3.create_bucket("missing")

    with pytest.raises(SourceNotFoundError, match=r"^s3://missing/nothing.csv: no such file"):
        read_all("s3://missing/nothing.csv")


def test_a_store_that_cannot_be_reached_is_one_line_without_credentials(
    s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    import s3fs

    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # botocore's retries change nothing here: 10 s
    s3fs.S3FileSystem.clear_instance_cache()  # a new process would make its client anew

    with pytest.raises(StorageError) as raised:
        read_all("s3://anywhere/wastes.csv")

    message = str(raised.value)
    assert message.startswith("s3://anywhere/wastes.csv: the store cannot be reached")
    assert "\n" not in message
    assert SECRET_ACCESS_KEY not in message
    s3fs.S3FileSystem.clear_instance_cache()


def test_an_inbox_in_the_store_is_planned_as_its_folder_would_be(
    s3: S3Server, tmp_path: Path
) -> None:
    s3.create_bucket("plan")
    inbox = Path(__file__).parents[2] / "sample_data" / "inbox"
    s3.upload_folder(inbox / "business_travels", "s3://plan/inbox/business_travels")
    s3.upload_folder(inbox / "facilities", "s3://plan/inbox/facilities")
    local = tmp_path / "inbox"
    for name in ("business_travels", "facilities"):
        (local / name).mkdir(parents=True)
        for path in (inbox / name).iterdir():
            (local / name / path.name).write_bytes(path.read_bytes())

    remote = plan_inbox(as_path("s3://plan/inbox"))
    here = plan_inbox(local)

    assert [(f.path.name, f.spec.name if f.spec else None, f.sheets) for f in remote] == [
        (f.path.name, f.spec.name if f.spec else None, f.sheets) for f in here
    ]
    assert {str(f.path) for f in remote} == {
        "s3://plan/inbox/facilities/centros_2026.xlsx",
        "s3://plan/inbox/business_travels/agency_flights_2026.csv",
        "s3://plan/inbox/business_travels/travel_log_2026_h1.xlsx",
    }


def test_a_folder_lists_its_files_and_folders_once(s3: S3Server) -> None:
    s3.create_bucket("listing")
    for key in ("inbox/a.csv", "inbox/b.xlsx", "inbox/wastes/c.csv", "inbox/wastes/src/d.csv"):
        put(s3, f"s3://listing/{key}", b"x")

    files, folders = folder_entries(as_path("s3://listing/inbox"))

    assert [str(p) for p in files] == ["s3://listing/inbox/a.csv", "s3://listing/inbox/b.xlsx"]
    assert [str(p) for p in folders] == ["s3://listing/inbox/wastes"]


def test_an_objects_stamp_is_its_size_and_etag_from_the_listing_and_changes_with_it(
    s3: S3Server,
) -> None:
    s3.create_bucket("stamps")
    put(s3, "s3://stamps/inbox/wastes/a.csv", b"one")
    [(_, before)], _ = stamped_entries(as_path("s3://stamps/inbox/wastes"))
    etag = s3.client().head_object(Bucket="stamps", Key="inbox/wastes/a.csv")["ETag"]

    put(s3, "s3://stamps/inbox/wastes/a.csv", b"two!")

    [(_, after)], _ = stamped_entries(as_path("s3://stamps/inbox/wastes"))
    assert before == f"3:{etag}"
    assert after.startswith("4:")
    assert after != before


def test_a_file_written_to_the_store_is_whole_when_it_appears(s3: S3Server) -> None:
    s3.create_bucket("written")

    write_text(as_path("s3://written/out/rejects.json"), "[]\n")

    body = s3.client().get_object(Bucket="written", Key="out/rejects.json")["Body"].read()
    assert io.BytesIO(body).read() == b"[]\n"


def test_the_nightly_s_inbox_and_an_organization_s_own_may_be_folders_of_the_store(
    s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pydantic import SecretStr

    from emissions_etl.errors import ConfigurationError
    from emissions_etl.orchestration.config import resolve_inbox
    from emissions_etl.organizations import Organization

    s3.create_bucket("nightly")
    put(s3, "s3://nightly/inbox/acme-es/wastes/a.csv", b"x")
    monkeypatch.setenv("EMISSIONS_INBOX", "s3://nightly/inbox")
    own = Organization("acme-pt", "org-pt", SecretStr("k"), inbox="s3://nightly/pt-exports")

    inbox = resolve_inbox(None)

    assert str(inbox) == "s3://nightly/inbox"
    assert str(own.inbox_under(inbox)) == "s3://nightly/pt-exports"
    assert str(Organization("acme-es", "org-es", SecretStr("k")).inbox_under(inbox)) == (
        "s3://nightly/inbox/acme-es"
    )
    with pytest.raises(ConfigurationError, match="inbox folder s3://nightly/none does not exist"):
        resolve_inbox("s3://nightly/none")
