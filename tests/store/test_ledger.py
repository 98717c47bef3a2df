"""The ledger keeps one file a month; a workspace with the old single file keeps working.

Real passes in real git repositories: what they commit, and that a split
ledger gives the same answers as the one file it replaced.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from gardener import Workspace
from gardener.store.ledger import (
    FOLDER,
    LEGACY,
    Ledger,
    group,
    month_file,
    month_of,
    parse,
    read_all,
    render,
)

NOW = "2026-03-01T18:00"
NOTES = {
    "2026-01-20.md": "- 09:00 fact: **staging host**: box2\n- lunch was good\n",
    "2026-02-10.md": "- 10:00 decision: **database**: Postgres\n",
    "2026-02-12.md": "- 11:00 decision: **database**: SQLite\n- 12:00 fact: **ci**: GitHub\n",
}


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def workspace(root: Path) -> Workspace:
    ws, _ = Workspace.init(root, now_override=NOW)
    for name, text in NOTES.items():
        path = ws.root / "memory" / name
        path.write_text(text, encoding="utf-8")
        # written on their day (the mtime says so), recorded later: prune's
        # date check takes the mtime as the sign of when they were written
        day = datetime.fromisoformat(name[:10]).replace(hour=20, tzinfo=UTC)
        os.utime(path, (day.timestamp(), day.timestamp()))
    return ws


def as_legacy(ws: Workspace) -> None:
    """Put the ledger back in the one file of older workspaces, committed."""
    marks = read_all(ws.root).marks()
    git(ws.root, "rm", "-rq", FOLDER)
    (ws.root / LEGACY).write_text("".join(f"{m}\n" for m in sorted(marks)))
    git(ws.root, "add", LEGACY)
    git(ws.root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "old")


def test_marks_go_to_the_month_of_their_note():
    assert month_of("memory/2026-02-10.md\tabc") == "2026-02"
    assert month_of("memory/2026-02-10-standup.md\tsettled:1") == "2026-02"
    assert month_of("memory/notes.md\tabc") == "undated"
    assert group(["memory/2026-01-20.md\ta", "memory/2026-02-10.md\tb"]) == {
        "2026-01": {"memory/2026-01-20.md\ta"},
        "2026-02": {"memory/2026-02-10.md\tb"},
    }


def test_a_pass_writes_only_the_months_whose_marks_changed(tmp_path: Path):
    book = Ledger(tmp_path, {"2026-01": frozenset({"memory/2026-01-20.md\ta"})})
    book.months["2026-02"] = frozenset({"memory/2026-02-10.md\tb"})
    files = book.files({"memory/2026-01-20.md\ta", "memory/2026-02-10.md\tc"})
    assert files == {month_file("2026-02"): "memory/2026-02-10.md\tc\n"}
    # a month left without marks loses its file
    assert book.files({"memory/2026-01-20.md\ta"}) == {month_file("2026-02"): None}


def test_a_pass_commits_one_ledger_file_a_month(tmp_path: Path):
    ws = workspace(tmp_path / "ws")
    assert ws.promote().commit
    tracked = git(ws.root, "ls-files", ".gardener").split()
    # the notes' untimed lines have their recorded times (store.times) beside
    tracked = [p for p in tracked if not p.startswith(".gardener/times.d/")]
    assert tracked == [
        ".gardener/.gitignore",
        month_file("2026-01"),
        month_file("2026-02"),
    ]
    assert git(ws.root, "status", "--porcelain") == ""
    january = (ws.root / month_file("2026-01")).read_text().splitlines()
    assert all(line.startswith("memory/2026-01-20.md\t") for line in january)


def test_an_old_single_file_ledger_is_split_by_the_next_pass(tmp_path: Path):
    ws = workspace(tmp_path / "ws")
    ws.promote()
    marks = ws.read_ledger()
    memory = ws.memory_path.read_text()
    as_legacy(ws)
    assert ws.read_ledger() == marks  # still read as it is
    result = ws.promote()
    assert result.plan.decisions == ()  # nothing promoted twice
    assert result.commit and "one file a month" in git(
        ws.root, "log", "-1", "--format=%b"
    )
    assert not (ws.root / LEGACY).exists()
    assert ws.read_ledger() == marks
    assert ws.memory_path.read_text() == memory
    assert git(ws.root, "status", "--porcelain") == ""
    assert ws.promote().commit is None  # twice changes nothing


def test_an_old_ledger_gives_the_same_memory_as_a_fresh_pass(tmp_path: Path):
    # half the notes promoted under the old ledger, the rest after the upgrade
    old = workspace(tmp_path / "old")
    (old.root / "memory" / "2026-02-12.md").unlink()
    old.promote()
    as_legacy(old)
    (old.root / "memory" / "2026-02-12.md").write_text(NOTES["2026-02-12.md"])
    assert old.promote().plan.keys("supersede") == ["database"]
    fresh = workspace(tmp_path / "fresh")
    fresh.promote()
    assert old.memory_path.read_text() == fresh.memory_path.read_text()
    assert old.read_ledger() == fresh.read_ledger()


def test_prune_drops_the_marks_of_notes_it_deletes(tmp_path: Path):
    ws = workspace(tmp_path / "ws")
    ws.promote()
    # 2026-01-20 ages out once its undecided "lunch was good" has had its
    # review grace (30 + 14 days)
    later = Workspace(ws.root, now_override="2026-03-06T18:00")
    assert later.prune().plan.notes_removed == ("memory/2026-01-20.md",)
    assert not (ws.root / month_file("2026-01")).exists()
    assert "2026-01" not in git(ws.root, "ls-files", FOLDER)
    assert git(ws.root, "status", "--porcelain") == ""


def test_pending_marks_are_read_on_top_of_the_month_and_folded_by_prune(
    tmp_path: Path,
):
    ws = workspace(tmp_path / "ws")
    ws.promote()
    notes = ws.root / "memory"
    (notes / "2026-02-13.md").write_text("- 09:00 debugging a timeout right now\n")
    assert ws.promote().commit is None  # no belief changed: the marks wait
    pending = ws.root / ".git" / "gardener" / "ledger-pending"
    assert sorted(p.name for p in pending.iterdir()) == ["2026-02"]
    waiting = set(parse((pending / "2026-02").read_text()))
    filed = set(parse((ws.root / month_file("2026-02")).read_text()))
    assert waiting and not waiting & filed
    # a month file changed under them (a pull) is read with them on top
    extra = "memory/2026-02-14.md\t0123456789abcdef"
    with open(ws.root / month_file("2026-02"), "a") as out:
        out.write(extra + "\n")
    git(
        ws.root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "pulled"
    )
    assert read_all(ws.root).marks() >= waiting | filed | {extra}
    # the next commit that writes the month takes them along
    later = Workspace(ws.root, now_override="2026-03-06T18:00")
    assert later.prune().commit
    assert not pending.exists() or list(pending.iterdir()) == []
    month = set(parse((ws.root / month_file("2026-02")).read_text()))
    assert month >= waiting | {extra}
    assert git(ws.root, "status", "--porcelain") == ""


def test_a_ledger_an_older_gardener_wrote_reads_mark_for_mark(tmp_path: Path):
    # the files are as they were (one mark a line); only their reading is
    # compact: unsorted lines, CRLF, repeats, held and hand-written lines
    # all come back as the very strings they are
    lines = [
        "memory/2026-02-10.md\t00000000000000ff",
        "memory/2026-02-10.md\t0000000000000001#2",
        "memory/2026-02-10.md\t0000000000000001",
        "memory/2026-02-10.md\t0000000000000001\theld",
        "memory/2026-02-10.md\tsettled:" + "0" * 40,
        "memory/2026-02-10.md\tABCDEF0123456789",
        "memory/2026-02-10.md\t0000000000000001#1",
    ]
    (tmp_path / FOLDER).mkdir(parents=True)
    (tmp_path / month_file("2026-02")).write_text("\r\n".join(lines) + "\r\n")
    (tmp_path / LEGACY).write_text("memory/2026-01-20.md\t000000000000000a\n")
    book = read_all(tmp_path, tmp_path / "no-git")
    assert book.marks() == frozenset(lines) | {"memory/2026-01-20.md\t000000000000000a"}
    assert set(book.months["2026-02"]) == set(parse("\n".join(lines)))
    # written back: the month as it is (not rewritten), the old file split
    assert book.files(book.marks()) == {
        LEGACY: None,
        month_file("2026-01"): "memory/2026-01-20.md\t000000000000000a\n",
    }
    assert render(book.months["2026-02"]) == "".join(f"{m}\n" for m in sorted(lines))


def test_a_mark_spelled_otherwise_does_not_mark_the_entry_processed(tmp_path: Path):
    # collision safety in a pass: the ledger answers "processed" for an
    # entry only for its exact mark; a near spelling (capitals, as a hand
    # edit or another tool might write) leaves the entry to be promoted
    done = workspace(tmp_path / "done")
    done.promote()
    marks = [
        m
        for m in done.read_ledger()
        if m.startswith("memory/2026-02-10.md\t") and "settled" not in m
    ]
    assert len(marks) == 1
    path, _, digest = marks[0].partition("\t")
    for spelling, promoted in ((digest.upper(), True), (digest, False)):
        ws = workspace(tmp_path / f"ws-{promoted}")
        (ws.root / "memory" / "2026-02-12.md").unlink()
        (ws.root / "memory" / "2026-01-20.md").unlink()
        (ws.root / FOLDER).mkdir(parents=True, exist_ok=True)
        (ws.root / month_file("2026-02")).write_text(f"{path}\t{spelling}\n")
        got = ws.promote().plan
        assert bool(got.keys("add")) == promoted, spelling
        assert f"{path}\t{spelling}" in ws.read_ledger()  # no mark lost
