"""Shared fixtures: a served sandbox (real HTTPS on loopback) for the whole session."""

from __future__ import annotations

import atexit
import compileall
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.nodes import Node

from tests.installed_package import InstalledPackage, build_wheel, install
from tests.postgres_server import PostgresServer, available, running_postgres
from tests.sandbox_fixture import SandboxServer, provisioned_sandbox

SERVE_FLAGS = ("--allow-private-webhooks", "--test-routes")


def pytest_configure(config: pytest.Config) -> None:
    """Write our own modules' bytecode once, before the workers start, and let every process
    of the suite write that of the packages it imports (``_write_bytecode``)."""
    if not hasattr(config, "workerinput"):
        _write_bytecode()
        compileall.compile_dir(Path(__file__).parents[1] / "src", quiet=1)
        _rewrite_test_modules_once(config)
        _refuse_groups_that_would_spread(config)
        _trust_one_root_for_plain_http_clients()
        # Workers (and their servers) on two cores: DuckDB's two threads per connection only
        # waited for each other (the warehouse's tests spent 19 % less CPU, 17 % less time, on
        # one). Every warehouse the tests open takes it, in-process or in the processes they
        # start.
        os.environ.setdefault("EMISSIONS_WAREHOUSE_THREADS", "1")


def _write_bytecode() -> None:
    """The environment sets PYTHONDONTWRITEBYTECODE: every process the suite starts (workers,
    sandboxes, the command line, Prefect's servers, workers and flow runs) would compile each
    module it imports from source again, every time. The installed packages are not compiled
    at install (``[tool.uv]``: compiling all of them cost more than the suite's imports, which
    take a fraction of it), so the suite's processes write a module's bytecode the first
    time one of them imports it, and read it from then on, as Python does by default."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


#: Session servers only some tests use, by the fixture that starts one: a worker starts one the
#: first time it runs such a test, so those tests share a group (one worker, one server) unless
#: they are in a group already (xdist would join the names into a group of their own).
_SERVER_GROUPS = {"slow_sandbox": "slow-sandbox", "strict_sandbox_server": "strict-sandbox"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups into the node ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        names = getattr(item, "fixturenames", ())
        for fixture, group in _SERVER_GROUPS.items():
            if fixture in names:
                item.add_marker(pytest.mark.xdist_group(group))
                break


#: Session fixtures whose servers spend CPU while they idle: a Prefect server's services and
#: loops (2-3 % of a core), a sandbox's threads, PostgreSQL. The tests that use one share an
#: xdist_group, which runs in a row on one worker: the worker stops the server when its group
#: is over instead of at the end of the session, minutes later (should a later test need it,
#: pytest starts it again).
_STOPPED_WHEN_DONE = (
    "prefect_server",
    "_prefect_server_process",
    "slow_sandbox",
    "strict_sandbox_server",
    "postgres",
)
#: Each of those the worker has started: its FixtureDef, the request that started it, and the
#: group of the last test that used it.
_started: dict[str, tuple[Any, Any, str | None]] = {}


def _group(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return str(marker.args[0]) if marker and marker.args else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After pytest's own teardown of ``item`` (its function and module fixtures)."""
    yield
    request = getattr(item, "_request", None)
    for name in set(_STOPPED_WHEN_DONE) & set(getattr(item, "fixturenames", ())):
        fixturedef = request._fixture_defs.get(name) if request else None
        if fixturedef is not None:
            _started[name] = (fixturedef, request, _group(item))
    if nextitem is None:  # the session ends: pytest stops them all now
        return
    needed = set(getattr(nextitem, "fixturenames", ()))
    for name, (fixturedef, by, group) in list(_started.items()):
        if name not in needed and _group(nextitem) != group:
            del _started[name]
            fixturedef.finish(by)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (every module's code, classes and constants, some 400,000 objects)
    lives as long as the worker: frozen out of the cyclic collector, whose full collections
    otherwise walked it again at each (the sandbox does the same once it has started)."""
    gc.freeze()


def _trust_one_root_for_plain_http_clients() -> None:
    """Every Prefect client, and every httpx client made without ``verify``, loads a bundle of
    trusted roots even to talk plain HTTP: parsing certifi's whole bundle costs CPU per client,
    and the flow tests and the real server's workers and flow runs make hundreds of clients.
    The tests' only HTTPS server is the sandbox, which every client reaches with its own CA
    file, so the workers and the processes they start (set before they start) trust one root
    of certifi's (over a value already set: a system's bundle is as large)."""
    import certifi

    bundle = Path(certifi.where()).read_text(encoding="ascii")
    end = "-----END CERTIFICATE-----"
    first = bundle[bundle.index("-----BEGIN CERTIFICATE-----") : bundle.index(end) + len(end)]
    folder = Path(tempfile.mkdtemp(prefix="emissions-etl-tests-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / "one-root.pem").write_text(first + "\n", encoding="ascii")
    for name in ("PREFECT_API_SSL_CERT_FILE", "SSL_CERT_FILE"):
        os.environ[name] = str(folder / "one-root.pem")


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """Write pytest's assertion-rewritten bytecode of each test module and conftest before the
    workers start: the workers collect at the same time, and each would rewrite all of them
    (under PYTHONDONTWRITEBYTECODE, whatever the others wrote)."""
    from _pytest.assertion import rewrite

    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # --assert=plain: nothing is rewritten
        return
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        if not (path.name.startswith("test_") or path.name == "conftest.py"):
            continue
        pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc, state.trace) is not None:
            continue
        try:
            source_stat, code = rewrite._rewrite_test(path, config)
        except (OSError, SyntaxError):
            continue  # the worker that collects it reports it, as pytest does
        if rewrite.try_makedirs(pyc.parent):
            rewrite._write_pyc(state, code, source_stat, pyc)


def _refuse_groups_that_would_spread(config: pytest.Config) -> None:
    """``--dist loadgroup`` keeps an ``xdist_group`` on one worker by suffixing each of its tests'
    node ids (``item._nodeid``): a pytest whose ``nodeid`` reads something else (9.2) silently
    spreads every group, each worker starting the group's servers again. Refuse to run then."""
    reads = Node.nodeid.fget.__code__.co_names if Node.nodeid.fget else ()
    if config.getoption("dist", "no") == "loadgroup" and "_nodeid" not in reads:
        raise pytest.UsageError(
            f"pytest {pytest.__version__} ignores pytest-xdist's group marks, so --dist loadgroup "
            "would not keep a group's tests on one worker: install the pytest the lock pins"
        )


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """The session's sandbox: org (admin), other_org, and a member of org; calc_delay 0."""
    with provisioned_sandbox(tmp_path_factory.mktemp("sandbox"), extra=SERVE_FLAGS) as server:
        yield server


@pytest.fixture(scope="session")
def slow_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """A sandbox that sleeps 0.5 s per chunk, so `processing` can be observed."""
    with provisioned_sandbox(
        tmp_path_factory.mktemp("slow-sandbox"), calc_delay=0.5, extra=SERVE_FLAGS
    ) as server:
        yield server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL for the worker's session (lake catalogs): each module makes databases of
    its own in it; the modules that need one share an ``xdist_group`` so they share it too."""
    if not available():
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
    with running_postgres() as server:
        yield server


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built through its sdist once for the worker's session."""
    return build_wheel(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="session")
def installed_package(
    built_wheel: Path, tmp_path_factory: pytest.TempPathFactory
) -> InstalledPackage:
    """A venv of its own with the wheel installed: no checkout on its path."""
    return install(built_wheel, tmp_path_factory.mktemp("installed") / "venv")
