"""The database layer of a served sandbox: the WAL is copied back into the database file by the
checkpointer's thread, not by the write transaction whose commit makes it large."""

from __future__ import annotations

import time
from pathlib import Path

from emissions_sandbox.db import SQLITE_AUTOCHECKPOINT_PAGES, Database, WalCheckpointer

ROWS = 6000  # about 1,500 pages of 1 KB values: past SQLite's automatic checkpoint threshold


def _autocheckpoint(db: Database) -> int:
    with db.transaction() as conn:
        return int(conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])


def _write_many_pages(db: Database) -> None:
    with db.transaction() as conn:
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(f"bulk-{i}", "x" * 1000) for i in range(ROWS)],
        )


def test_the_checkpointer_not_the_commit_copies_the_wal_into_the_file(tmp_path: Path) -> None:
    db = Database(tmp_path / "sandbox.db")
    db.migrate()
    checkpointer = WalCheckpointer(db, poll_seconds=0.05)
    db.set_autocheckpoint(False)  # as the checkpointer sets it, before it runs
    before = db.path.stat().st_size
    _write_many_pages(db)
    assert db.path.stat().st_size == before  # the commit left its pages in the WAL

    checkpointer.start()
    try:
        assert _autocheckpoint(db) == 0  # a transaction: its commit wakes the checkpointer
        deadline = time.monotonic() + 10
        while db.path.stat().st_size < before + ROWS * 1000 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert db.path.stat().st_size >= before + ROWS * 1000
    finally:
        checkpointer.stop()
    assert _autocheckpoint(db) == SQLITE_AUTOCHECKPOINT_PAGES
    count = db.reader().execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'bulk-%'").fetchone()
    assert count[0] == ROWS


def test_an_idle_checkpointer_sleeps_until_a_commit_wakes_it(tmp_path: Path) -> None:
    db = Database(tmp_path / "sandbox.db")
    db.migrate()
    checkpointer = WalCheckpointer(db, poll_seconds=0.05, idle_seconds=60)
    checkpointer.start()
    try:
        assert _autocheckpoint(db) == 0  # a commit: it wakes, and checkpoints what is there
        time.sleep(0.3)
        before = db.path.stat().st_size
        _write_many_pages(db)
        deadline = time.monotonic() + 10
        while db.path.stat().st_size < before + ROWS * 1000 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert db.path.stat().st_size >= before + ROWS * 1000  # long before its idle poll
    finally:
        checkpointer.stop()
