"""Purge and what else lives in the repository: lines appended while it runs,
stashes, other worktrees, skip-worktree flags, hooks, a running gc.

Real git repositories in tmp_path and real processes (an appender writing with
``>>``, a hook script, a sleeping process named in ``gc.pid``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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
    return [
        int(line.split()[3]) for line in text.splitlines() if " line " in line
    ]


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
