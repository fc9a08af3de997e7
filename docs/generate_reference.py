"""Write the reference pages under ``docs/reference/`` from the code, or check them.

    .venv/bin/python docs/generate_reference.py           # write the pages that changed
    .venv/bin/python docs/generate_reference.py --check   # exit 1 naming the pages that differ

The pages: the command lines (``cli.md``, ``sandbox-cli.md``), the environment variables, the
warehouse's tables and views, the exit and reject codes, the Prefect deployments. Each is made
from what the code declares (``docs/reference_pages``); something declared without its
description stops it with one line saying what to add, and where (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a page differs"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from docs.reference_pages.command_line import Undeclared
    from docs.reference_pages.pages import REFERENCE, differing, reference_pages, write

    try:
        pages = reference_pages()
    except Undeclared as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.check:
        stale = differing(pages)
        for name in stale:
            print(f"{REFERENCE / name}: differs from the code (run docs/generate_reference.py)")
        return 1 if stale else 0
    for name in write(pages):
        print(f"wrote {REFERENCE / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
