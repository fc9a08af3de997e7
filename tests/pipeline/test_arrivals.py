"""Which files of an inbox arrived, complete, since the last look: over a real folder, listed as
the watcher lists it (no file read), and its ledger look after look."""

from __future__ import annotations

import os
from pathlib import Path

from emissions_etl.loading.arrivals import ArrivalLedger, Look, look
from emissions_etl.loading.inbox import InboxEntry, inbox_entries, inbox_entry

from .tenancy import waste_row, write_wastes_csv


def _inbox(tmp_path: Path) -> Path:
    inbox = tmp_path / "inbox"
    (inbox / "wastes").mkdir(parents=True)
    return inbox


def _look(inbox: Path, ledger: ArrivalLedger, *, meanwhile: object = None) -> Look:
    """One look at ``inbox``; ``meanwhile`` (a callable) runs before the second listing, as a
    copy still writing would."""
    looked_again: list[bool] = []

    def again() -> list[InboxEntry]:
        looked_again.append(True)
        if callable(meanwhile):
            meanwhile()
        return inbox_entries(inbox)

    return look(ledger, inbox_entries(inbox), look_again=again)


def _names(entries: list[InboxEntry]) -> list[str]:
    return [entry.path.name for entry in entries]


def test_the_listing_holds_what_the_nightly_plans_with_the_resource_its_folder_names(
    tmp_path: Path,
) -> None:
    inbox = _inbox(tmp_path)
    (inbox / "wastes" / "agency").mkdir()
    (inbox / "notes").mkdir()
    write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    write_wastes_csv(inbox / "wastes" / "agency" / "v1.csv", [waste_row(2)])
    write_wastes_csv(inbox / "mixed.csv", [waste_row(3)])
    for skipped in ("wastes/~$enero.xlsx", "wastes/.hidden.csv", "notes/n.csv", "readme.md"):
        (inbox / skipped).write_text("x")

    entries = inbox_entries(inbox)

    assert {e.path.relative_to(inbox).as_posix(): e.spec.name if e.spec else None
            for e in entries} == {"mixed.csv": None, "wastes/enero.csv": "wastes",
                                  "wastes/agency/v1.csv": "wastes"}  # fmt: skip


def test_a_files_stamp_changes_when_its_bytes_do(tmp_path: Path) -> None:
    path = write_wastes_csv(tmp_path / "w.csv", [waste_row(1)])
    [before] = inbox_entries(tmp_path)

    write_wastes_csv(path, [waste_row(1), waste_row(2)])

    [after] = inbox_entries(tmp_path)
    assert before.stamp != after.stamp


def test_a_new_file_unchanged_at_a_second_look_has_arrived(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path)
    write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])

    seen = _look(inbox, ArrivalLedger())

    assert _names(seen.arrived) == ["enero.csv"]
    assert seen.unsettled == []
    assert set(seen.ledger.sent) == {str(inbox / "wastes" / "enero.csv")}


def test_a_file_still_being_written_waits_for_the_next_look(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path)
    path = write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])

    def grows() -> None:
        with path.open("a") as out:
            out.write("Madrid Warehouse,more")

    first = _look(inbox, ArrivalLedger(), meanwhile=grows)
    second = _look(inbox, first.ledger)

    assert (first.arrived, _names(first.unsettled)) == ([], ["enero.csv"])
    assert first.ledger.sent == {}
    assert _names(second.arrived) == ["enero.csv"]


def test_a_file_sent_is_not_sent_again_and_an_idle_inbox_is_listed_once(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path)
    write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    first = _look(inbox, ArrivalLedger())
    listings: list[bool] = []

    def again() -> list[InboxEntry]:
        listings.append(True)
        return inbox_entries(inbox)

    idle = look(first.ledger, inbox_entries(inbox), look_again=again)

    assert (idle.arrived, idle.unsettled, listings) == ([], [], [])
    assert idle.ledger == first.ledger


def test_a_file_rewritten_after_it_was_sent_is_sent_again(tmp_path: Path) -> None:
    inbox = _inbox(tmp_path)
    path = write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    first = _look(inbox, ArrivalLedger())
    write_wastes_csv(path, [waste_row(1), waste_row(2)])
    os.utime(path, ns=(1, 1))  # a copy that kept an old modification time: the size changed

    again = _look(inbox, first.ledger)

    assert _names(again.arrived) == ["enero.csv"]


def test_a_file_gone_from_the_inbox_is_forgotten_and_is_new_when_put_back(
    tmp_path: Path,
) -> None:
    inbox = _inbox(tmp_path)
    path = write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    first = _look(inbox, ArrivalLedger())
    kept = path.read_bytes()
    path.unlink()

    gone = _look(inbox, first.ledger)
    path.write_bytes(kept)
    back = _look(inbox, gone.ledger)

    assert gone.ledger == ArrivalLedger()
    assert _names(back.arrived) == ["enero.csv"]


def test_a_file_seen_unchanged_since_the_last_look_arrives_without_a_second_listing(
    tmp_path: Path,
) -> None:
    inbox = _inbox(tmp_path)
    write_wastes_csv(inbox / "wastes" / "enero.csv", [waste_row(1)])
    [entry] = inbox_entries(inbox)
    listings: list[bool] = []

    def again() -> list[InboxEntry]:
        listings.append(True)
        return inbox_entries(inbox)

    seen = look(ArrivalLedger(seen={str(entry.path): entry.stamp}), [entry], look_again=again)

    assert (_names(seen.arrived), listings) == (["enero.csv"], [])


def test_an_object_a_notification_names_is_the_entry_the_listing_would_show(
    tmp_path: Path,
) -> None:
    from emissions_etl.storage import as_path

    inbox = as_path("s3://bucket/inbox")

    def entry(key: str) -> str | None:
        found = inbox_entry(inbox, as_path(f"s3://bucket/{key}"), "3:e")
        return None if found is None else (found.spec.name if found.spec else "")

    assert entry("inbox/mixed.csv") == ""
    assert entry("inbox/wastes/enero.csv") == "wastes"
    assert entry("inbox/wastes/agency/v2.xlsx") == "wastes"
    for skipped in ("inbox/wastes/agency/deeper/v3.csv", "inbox/notes/n.csv",
                    "inbox/wastes/_old/v1.csv", "inbox/wastes/readme.md", "other/wastes/a.csv",
                    "inbox/wastes/~$enero.xlsx"):  # fmt: skip
        assert entry(skipped) is None, skipped
