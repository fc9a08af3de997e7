"""`emissions-sandbox`: create a database, its organizations, users and facilities, and serve it
over HTTPS on loopback. Output of the create commands is one JSON object on stdout."""

from __future__ import annotations

import copy
import gc
import ipaddress
import json
import logging
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import typer

from emissions_sandbox import accounts
from emissions_sandbox.db import Database
from emissions_sandbox.settings import DEFAULT_MAX_BODY_BYTES

app = typer.Typer(
    help="Local Emissions Accounting Service sandbox.",
    no_args_is_help=True,
    # Plain help, wrapped to the terminal: rich's tables cut long option names at 80 columns.
    rich_markup_mode=None,
)
DB_OPTION = typer.Option(..., "--db", help="SQLite database file")

EXIT_OK, EXIT_NOT_DONE, EXIT_USAGE = 0, 1, 2
#: Command -> exit code -> when that command ends with it (the docs' reference is generated from
#: here). A usage error (a missing or bad option, an unknown organization) is 2, as click exits.
COMMAND_EXITS: dict[str, dict[int, str]] = {
    "init": {EXIT_OK: "The database is ready.", EXIT_USAGE: "A usage error."},
    "create-org": {
        EXIT_OK: "The organization and its admin were created (printed as JSON).",
        EXIT_USAGE: "A usage error, or the parent organization does not exist.",
    },
    "create-user": {
        EXIT_OK: "The user was created (printed as JSON).",
        EXIT_USAGE: "A usage error, a role other than admin or member, or an unknown "
        "organization.",
    },
    "revoke-key": {
        EXIT_OK: "The key was revoked.",
        EXIT_NOT_DONE: "The key is unknown or was already revoked.",
        EXIT_USAGE: "A usage error.",
    },
    "create-facility": {
        EXIT_OK: "The facility was created (printed as JSON).",
        EXIT_USAGE: "A usage error, or an unknown organization.",
    },
    "serve": {
        EXIT_USAGE: "A usage error, or --http on a host that is not loopback (otherwise it "
        "serves until a signal stops it).",
    },
}


def _database(path: Path) -> Database:
    db = Database(path)
    db.migrate()
    return db


@app.command()
def init(db: Path = DB_OPTION) -> None:
    """Create or upgrade the database, with its reference data."""
    _database(db)
    typer.echo(json.dumps({"db": str(db), "status": "ready"}))


@app.command("create-org")
def create_org(
    db: Path = DB_OPTION,
    name: str = typer.Option("Sandbox organization", "--name", help="organization name"),
    parent: str | None = typer.Option(None, "--parent", help="parent organization id"),
) -> None:
    """Create an organization and its admin user (with an API key)."""
    with _database(db).transaction() as conn:
        try:
            org_id = accounts.create_organization(conn, name, parent)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        user = accounts.create_user(conn, org_id, is_admin=True)
    typer.echo(
        json.dumps(
            {
                "organization_id": org_id,
                "user_id": user.user_id,
                "email": user.email,
                "password": user.password,
                "api_key": user.api_key,
            }
        )
    )


@app.command("create-user")
def create_user(
    db: Path = DB_OPTION,
    org: str = typer.Option(..., "--org", help="organization id"),
    role: str = typer.Option("member", "--role", help="admin or member"),
) -> None:
    """Create a user in an organization (with an API key)."""
    if role not in ("admin", "member"):
        raise typer.BadParameter("--role must be admin or member")
    with _database(db).transaction() as conn:
        try:
            user = accounts.create_user(conn, org, is_admin=role == "admin")
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    typer.echo(
        json.dumps(
            {
                "user_id": user.user_id,
                "email": user.email,
                "password": user.password,
                "api_key": user.api_key,
            }
        )
    )


@app.command("revoke-key")
def revoke_key(
    db: Path = DB_OPTION, key: str = typer.Option(..., "--key", help="the API key to revoke")
) -> None:
    """Revoke an API key, at once and for good."""
    with _database(db).transaction() as conn:
        revoked = accounts.revoke_api_key(conn, key)
    if not revoked:
        typer.echo("unknown or already revoked key", err=True)
        raise typer.Exit(EXIT_NOT_DONE)
    typer.echo(json.dumps({"revoked": True}))


