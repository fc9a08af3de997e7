"""No credential in what any command prints or stores: every command that takes a warehouse or
a file is run against a catalog and a store that cannot be reached, with every kind of
credential set (the API key, the catalog's password in its conninfo, ``PGPASSWORD``, a
``.pgpass`` file, AWS keys and session token, Azure keys, the webhook secret, a Prefect API
key), and none of them appears in its output or in any file it writes. DuckDB quotes a
catalog's conninfo, password included, when it cannot attach it: that is scrubbed too."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.cli_process import run_etl
from tests.pipeline.tenancy import waste_row, write_wastes_csv

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SECRETS = {
    "api key": "api-key-NEVER-SHOWN-0001",
    "conninfo password": "catalog-pw-NEVER-SHOWN-0002",
    "PGPASSWORD": "pgpassword-NEVER-SHOWN-0003",
    ".pgpass": "pgpass-file-NEVER-SHOWN-0004",
    "AWS secret key": "aws-secret-NEVER-SHOWN-0005",
    "AWS session token": "aws-token-NEVER-SHOWN-0006",
    "Azure key": "azure-key-NEVER-SHOWN-0007",
    "Azure connection string key": "azure-conn-NEVER-SHOWN-0008",
    "webhook secret": "whsec_NEVER-SHOWN-0009",
    "Prefect API key": "pnu_NEVER-SHOWN-0010",
}


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def unreachable(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose service, catalog, store and Prefect server cannot be reached,
    holding every credential."""
    home = tmp_path_factory.mktemp("home")
    pgpass = home / ".pgpass"
    pgpass.write_text(f"127.0.0.1:*:*:etl:{SECRETS['.pgpass']}\n", encoding="utf-8")
    pgpass.chmod(0o600)
    port = closed_port()
    return {
        **os.environ,
        "HOME": str(home),
        "EMISSIONS_API_URL": f"https://127.0.0.1:{closed_port()}",
        "EMISSIONS_API_KEY": SECRETS["api key"],
        "EMISSIONS_ORGANIZATION_ID": "8d0c0000-0000-0000-0000-000000000001",
        "EMISSIONS_WAREHOUSE": (
            f"ducklake:postgres:dbname=lake host=127.0.0.1 port={port} user=etl "
            f"password={SECRETS['conninfo password']} connect_timeout=3"
        ),
        "EMISSIONS_WAREHOUSE_DATA": "s3://lake-bucket/data/",
        "EMISSIONS_WEBHOOK_SECRET": SECRETS["webhook secret"],
        "EMISSIONS_LIMITS_FILE": str(home / "limits.sqlite3"),
        "PGPASSWORD": SECRETS["PGPASSWORD"],
        "PGPASSFILE": str(pgpass),
        "AWS_ACCESS_KEY_ID": "AKIAUNREACHABLE00001",
        "AWS_SECRET_ACCESS_KEY": SECRETS["AWS secret key"],
        "AWS_SESSION_TOKEN": SECRETS["AWS session token"],
        "AWS_DEFAULT_REGION": "eu-west-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{closed_port()}",
        "AWS_EC2_METADATA_DISABLED": "true",
        # One try at the closed store: botocore's retries (5 by default) change nothing of what
        # a command shows or stores, and held each command of the store 8-12 s (62 s -> 20 s).
        "AWS_MAX_ATTEMPTS": "1",
        "AZURE_STORAGE_KEY": SECRETS["Azure key"],
        "AZURE_STORAGE_CONNECTION_STRING": (
            "DefaultEndpointsProtocol=https;AccountName=acct;"
            f"AccountKey={SECRETS['Azure connection string key']};EndpointSuffix=core.windows.net"
        ),
        "PREFECT_API_URL": f"http://127.0.0.1:{closed_port()}/api",
        "PREFECT_API_KEY": SECRETS["Prefect API key"],
    }


#: Every command that takes a warehouse or a file, with the files it takes in the store and
#: here (``{local}``: a real csv of this machine).
COMMANDS = {
    "load from the store": ["load", "s3://exports/inbox/wastes/wastes.csv",
                            "--rejects", "s3://exports/out/rejects.json"],
    "load a folder of the store": ["load", "s3://exports/inbox/"],
    "load a local file into the lake": ["load", "{local}", "--rejects", "rejects.json"],
    "validate from the store": ["validate", "s3://exports/inbox/wastes"],
    "validate with rejects to the store": ["validate", "{local}",
                                           "--rejects", "s3://exports/out/rejects.xlsx"],
    "sql": ["sql", "SELECT count(*) FROM load_runs"],
    "report": ["report", "--out", "report.html"],
    "report to the store": ["report", "--out", "s3://exports/out/report.html"],
    "inventory": ["inventory", "--out", "inventory.xlsx"],
    "inventory to the store": ["inventory", "--out", "s3://exports/out/inventory.csv"],
    "rebuild-warehouse": ["rebuild-warehouse"],
    "template with the service": ["template", "wastes", "--out", "template.xlsx"],
    "prefect-setup": ["prefect-setup", "--no-deploy", "--inbox", "s3://exports/inbox"],
}  # fmt: skip


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_that_cannot_reach_the_catalog_or_the_store_shows_and_stores_no_credential(
    name: str, unreachable: dict[str, str], tmp_path: Path
) -> None:
    local = write_wastes_csv(tmp_path / "wastes.csv", [waste_row(n) for n in range(3)])
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    arguments = [part.replace("{local}", str(local)) for part in COMMANDS[name]]

    done = run_etl([*arguments], env=unreachable, cwd=tmp_path, timeout=300)

    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    said = done.stdout + done.stderr
    assert [what for what, secret in SECRETS.items() if secret in said] == [], said[-3000:]
    written = {
        path: path.read_bytes()
        for path in tmp_path.rglob("*")
        if path.is_file() and before.get(path) != path.read_bytes()
    }
    stored = [
        (str(path.relative_to(tmp_path)), what)
        for path, content in written.items()
        for what, secret in SECRETS.items()
        if secret.encode() in content
    ]
    assert stored == []
    print(f"{name}: exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
