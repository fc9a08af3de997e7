"""The wheel carries what running needs, under the project's own names: the pipeline, the
schemas, the flows with the declaration of their deployments, the sandbox, every data file of
theirs and the demo's sample inbox, each byte for byte as the repository has it; and the
metadata a registry's page shows."""

from __future__ import annotations

import email
import zipfile
from email.message import Message
from pathlib import Path

import pytest

from tests.installed_package import PROJECT

pytestmark = pytest.mark.xdist_group("wheel")  # one build for the module's tests
SOURCE_DATA = ("*.csv", "*.sql", "*.md", "*.toml", "*.yaml", "*.j2")


def wheel_files(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def metadata(wheel: Path) -> Message:
    [name] = [n for n in wheel_files(wheel) if n.endswith(".dist-info/METADATA")]
    return email.message_from_bytes(wheel_files(wheel)[name])


def repository_files(folder: Path, *patterns: str) -> dict[str, bytes]:
    """The files of ``folder`` matching ``patterns``, by their path inside it."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for pattern in patterns
        for path in folder.rglob(pattern)
        if "__pycache__" not in path.parts and ".egg-info" not in str(path)
    }


def test_the_wheels_top_level_names_are_the_projects_own(built_wheel: Path) -> None:
    tops = {name.split("/")[0] for name in wheel_files(built_wheel)}

    assert tops - {f"emissions_etl-{built_wheel.name.split('-')[1]}.dist-info"} == {
        "emissions_etl",
        "emissions_etl_flows",
        "emissions_etl_sample_inbox",
        "emissions_etl_schemas",
        "emissions_sandbox",
    }


def test_the_wheel_carries_the_flows_and_their_deployments_as_flows_holds_them(
    built_wheel: Path,
) -> None:
    files = wheel_files(built_wheel)
    flows = repository_files(PROJECT / "flows", "*.py", "prefect.yaml")

    assert {name: files.get(f"emissions_etl_flows/{name}") for name in flows} == flows
    assert "prefect.yaml" in flows


def test_the_wheel_carries_the_sample_inbox_file_for_file_and_not_its_scripts(
    built_wheel: Path,
) -> None:
    files = wheel_files(built_wheel)
    inbox = repository_files(PROJECT / "sample_data" / "inbox", "*.*")
    packaged = {name.split("/", 1)[1]: data for name, data in files.items()
                if name.startswith("emissions_etl_sample_inbox/")}  # fmt: skip

    assert packaged == inbox
    assert not [name for name in files if Path(name).name.startswith("make_")]


def test_the_wheel_carries_every_data_file_of_its_packages(built_wheel: Path) -> None:
    files = wheel_files(built_wheel)
    data = repository_files(PROJECT / "src", *SOURCE_DATA)

    assert [name for name in data if files.get(name) != data[name]] == []
    assert "emissions_etl/warehouse/ddl.sql" in data
    assert "emissions_etl/report/templates/page.html.j2" in data  # the report's templates


def test_the_wheel_says_its_license_urls_python_versions_and_description(
    built_wheel: Path,
) -> None:
    about = metadata(built_wheel)

    assert about["License-Expression"] == "Apache-2.0"
    assert {url.split(",")[0] for url in about.get_all("Project-URL", [])} >= {
        "Homepage", "Documentation", "Source", "Issues", "Changelog"
    }  # fmt: skip
    assert about["Requires-Python"] == "<3.13,>=3.11"
    versions = [c for c in about.get_all("Classifier", []) if c.startswith("Programming")]
    assert "Programming Language :: Python :: 3.11" in versions
    assert "Programming Language :: Python :: 3.12" in versions
    assert about["Description-Content-Type"] == "text/markdown"
    readme = (PROJECT / "README.md").read_bytes()
    assert about.get_payload(decode=True) == readme
