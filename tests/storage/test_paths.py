"""What a user names as a file or folder becomes a local path or an object of its store."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest
from upath import UPath

from emissions_etl.errors import ConfigurationError
from emissions_etl.storage import as_path, is_url


def test_a_local_path_stays_a_pathlib_path() -> None:
    assert as_path("inbox/wastes/a.csv") == Path("inbox/wastes/a.csv")
    assert type(as_path("inbox/wastes/a.csv")) is type(Path("x"))
    assert not is_url("inbox/wastes/a.csv")


def test_a_file_url_is_a_local_path() -> None:
    assert as_path("file:///srv/exports/a%20b.csv") == Path("/srv/exports/a b.csv")
    assert not is_url("file:///srv/exports/a.csv")


def test_an_s3_url_is_an_object_whose_folder_and_name_are_a_file_s() -> None:
    path = as_path("s3://exports/inbox/business_travels/agency/v2.xlsx")

    assert isinstance(path, UPath)
    assert is_url(path)
    assert str(path) == "s3://exports/inbox/business_travels/agency/v2.xlsx"
    assert (path.name, path.suffix, path.parent.name, path.parent.parent.name) == (
        "v2.xlsx", ".xlsx", "agency", "business_travels",
    )  # fmt: skip


def test_an_unknown_scheme_is_refused_naming_those_taken() -> None:
    with pytest.raises(ConfigurationError, match=r"unknown kind of location ftp:// \(use file://"):
        as_path("ftp://host/a.csv")


def test_a_store_whose_client_is_not_installed_says_what_to_install() -> None:
    if find_spec("gcsfs") is not None:
        pytest.skip("gcsfs is installed here")
    needs = r"gs:// needs gcsfs: pip install 'emissions-etl\[gcs\]'"

    with pytest.raises(ConfigurationError, match=needs):
        as_path("gs://bucket/a.csv")