@app.command("create-facility")
def create_facility(
    db: Path = DB_OPTION,
    org: str = typer.Option(..., "--org", help="organization id"),
    name: str = typer.Option(..., "--name", help="facility name"),
    country: str = typer.Option("ES", "--country", help="ISO 3166-1 country code"),
    type: str = typer.Option("office", "--type", help="facility type (office, warehouse, ...)"),
) -> None:
    """Create an active facility in an organization and print it."""
    from emissions_sandbox.api.facilities import FacilityCreate, insert_facility

    with _database(db).transaction() as conn:
        if not conn.execute("SELECT 1 FROM organizations WHERE id = ?", (org,)).fetchone():
            raise typer.BadParameter(f"unknown organization {org}")
        facility = insert_facility(
            conn,
            org,
            None,
            FacilityCreate(name=name, type=type, country=country, logistic_factor=0.8),
        )
    typer.echo(json.dumps(facility))


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _tls_files(host: str, ca_file: Path | None, workdir: Path) -> tuple[str, str]:
    """A fresh CA and a leaf for the loopback names; the CA PEM goes to `ca_file`."""
    import trustme

    ca = trustme.CA()
    names = sorted({"127.0.0.1", "localhost", "::1", host})
    leaf = ca.issue_cert(*names)
    cert_path, key_path = workdir / "cert.pem", workdir / "key.pem"
    leaf.private_key_pem.write_to_path(str(key_path))
    cert_path.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    if ca_file is not None:
        ca_file.parent.mkdir(parents=True, exist_ok=True)
        ca.cert_pem.write_to_path(str(ca_file))
    return str(cert_path), str(key_path)


def _log_config() -> dict:
    import uvicorn.config

    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for handler in config["handlers"].values():
        handler["stream"] = "ext://sys.stderr"  # stdout carries only the base URL
    return config


@app.command()
def serve(
    db: Path = DB_OPTION,
    host: str = typer.Option("127.0.0.1", "--host", help="address to serve on"),
    port: int = typer.Option(8443, "--port", help="0 picks a free port"),
    ca_file: Path | None = typer.Option(None, "--ca-file", help="write the CA certificate here"),
    http: bool = typer.Option(False, "--http", help="plain HTTP, loopback only"),
    calc_delay: float = typer.Option(0.0, "--calc-delay", help="seconds slept per chunk"),
    allow_private_webhooks: bool = typer.Option(
        False,
        "--allow-private-webhooks",
        help="Development only: webhook endpoints may use loopback and private addresses, and "
        "plain http when the host is loopback (a receiver on this machine: the tests, or a load "
        "with EMISSIONS_WEBHOOK_URL=http://127.0.0.1:8787/hook). Link-local and metadata "
        "addresses stay refused. The real service calls public https URLs only.",
    ),
    test_routes: bool = typer.Option(False, "--test-routes", hidden=True),
    max_body_bytes: int = typer.Option(
        DEFAULT_MAX_BODY_BYTES, "--max-body-bytes", min=1, help="larger request bodies get 413"
    ),
) -> None:
    """Serve the sandbox; prints its base URL on one line once it accepts connections."""
    import uvicorn

    from emissions_sandbox.app import create_app
    from emissions_sandbox.settings import SandboxSettings

    if http and not _is_loopback(host):
        raise typer.BadParameter("--http is allowed only on a loopback host")
    settings = SandboxSettings(
        db_path=db,
        calc_delay=calc_delay,
        allow_private_webhooks=allow_private_webhooks,
        test_routes=test_routes,
        max_body_bytes=max_body_bytes,
    )
    application = create_app(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound_port = sock.getsockname()[1]
    # The key and certificate live on disk only while uvicorn reads them into its SSL context:
    # it re-raises SIGTERM and SIGINT once it has shut down, so a directory left for the end of
    # `serve` would outlive every stop (a private key per run left in the temp folder).
    with tempfile.TemporaryDirectory(prefix="emissions-sandbox-tls-") as workdir:
        certfile = keyfile = None
        if not http:
            certfile, keyfile = _tls_files(host, ca_file, Path(workdir))
        config = uvicorn.Config(
            application,
            log_config=_log_config(),
            access_log=False,
            log_level="warning",
            ssl_certfile=certfile,
            ssl_keyfile=keyfile,
        )
        config.load()
    server = uvicorn.Server(config)
    shown_host = f"[{host}]" if ":" in host else host
    url = f"{'http' if http else 'https'}://{shown_host}:{bound_port}"
    threading.Thread(target=_announce, args=(server, url), daemon=True).start()
    # The application (routes, models, schemas, some 100,000 objects) lives as long as the
    # process: frozen out of the cyclic collector, whose full collections otherwise walked it
    # again every few bulk requests.
    gc.freeze()
    server.run(sockets=[sock])


def _announce(server: object, url: str) -> None:
    while not getattr(server, "started", False):
        if getattr(server, "should_exit", False):
            return
        time.sleep(0.02)
    print(url, flush=True)
    logging.getLogger(__name__).info("serving on %s", url)
    sys.stdout.flush()
