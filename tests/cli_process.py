"""Run ``emissions-etl`` (or a test driver module) in a process of its own, as a script or a
person runs it, without paying its start-up each time.

A process of ours spends 1-2 s of CPU importing pandas, pandera, DuckDB and the resources before
it does anything, and the suite runs the command line hundreds of times. So a fork server
(``python -m tests.cli_process``, one per test worker) imports those once; for each command it
forks a child that takes the command's environment, working folder and standard streams, runs
the console script's own entry point (or ``python -m MODULE``) and exits with its code, through
Python's own exit (atexit handlers, non-daemon threads), as the executable would. What stays
imported in the server is chosen so that nothing reads the environment at import: Prefect and
the command line's consoles are imported by each child, after its environment is set.

``run_etl`` and ``run_module`` mirror ``subprocess.run(..., capture_output=True, text=True)``:
a CompletedProcess with the exit code, stdout and stderr, or TimeoutExpired after the child is
killed. ``start_etl`` mirrors ``subprocess.Popen(..., stdout=PIPE, stderr=PIPE, text=True)``
for commands that run at the same time as others (two loads at once): the server forks a child
per request as it comes and says when each ends.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

ETL = "emissions-etl"
_START_TIMEOUT = 180.0


def run_etl(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float = 300.0,
    input: str | None = None,  # noqa: A002 - subprocess.run's name
) -> subprocess.CompletedProcess[str]:
    """``emissions-etl ARGS`` with its output captured (the environment is ``env`` alone, as
    ``subprocess.run(env=...)`` gives it)."""
    command = start_etl(args, env=env, cwd=cwd, input=input)
    return command.completed(timeout)


def run_module(
    module: str,
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float = 300.0,
) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` with its output captured."""
    command = _SERVER.start({"module": module}, [module, *args], env, cwd, None)
    return command.completed(timeout)


def start_etl(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    input: str | None = None,  # noqa: A002 - subprocess.run's name
) -> ForkedCommand:
    """``emissions-etl ARGS`` started, running beside the commands started before it."""
    return _SERVER.start({"script": ETL}, [ETL, *args], env, cwd, input)


class ForkedCommand:
    """A command the server forked: ``communicate`` and ``returncode`` as ``Popen`` has them."""

    def __init__(self, argv: list[str], folder: tempfile.TemporaryDirectory[str]) -> None:
        self.args = argv
        self.pid = 0  # known once the server has forked it (``start`` waits for that)
        self.returncode: int | None = None
        self.lost = ""  # why the server can no longer say how the command ended
        self._folder = folder
        self._forked = threading.Event()
        self._ended = threading.Event()

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Wait for the command's end (killing it after ``timeout`` and raising
        TimeoutExpired); its stdout and stderr."""
        done = self.completed(timeout)
        return done.stdout, done.stderr

    def completed(self, timeout: float | None) -> subprocess.CompletedProcess[str]:
        if self._ended.wait(timeout) and self.lost:
            raise RuntimeError(self.lost)
        if not self._ended.is_set():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self._ended.wait(_START_TIMEOUT)
            self._folder.cleanup()
            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        folder = Path(self._folder.name)
        out = (folder / "stdout").read_text("utf-8", "replace")
        err = (folder / "stderr").read_text("utf-8", "replace")
        self._folder.cleanup()
        assert self.returncode is not None
        return subprocess.CompletedProcess(self.args, self.returncode, out, err)


class _ForkServer:
    """The client side: starts the server on first use; a thread reads its answers (each
    child's pid, then its exit code) and hands them to the command they name."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._commands: dict[int, ForkedCommand] = {}

    def start(
        self,
        what: dict[str, str],
        argv: list[str],
        env: Mapping[str, str] | None,
        cwd: str | Path | None,
        input_text: str | None,
    ) -> ForkedCommand:
        folder = tempfile.TemporaryDirectory(prefix="cli-")
        streams = {name: Path(folder.name) / name for name in ("stdin", "stdout", "stderr")}
        streams["stdin"].write_text(input_text or "", "utf-8")
        command = ForkedCommand(argv, folder)
        with self._lock:
            request_id = next(self._ids)
            self._commands[request_id] = command
            request = {
                **what,
                "id": request_id,
                "argv": argv,
                "env": dict(os.environ if env is None else env),
                "cwd": str(cwd or os.getcwd()),
                **{name: str(path) for name, path in streams.items()},
            }
            process = self._started()
            assert process.stdin is not None
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        if not command._forked.wait(_START_TIMEOUT) or command.lost:
            raise RuntimeError(command.lost or f"the fork server started no child for {argv}")
        return command

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "tests.cli_process"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).resolve().parents[1],
            )
            threading.Thread(target=self._read_answers, args=(self._process,), daemon=True).start()
            atexit.register(self._stop, self._process)
        return self._process

    def _read_answers(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            answer: dict[str, int] = json.loads(line)
            forked = "pid" in answer
            with self._lock:  # an end is the command's last answer: it leaves the table
                key = answer["id"]
                command = self._commands[key] if forked else self._commands.pop(key)
            if forked:
                command.pid = answer["pid"]
                command._forked.set()
            else:
                command.returncode = answer["code"]
                command._ended.set()
        lost = f"the fork server ended (exit code {process.wait()})"
        with self._lock:
            orphans = list(self._commands.values())
            self._commands.clear()
        for command in orphans:
            command.lost = lost
            command._forked.set()
            command._ended.set()

    @staticmethod
    def _stop(process: subprocess.Popen[str]) -> None:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


_SERVER = _ForkServer()


# -- the server ---------------------------------------------------------------------------------


def _serve() -> None:
    """Import what every command imports, then fork a child per request line as it comes; a
    thread per child waits for its end and says its exit code."""
    _warm()
    answers = sys.stdout
    saying = threading.Lock()

    def say(answer: dict[str, int]) -> None:
        with saying:
            print(json.dumps(answer), file=answers, flush=True)

    def wait_for(request_id: int, pid: int) -> None:
        _, status = os.waitpid(pid, 0)
        say({"id": request_id, "code": os.waitstatus_to_exitcode(status)})

    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)  # never returns
        say({"id": request["id"], "pid": pid})
        threading.Thread(target=wait_for, args=(request["id"], pid), daemon=True).start()


