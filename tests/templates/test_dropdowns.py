"""Every template has dropdowns without a service (choices, yes/no, ISO 3166 countries, the
interface's categories, documented fuels); with a service, the organization's lists."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from tests.cli_process import run_etl
from tests.pipeline.tenancy import Tenant, tenant

__all__ = ["tenant"]


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = run_etl([*args], timeout=180, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def without_service() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("EMISSIONS_")}


def dropdowns(path: Path) -> dict[str, tuple[DataValidation, list[str]]]:
    """Header -> (its list validation, the values its list offers)."""
    book = openpyxl.load_workbook(path)
    data = book.worksheets[0]
    header = {cell.column_letter: cell.value for cell in data[1]}
    found = {}
    for validation in data.data_validations.dataValidation:
        assert validation.type == "list"
        letter = re.match(r"[A-Z]+", str(validation.sqref)).group()  # type: ignore[union-attr]
        sheet, cells = validation.formula1.lstrip("=").split("!")
        values = [row[0].value for row in book[sheet.strip("'")][cells.replace("$", "")]]
        found[str(header[letter])] = (validation, values)
    return found


@pytest.fixture(scope="module")
def offline_templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every resource ``emissions-etl resources`` lists, and its template written by
    ``emissions-etl template NAME --no-with-service`` without any EMISSIONS_* setting."""
    folder = tmp_path_factory.mktemp("templates")
    listed = run("resources", env=without_service()).stdout
    written = {}
    for name in re.findall(r"^│ ([a-z_]+)\s+│", listed, flags=re.MULTILINE):
        out = folder / f"{name}.xlsx"
        run("template", name, "--out", str(out), "--no-with-service", env=without_service())
        written[name] = out
    return written


def test_every_template_has_dropdowns_without_a_service(offline_templates: dict[str, Path]) -> None:
    assert len(offline_templates) == 11, sorted(offline_templates)
    for name, path in offline_templates.items():
        found = dropdowns(path)
        assert found, f"{name}: no dropdown"
        for header, (_, values) in found.items():
            assert values, (name, header)
            assert all(values), (name, header)


def test_countries_come_from_the_shipped_iso_list_open_where_more_is_read(
    offline_templates: dict[str, Path],
) -> None:
    facilities = dropdowns(offline_templates["facilities"])
    recharges = dropdowns(offline_templates["logistics_recharges"])

    validation, codes = facilities["country"]
    assert len(codes) == 249
    assert {"ES", "PT", "GB", "US", "DE"} <= set(codes)
    assert validation.errorStyle == "information"  # ESP and GLO are read too: kept after a note
    validation, categories = facilities["categories"]
    assert categories == ["heat", "electricity", "water", "recharge"]
    assert validation.errorStyle == "information"  # "electricity, water" is one cell
    validation, codes = recharges["country"]
    assert len(codes) == 249
    assert validation.errorStyle in (None, "stop")  # two letters only: anything else refused
    validation, fuels = recharges["fuel"]
    assert fuels == ["diesel", "petrol", "lpg", "cng", "lng", "electricity"]
    assert validation.errorStyle == "information"


def test_with_a_service_the_organizations_lists_fill_the_dropdowns(
    tenant: Tenant, tmp_path: Path
) -> None:
    env = {
        **without_service(),
        "EMISSIONS_API_URL": tenant.base_url,
        "EMISSIONS_API_KEY": tenant.api_key,
        "EMISSIONS_ORGANIZATION_ID": tenant.organization_id,
        "EMISSIONS_CA_FILE": str(tenant.ca_file),
    }
    with tenant.client() as client:
        fuels = sorted({str(item["name"]) for item in client.iter_items("/v1/logistics/fuels")})
        tocs = {str(item["toc"]) for item in client.iter_items("/v1/logistics/tocs")}
    out = tmp_path / "recharges.xlsx"

    run("template", "logistics_recharges", "--out", str(out), env=env)

    found = dropdowns(out)
    validation, values = found["fuel"]
    assert values == fuels
    assert validation.errorStyle in (None, "stop")
    assert set(found["toc"][1]) == tocs
    assert len(found["country"][1]) == 249
