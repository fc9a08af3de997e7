"""The fork server the command-line tests run ``emissions-etl`` through (``tests/cli_process``):
commands at once each end with their own code and output, and one past its time is killed."""

from __future__ import annotations

import subprocess
import time

import pytest

from emissions_etl import __version__
from tests.cli_process import run_module, start_etl


def test_commands_started_together_each_end_with_their_own_code_and_output() -> None:
    version = start_etl(["--version"])
    refused = start_etl(["no-such-command"])
    other = start_etl(["--version"])

    ended = [command.communicate(timeout=120) for command in (version, refused, other)]

    assert len({version.pid, refused.pid, other.pid}) == 3
    assert [version.returncode, refused.returncode, other.returncode] == [0, 2, 0]
    assert ended[0] == ended[2] == (f"emissions-etl {__version__}\n", "")
    assert "No such command 'no-such-command'" in ended[1][1]


def test_a_command_past_its_time_is_killed_and_raises_timeout_expired() -> None:
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_module("http.server", ["--bind", "127.0.0.1", "0"], timeout=1)
    assert time.monotonic() - started < 30
