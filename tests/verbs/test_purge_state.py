"""Purge and what else lives in the repository: lines appended while it runs,
stashes, other worktrees, skip-worktree flags, hooks, a running gc.

Real git repositories in tmp_path and real processes (an appender writing with
``>>``, a hook script, a sleeping process named in ``gc.pid``).
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import GardenerError
from tests.verbs.test_purge import NAME, PERSON, assert_gone, git

NOTE = "memory/2026-01-05.md"


def appender(path: Path, pause: float) -> subprocess.Popen[bytes]:
    """A shell appending ``- 09:50 line N`` to ``path`` with ``>>`` every ``pause`` s."""
    script = (
        f'i=0; while :; do echo "- 09:50 line $i {NAME}" >> "$1"; i=$((i+1)); '
        f"sleep {pause}; done"
    )
    return subprocess.Popen(["sh", "-c", script, "sh", str(path)])


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(5)


def appended_numbers(text: str) -> list[int]:
    return [int(line.split()[3]) for line in text.splitlines() if " line " in line]


def test_lines_appended_while_purge_runs_are_all_kept_and_scrubbed(ws: Workspace):
    """Regression (breaker, issue 20 item 1): git-filter-repo's final
    ``reset --hard`` wiped lines an agent appended with ``>>`` during the
    purge, and purge exited 0."""
    for n in range(4):
        ws.note(f"{NAME} call {n}", by="atlas")
    note = ws.root / NOTE
    proc = appender(note, 0.02)
    try:
        time.sleep(0.2)
        ws.purge(NAME, by="dpo")
        time.sleep(0.2)
    finally:
        stop(proc)
    text = note.read_text()
    numbers = appended_numbers(text)
    # a line carried over from the old file may come after a newer one
    assert sorted(numbers) == list(range(len(numbers))) and len(numbers) > 10
    committed = git(ws.root, "show", f"HEAD:{NOTE}")
    assert "[PURGED] call 3" in committed and NAME not in committed
    # what arrived during the rewrite is carried over scrubbed; later lines
    # stay as they landed (the next record redacts them: the text is purged)
    during = [line for line in text.splitlines() if "[PURGED]" in line and " line " in line]  # fmt: skip
    assert during
    ws.record()
    assert NAME not in note.read_text()
    assert_gone(ws.root, NAME)


def stash_list(root: Path) -> list[str]:
    return git(root, "stash", "list", "--format=%gs").splitlines()


def test_every_stash_is_kept_and_scrubbed(ws: Workspace):
    """Regression (breaker, item 8): all stashes but the newest were
    destroyed (``reflog expire`` then ``gc --prune=now``), although purge's
    own refusal advises ``git stash``."""
    ws.note(f"{NAME} called", by="atlas")
    memory = ws.root / "MEMORY.md"
    for n, extra in enumerate(["plain scratch", f"scratch about {NAME}", "more"]):
        with memory.open("a") as out:
            out.write(f"\n{extra} {n}\n")
        git(ws.root, *PERSON, "stash", "push", "-q", "-m", f"wip {n} {extra}")
    assert len(stash_list(ws.root)) == 3
    ws.purge(NAME, by="dpo")
    kept = stash_list(ws.root)
    assert kept == [
        "On main: wip 2 more",
        "On main: wip 1 scratch about [PURGED]",
        "On main: wip 0 plain scratch",
    ]
    for n, word in ((0, "more 2"), (1, "[PURGED] 1"), (2, "plain scratch 0")):
        assert word in git(ws.root, "stash", "show", "-p", f"stash@{{{n}}}")
    assert not git(ws.root, "for-each-ref", "refs/gardener-stash/")
    objects = subprocess.run(
        ["git", "-C", str(ws.root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    assert NAME.encode() not in objects
    assert NAME not in git(ws.root, "log", "--all", "--reflog", "-p")
    # the older stashes are reachable from the stash's reflog only, as in git
    assert git(ws.root, "fsck", "--full", "--unreachable").strip() == ""
    git(ws.root, "stash", "pop", "-q", "stash@{2}")  # still applies
    assert "plain scratch 0" in memory.read_text()


def test_another_worktree_is_refused_with_what_to_do(ws: Workspace):
    """Regression (breaker, item 8): a second worktree kept the secret
    staged, one ``git commit`` from returning."""
    ws.note(f"{NAME} called", by="atlas")
    other = ws.root.parent / "other"
    git(ws.root, "worktree", "add", "-q", "-b", "side", str(other))
    head = git(ws.root, "rev-parse", "HEAD")
    with pytest.raises(GardenerError, match=r"other worktrees .*other.*git worktree remove"):  # fmt: skip
        ws.purge(NAME, by="dpo")
    assert git(ws.root, "rev-parse", "HEAD") == head
    assert not (ws.root / ".git" / "gardener-purge").exists()
    git(ws.root, "worktree", "remove", str(other))
    ws.purge(NAME, by="dpo")
    assert_gone(ws.root, NAME)


@pytest.mark.parametrize("flag", ["--skip-worktree", "--assume-unchanged"])
def test_a_flagged_note_is_purged_and_keeps_its_flag(ws: Workspace, flag: str):
    """Regression (breaker, item 8): a skip-worktree or assume-unchanged note
    made purge stop half-way with the secret still in the index."""
    ws.note(f"{NAME} called", by="atlas")
    ws.now_override = "2026-01-06T09:00"
    ws.note("the staging host is staging-3", by="atlas")
    git(ws.root, "update-index", flag, NOTE)
    ws.purge(NAME, by="dpo")
    assert_gone(ws.root, NAME)
    assert "[PURGED] called" in git(ws.root, "show", f":{NOTE}")
    tag = git(ws.root, "ls-files", "-v", NOTE)[:1]
    assert tag == ("S" if flag == "--skip-worktree" else "h")


def test_the_repositorys_own_hooks_do_not_run_in_a_purge(ws: Workspace):
    """Regression (breaker, item 8): the repository's hooks ran during
    filter-repo's git calls; a failing ``reference-transaction`` hook aborted
    the purge."""
    ws.note(f"{NAME} called", by="atlas")
    hook = ws.root / ".git" / "hooks" / "reference-transaction"
    ran = ws.root.parent / "hook-ran"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\nexit 1\n")
    hook.chmod(0o755)
    ws.purge(NAME, by="dpo")
    assert_gone(ws.root, NAME)
    assert not ran.exists()


def test_a_running_gc_is_refused_and_a_killed_ones_file_is_not(ws: Workspace):
    """Regression (breaker, items 7 and 8): a ``gc.pid`` naming a live
    process stopped the purge after its rewrite; one naming a killed gc not
    reaped yet (a zombie, which git takes for a gc still running) failed the
    rerun of a killed purge."""
    import socket

    ws.note(f"{NAME} called", by="atlas")
    head = git(ws.root, "rev-parse", "HEAD")
    pid_file = ws.root / ".git" / "gc.pid"
    # argv[0] names git, as a real gc's command line does
    sleeper = subprocess.Popen(["sh", "-c", "sleep 60", "git-gc"])
    try:
        pid_file.write_text(f"{sleeper.pid} {socket.gethostname()}")
        with pytest.raises(GardenerError, match=rf"git gc. is running .*pid {sleeper.pid}"):  # fmt: skip
            ws.purge(NAME, by="dpo")
        assert git(ws.root, "rev-parse", "HEAD") == head
    finally:
        sleeper.kill()
        sleeper.wait()
    killed = subprocess.Popen(["sh", "-c", "kill -9 $$", "git-gc"])
    time.sleep(0.3)  # killed, not reaped: a zombie
    try:
        pid_file.write_text(f"{killed.pid} {socket.gethostname()}")
        ws.purge(NAME, by="dpo")
    finally:
        killed.wait()
    assert_gone(ws.root, NAME)


def test_a_workspace_whose_git_folder_is_a_symlink_is_purged_and_ignores_its_salt(
    ws: Workspace, tmp_path: Path
):
    """Regression (breaker, item 8): with ``.git`` a symlink, the salt was
    left untracked and not ignored (the exclude file "resolved outside");
    the first main worktree git lists is named after the git folder."""
    import shutil

    ws.note(f"{NAME} called", by="atlas")
    shutil.move(ws.root / ".git", tmp_path / "gitdir")
    (ws.root / ".git").symlink_to(tmp_path / "gitdir")
    ws.purge(NAME, by="dpo")
    assert_gone(ws.root, NAME)
    status = git(ws.root, "status", "--porcelain", "--ignored")
    assert "!! .gardener/salt" in status and "?? " not in status


def test_a_purge_killed_after_its_rewrite_makes_another_texts_purge_wait(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
):
    """The rerun must be of the same text (only it can scrub what the
    rewrite left); another text's purge says so and changes nothing."""
    import gardener.git.rewrite

    other = "Ruth Abernathy-Quist"
    ws.note(f"{NAME} and {other} called", by="atlas")
    real = gardener.git.rewrite.rewrite_history

    def killed(*args: object, **kwargs: object) -> None:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise SystemExit(137)

    monkeypatch.setattr(gardener.git.rewrite, "rewrite_history", killed)
    with pytest.raises(SystemExit):
        ws.purge(NAME, by="dpo")
    monkeypatch.undo()
    head = git(ws.root, "rev-parse", "HEAD")
    with pytest.raises(GardenerError, match="another text was stopped half-way"):
        ws.purge(other, by="dpo")
    assert git(ws.root, "rev-parse", "HEAD") == head
    ws.purge(NAME, by="dpo")
    ws.purge(other, by="dpo")
    assert_gone(ws.root, NAME)
    assert_gone(ws.root, other)
    assert not (ws.root / ".git" / "gardener-purge").exists()
