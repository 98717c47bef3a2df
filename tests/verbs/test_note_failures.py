"""A failed note leaves no trace: its line comes back out, the retry writes it once (issue 19)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import GardenerError, Workspace
from gardener.errors import LockError
from tests.helpers import commits, git

NOTE = "memory/2026-01-05.md"


def start_merge(root: Path) -> None:
    """Leave ``root`` in a merge with a conflict (MERGE_HEAD set)."""
    (root / "x.txt").write_text("base\n")
    git(root, "add", "x.txt")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    main = git(root, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(root, "checkout", "-qb", "side")
    (root / "x.txt").write_text("side\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "side")
    git(root, "checkout", "-q", main)
    (root / "x.txt").write_text("main\n")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "main")
    merged = subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
         "merge", "-q", "side"],
        capture_output=True,
    )  # fmt: skip
    assert merged.returncode != 0 and (root / ".git" / "MERGE_HEAD").exists()


@pytest.mark.parametrize("first", [True, False], ids=["new-note", "existing-note"])
def test_a_note_during_a_merge_takes_its_line_back_and_the_retry_writes_it_once(
    ws: Workspace, first: bool
):
    if not first:
        ws.note("already there", time="08:00")
    before = (ws.root / NOTE).read_bytes() if not first else None
    start_merge(ws.root)
    head = commits(ws.root)
    # refused before the line is written: staging anything during a merge
    # would mark the merge's conflicts resolved
    with pytest.raises(GardenerError, match="a git merge is in progress"):
        ws.note("the build runs on Fridays", time="08:30")
    assert commits(ws.root) == head
    if first:
        assert not (ws.root / NOTE).exists()
    else:
        assert (ws.root / NOTE).read_bytes() == before
    assert not (ws.root / ".git" / "gardener-pending.json").exists()
    git(ws.root, "merge", "--abort")
    ws.note("the build runs on Fridays", time="08:30")
    text = (ws.root / NOTE).read_text()
    assert text.count("the build runs on Fridays") == 1
    assert git(ws.root, "show", f"HEAD:{NOTE}").count("Fridays") == 1
    assert git(ws.root, "status", "--porcelain", "--", "memory") == ""


def test_a_note_behind_a_live_index_lock_takes_its_line_back(ws: Workspace):
    """A live process holds index.lock past the wait: the note fails, leaving
    no line; the lock is never removed while its holder lives."""
    ws.note("already there", time="08:00")
    before = (ws.root / NOTE).read_bytes()
    lock = ws.root / ".git" / "index.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import os,sys,time; f=open(sys.argv[1],'w'); print(1, flush=True); time.sleep(60)",
         str(lock)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline()
        with pytest.raises(LockError, match="taken back out"):
            ws.note("second", time="08:30")
        assert lock.exists()
        assert (ws.root / NOTE).read_bytes() == before
    finally:
        holder.kill()
        holder.wait()
    os.unlink(lock)
    ws.note("second", time="08:30")
    assert (ws.root / NOTE).read_text().count("second") == 1


def test_lines_another_writer_appended_after_the_failed_one_are_kept(ws: Workspace):
    """take_back cuts out only the note's own append."""
    from gardener.files.append import appended_text, take_back

    path = ws.root / NOTE
    path.parent.mkdir(exist_ok=True)
    path.write_text("# day\n- a")  # no final newline
    after = appended_text("# day\n- a", "- mine")
    path.write_text(after + "- theirs\n")
    assert take_back(path, "# day\n- a", after, str(ws.root))
    assert path.read_text() == "# day\n- a\n- theirs\n"
    path.write_text(after)
    assert take_back(path, "# day\n- a", after, str(ws.root))
    assert path.read_text() == "# day\n- a"
    path.write_text("# other\n")  # not what the append left: left alone
    assert not take_back(path, "# day\n- a", after, str(ws.root))
    assert path.read_text() == "# other\n"
