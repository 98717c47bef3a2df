"""A failed note leaves no trace: its line comes back out, the retry writes it once (issue 19)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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


def test_a_note_killed_between_its_append_and_its_commit_is_written_once_on_retry(
    ws: Workspace,
):
    """SIGKILL while the note waits for git's index (held by a live process):
    its line is on disk, uncommitted; the retry commits it, not a second copy."""
    ws.note("already there", time="08:00")
    lock = ws.root / ".git" / "index.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys,time; f=open(sys.argv[1],'w'); print(1, flush=True); time.sleep(60)",
         str(lock)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    args = [sys.executable, "-m", "gardener", "-w", str(ws.root), "note"]
    env = dict(os.environ, GARDENER_NOW="2026-01-05T09:00")
    try:
        assert holder.stdout is not None and holder.stdout.readline()
        note = subprocess.Popen([*args, "--time", "08:30", "the build runs on Fridays"],
                                env=env, stderr=subprocess.PIPE)  # fmt: skip
        deadline = time.monotonic() + 30
        while "Fridays" not in (ws.root / NOTE).read_text():
            assert time.monotonic() < deadline and note.poll() is None
            time.sleep(0.01)
        note.kill()
        note.wait()
    finally:
        holder.kill()
        holder.wait()
    assert "Fridays" not in git(ws.root, "show", f"HEAD:{NOTE}")
    retry = subprocess.run([*args, "--time", "08:30", "the build runs on Fridays"],
                           env=env, capture_output=True, text=True)  # fmt: skip
    assert retry.returncode == 0, retry.stderr
    assert "not written twice" in retry.stderr
    assert (ws.root / NOTE).read_text().count("Fridays") == 1
    assert git(ws.root, "show", f"HEAD:{NOTE}").count("Fridays") == 1
    assert git(ws.root, "status", "--porcelain") == ""
    # the same words at another minute are another entry
    again = subprocess.run([*args, "--time", "08:31", "the build runs on Fridays"],
                           env=env, capture_output=True, text=True)  # fmt: skip
    assert again.returncode == 0 and "not written twice" not in again.stderr
    assert git(ws.root, "show", f"HEAD:{NOTE}").count("Fridays") == 2


def test_the_same_entry_at_the_same_minute_is_written_once(ws: Workspace):
    first = ws.note("the cat is called Miso", time="08:30")
    second = ws.note("the cat is called Miso", time="08:30")
    assert second.commit == first.commit and "not written twice" in second.warnings[0]
    ws.note("the cat is called Miso", time="08:31")
    ws.note("something else", time="08:31")
    ws.note("the cat is called Miso", time="08:31")  # not the last line: written
    assert (ws.root / NOTE).read_text().count("Miso") == 3
