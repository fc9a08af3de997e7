"""What the command line prints passes through ``scrubbing.scrub``: every credential the
settings and the environment hold is masked on stdout and stderr, whoever writes there (our
lines, rich's tables, click's usage errors, a library's warning, a traceback)."""

from __future__ import annotations

import io
import sys
from typing import TextIO

from emissions_etl.scrubbing import scrub


class ScrubbedStream(io.TextIOBase):
    """A text stream writing to ``stream`` what it is given, scrubbed."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(scrub(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors


def scrub_output() -> None:
    """Scrub this process's stdout and stderr from now on (once; a second call changes
    nothing)."""
    if not isinstance(sys.stdout, ScrubbedStream):
        sys.stdout = ScrubbedStream(sys.stdout)
    if not isinstance(sys.stderr, ScrubbedStream):
        sys.stderr = ScrubbedStream(sys.stderr)