#: The console scripts installed, by name (``_warm``): each child loads its own entry point.
_SCRIPTS: dict[str, EntryPoint] = {}


def _warm() -> None:
    """What each command would otherwise do again in its child, once (120-150 ms of CPU per
    command): the modules a load imports (pandas, pandera, DuckDB, the client's HTTP/1.1 and
    HTTP/2 stacks, which httpx imports only when a client is made: 30 ms of a load, psycopg,
    which a load into a lake catalogued in PostgreSQL imports: 100 ms), every
    resource's schema built, pandera's backends registered by a first validation, and the
    console scripts found among the installed packages' entry points."""
    import duckdb  # noqa: F401
    import h2.connection  # noqa: F401
    import httpcore  # noqa: F401
    import httpx  # noqa: F401
    import openpyxl  # noqa: F401
    import pandas
    import pandera.pandas  # noqa: F401
    import psycopg  # noqa: F401  (the warehouse imports it only for a lake in PostgreSQL)
    import pyarrow  # noqa: F401
    import pyarrow.dataset  # noqa: F401
    import python_calamine  # noqa: F401
    import typer  # noqa: F401

    import emissions_etl.connection  # noqa: F401
    import emissions_etl.loading.file_loads  # noqa: F401
    import emissions_etl.loading.pipeline  # noqa: F401
    import emissions_etl.organizations  # noqa: F401
    from emissions_etl.resources import RESOURCES

    for spec in RESOURCES.values():
        schema = spec.schema.to_schema()
        with contextlib.suppress(Exception):  # an empty frame: only the registration matters
            schema.validate(pandas.DataFrame(columns=list(schema.columns)), lazy=True)

    _SCRIPTS.update({script.name: script for script in entry_points(group="console_scripts")})


def _child(request: dict[str, Any]) -> None:
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    written = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    for fd, name, flags in ((0, "stdin", os.O_RDONLY), (1, "stdout", written),
                            (2, "stderr", written)):  # fmt: skip
        handle = os.open(request[name], flags, 0o644)
        os.dup2(handle, fd)
        os.close(handle)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115
    sys.argv = list(request["argv"])
    code = 1
    try:
        code = _exit_code(_run_command(request))
    except SystemExit as exit:
        code = _exit_code(exit.code)
    except BaseException:  # noqa: BLE001 - what Python prints for an uncaught error
        import traceback

        traceback.print_exc()
    finally:
        os._exit(_finished(code))


def _run_command(request: dict[str, Any]) -> object:
    if "module" in request:
        import runpy

        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        return 0
    return _SCRIPTS[request["script"]].load()()


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # sys.exit("message"): printed, exit code 1
    return 1


def _finished(code: int) -> int:
    """What Python's own exit does before the process ends (non-daemon threads joined, atexit
    handlers run, streams flushed), without tearing down every module: 1 s for pandas."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BaseException:  # noqa: BLE001 - the command's code stands
        pass
    return code


if __name__ == "__main__":
    _serve()
