"""The stat cache lets a pass skip unchanged notes, and never hides a change.

Real files, real passes: the cache is only ever a shortcut to what reading
the notes would say.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.store.ledger import month_file
from gardener.store.notescan import scan
from gardener.store.statcache import FILE, Clock, begin, load
from tests.helpers import new_workspace

NOW = "2026-03-01T18:00"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = new_workspace(tmp_path, NOW)
    notes = workspace.root / "memory"
    (notes / "2026-02-10.md").write_text("- 09:00 fact: **staging host**: box2\n")
    (notes / "2026-02-12.md").write_text("- 10:00 decision: **database**: Postgres\n")
    workspace.promote()
    return workspace


def cache_of(ws: Workspace) -> Path:
    return ws.root / ".git" / "gardener" / FILE


def test_a_pass_leaves_a_cache_that_vouches_for_settled_notes(ws: Workspace):
    cache = load(ws.root / ".git")
    assert set(cache.notes) == {"memory/2026-02-10.md", "memory/2026-02-12.md"}
    # the month the pass wrote is read again once (it was too new to vouch for)
    found = scan(ws.root, "memory", ws.root / ".git")
    assert found.notes == [] and list(found.ledger.months) == ["2026-02"]
    assert ws.promote().commit is None
    found = scan(ws.root, "memory", ws.root / ".git")
    assert found.notes == [] and found.ledger.months == {}  # nothing read


def test_a_hand_edit_that_keeps_size_and_mtime_is_noticed(ws: Workspace):
    path = ws.root / "memory" / "2026-02-10.md"
    before = path.stat()
    path.write_text("- 09:00 fact: **staging host**: box7\n")  # box2 -> box7
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    found = scan(ws.root, "memory", ws.root / ".git")
    assert [n.path for n in found.notes] == ["memory/2026-02-10.md"]
    ws.promote()
    assert [h.value for h in ws.recall(key="staging host")] == ["box7"]


def test_a_hand_edited_ledger_month_is_read_again(ws: Workspace):
    ws.promote()  # now the cache vouches for the month's file too
    month = ws.root / month_file("2026-02")
    kept = [m for m in month.read_text().splitlines() if "2026-02-12.md" not in m]
    month.write_text("".join(f"{m}\n" for m in kept))
    found = scan(ws.root, "memory", ws.root / ".git")
    assert [n.path for n in found.notes] == ["memory/2026-02-12.md"]
    result = ws.promote()  # read, found on the timeline, marked and settled again
    assert [(d.action, d.reason) for d in result.plan.decisions] == [
        ("reject", "already on the timeline")
    ]
    assert ws.promote().plan.decisions == ()


def test_a_file_written_during_a_pass_is_not_vouched_for(ws: Workspace):
    path = ws.root / "memory" / "2026-02-20.md"
    path.write_text("- 09:00 fact: **ci**: GitHub\n")
    st = path.stat()
    # a pass that began in the same clock tick as the write: the file may be
    # written again within that tick without a new stamp
    same_tick = Clock(max(st.st_mtime_ns, st.st_ctime_ns))
    assert not same_tick.keeps(st)
    assert Clock(max(st.st_mtime_ns, st.st_ctime_ns) + 1).keeps(st)
    assert begin(ws.root / ".git").epoch >= st.st_ctime_ns  # the file system's clock


def test_a_damaged_or_deleted_cache_changes_nothing(ws: Workspace):
    (ws.root / "memory" / "2026-02-14.md").write_text(
        "- 12:00 decision: **database**: SQLite\n"
    )
    cache_of(ws).write_text("gardener promote cache 2\nnot a line\n")
    assert load(ws.root / ".git").notes == {}
    assert ws.promote().plan.keys("supersede") == ["database"]
    head = git(ws.root, "rev-parse", "HEAD")
    cache_of(ws).unlink()
    assert ws.promote().commit is None
    assert git(ws.root, "rev-parse", "HEAD") == head


def test_a_promote_killed_after_its_writes_is_finished_then_skips_the_notes(
    ws: Workspace,
):
    from gardener.planning.promote import plan_promotion
    from gardener.store.journal import begin as journal_begin

    (ws.root / "memory" / "2026-02-14.md").write_text(
        "- 12:00 decision: **database**: SQLite\n"
    )
    ws.record()
    found = scan(ws.root, "memory", ws.root / ".git")
    plan = plan_promotion(
        found.notes, ws.read_memory(), ws.config, ws.now(), found.ledger.marks()
    )
    files = {"MEMORY.md": plan.text, **found.ledger.files(plan.ledger)}
    journal_begin(ws.root / ".git", files, "promote: 1 superseded\n", None)
    for rel, text in files.items():  # written, then killed before the commit
        assert text is not None
        (ws.root / rel).write_text(text)
    ws.record()  # the next run finishes and commits the work
    assert git(ws.root, "status", "--porcelain") == ""
    again = ws.promote()
    assert again.plan.decisions == () and again.commit is None
    assert [h.value for h in ws.recall(key="database")] == ["SQLite"]


def test_notes_settled_by_pending_marks_stay_unread(ws: Workspace):
    """A pass that changed no belief leaves its marks pending, uncommitted:
    the next scans still skip the notes those marks settle."""
    (ws.root / "memory" / "2026-02-20.md").write_text(
        "- debugging a timeout right now\n"
    )
    assert ws.promote().commit is None
    pending = ws.root / ".git" / "gardener" / "ledger-pending" / "2026-02"
    assert "2026-02-20.md\tsettled:" in pending.read_text()
    found = scan(ws.root, "memory", ws.root / ".git")
    assert found.notes == [] and list(found.ledger.months) == ["2026-02"]
    assert ws.promote().plan.decisions == ()
