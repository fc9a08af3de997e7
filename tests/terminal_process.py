"""Run the real ``emissions-etl`` executable in a pseudo-terminal, as a person at a terminal
runs it: stdin, stdout and stderr are the terminal (so rich draws its live progress), and what
the terminal was sent (escape sequences and all) is read back whole."""

from __future__ import annotations

import errno
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ETL = Path(sys.executable).with_name("emissions-etl")


@dataclass(frozen=True)
class TerminalRun:
    returncode: int
    #: Everything the terminal received, escape sequences included.
    output: str


def run_in_terminal(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float = 240.0,
    columns: int = 200,
) -> TerminalRun:
    """``emissions-etl ARGS`` with a terminal of ``columns`` as its three streams."""
    main, secondary = os.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    terminal_env = {**env, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "50"}
    process = subprocess.Popen(
        [str(ETL), *args], stdin=secondary, stdout=secondary, stderr=secondary,
        env=terminal_env, cwd=cwd, start_new_session=True,
    )  # fmt: skip
    os.close(secondary)
    received = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(main, 65536)
            except OSError as error:  # EIO: every holder of the terminal's other end is gone
                if error.errno != errno.EIO:
                    raise
                break
            if not chunk:
                break
            received += chunk
        else:
            process.kill()
            raise subprocess.TimeoutExpired(ETL.name, timeout, output=bytes(received))
        returncode = process.wait(timeout=30)
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
    return TerminalRun(returncode, received.decode("utf-8", errors="replace"))
