"""Run the ``emissions-etl`` console script on corpus files, one child process per file.

``python -m tests.corpus.run_case`` imports the CLI once (start-up is not what is measured),
then reads requests from stdin, one JSON list of command-line arguments per line. For each it
forks a child that runs the console script's own entry point with those arguments, exactly as
``.venv/bin/emissions-etl`` would, its stdout and stderr going to the files the request names;
and it answers one JSON line: the exit code, the child's CPU and wall seconds for the command,
and the child's peak resident memory (``ru_maxrss`` from ``os.wait4``, inherited pages
included, so that it is the footprint of a real run).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from importlib.metadata import entry_points

#: Far above any peak allowed, far below what a runaway allocation would ask for (RLIMIT_AS is
#: not usable: pyarrow reserves address space it never touches).
DATA_LIMIT = 4 * 1024**3


def main() -> None:
    (script,) = entry_points(group="console_scripts", name="emissions-etl")
    command = script.load()
    # What the command imports lazily is start-up, not work: import it first.
    import emissions_etl.cli.terminal  # noqa: F401
    import emissions_etl.loading.pipeline  # noqa: F401

    resource.setrlimit(resource.RLIMIT_DATA, (DATA_LIMIT, DATA_LIMIT))
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(_run(command, request)), flush=True)


def _run(command: object, request: dict[str, object]) -> dict[str, object]:
    timing = f"{request['stdout']}.timing"
    pid = os.fork()
    if pid == 0:  # the child: run the command, write its own timing, exit with its code
        code = _child(command, request, timing)
        os._exit(code)
    _, status, usage = os.wait4(pid, 0)
    figures = {"cpu": None, "wall": None}
    if os.path.exists(timing):
        with open(timing) as stream:
            figures = json.load(stream)
    return {
        "code": os.waitstatus_to_exitcode(status),
        "peak_mb": usage.ru_maxrss / 1024,  # kilobytes on Linux
        **figures,
    }


def _child(command: object, request: dict[str, object], timing: str) -> int:
    for stream, target in ((1, request["stdout"]), (2, request["stderr"])):
        handle = os.open(str(target), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(handle, stream)
        os.close(handle)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    wall, cpu = time.perf_counter(), time.process_time()
    code = 0
    try:
        command(args=request["args"], prog_name="emissions-etl")  # type: ignore[operator]
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (1 if exit.code else 0)
    except BaseException:  # noqa: BLE001 - report it as the console script would
        import traceback

        traceback.print_exc()
        code = 1
    with open(timing, "w") as stream:
        json.dump({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}, stream)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    main()
