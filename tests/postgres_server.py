"""A real PostgreSQL for tests and benchmarks: Debian's ``postgresql`` binaries, run as the
``postgres`` user (the server refuses root) in a temporary folder, on a free loopback port.

    with running_postgres(tmp_path) as server:
        server.conninfo("lake")      # "dbname=lake host=127.0.0.1 port=... user=emissions"

``.ci/run`` installs the package when it is missing; ``POSTGRES_BIN`` names another bin folder.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

USER = "emissions"
_DATABASES = itertools.count(1)


@dataclass(frozen=True)
class PostgresServer:
    port: int
    folder: Path

    def conninfo(self, database: str) -> str:
        """The libpq conninfo of ``database`` (trust authentication on loopback)."""
        return f"dbname={database} host=127.0.0.1 port={self.port} user={USER}"

    def create_database(self, name: str) -> str:
        """A new empty database named after ``name`` (numbered: modules share a server);
        returns its conninfo."""
        name = f"{name}_{next(_DATABASES)}"
        _run(self, [self._bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                    "-U", USER, name])  # fmt: skip
        return self.conninfo(name)

    def _bin(self, name: str) -> str:
        return str(postgres_bin() / name)


def postgres_bin() -> Path:
    """The folder of Debian's PostgreSQL binaries (the newest installed), or ``POSTGRES_BIN``."""
    if os.environ.get("POSTGRES_BIN"):
        return Path(os.environ["POSTGRES_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise RuntimeError("no PostgreSQL here: apt-get install postgresql (as .ci/run does)")
    return found[-1].parent


def available() -> bool:
    try:
        postgres_bin()
    except RuntimeError:
        return False
    return True


@contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """Start a server in a fresh folder of the system's temporary one (pytest's are root's
    alone: ``postgres`` could not enter them), stop it afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="emissions-pg-"))
    folder.chmod(0o777)
    data = folder / "data"
    port = _free_port()
    server = PostgresServer(port, folder)
    as_postgres = _as_postgres()
    _run(server, [*as_postgres, str(postgres_bin() / "initdb"), "-D", str(data), "-A", "trust",
                  "-U", USER, "--no-sync"])  # fmt: skip
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c max_connections=200 -c synchronous_commit=off"
    )
    _run(server, [*as_postgres, str(postgres_bin() / "pg_ctl"), "-D", str(data), "-o", options,
                  "-l", str(folder / "server.log"), "-w", "start"])  # fmt: skip
    try:
        yield server
    finally:
        subprocess.run(
            [*as_postgres, str(postgres_bin() / "pg_ctl"), "-D", str(data), "-m", "immediate",
             "-w", "stop"],
            capture_output=True, check=False, timeout=60,
        )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


def _as_postgres() -> list[str]:
    """Root runs the binaries as ``postgres``; anyone else as themselves."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _run(server: PostgresServer, command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120,
                          cwd=server.folder)  # fmt: skip
    if done.returncode != 0:
        log = server.folder / "server.log"
        extra = log.read_text()[-2000:] if log.exists() else ""
        raise RuntimeError(f"{' '.join(command[:6])}...: {done.stderr[-2000:]}{extra}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
