"""Guardrails for a memory other agents write too (issue 19), end to end:
real processes killed with SIGKILL, zombies, outside deletions and rewrites."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gardener import Workspace
from gardener.files.lock import process_ended
from tests.helpers import cli, git

NOW = "2026-01-05T09:00"


def _killed_gardener(root: Path) -> subprocess.Popen[bytes]:
    """A gardener run killed with SIGKILL while it held the workspace lock and
    its git held index.lock; not reaped, so it stays a zombie."""
    code = (
        "import os, sys, time\n"
        "from gardener.files.lock import workspace_lock\n"
        "with workspace_lock(sys.argv[1]):\n"
        "    os.open(os.path.join(sys.argv[1], '.git', 'index.lock'),"
        " os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n"
        "    print('ok', flush=True)\n"
        "    time.sleep(60)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(root)], stdout=subprocess.PIPE
    )
    assert child.stdout is not None and child.stdout.readline() == b"ok\n"
    os.kill(child.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not process_ended(child.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return child


def test_a_zombie_gardener_does_not_wedge_the_workspace(ws: Workspace):
    ws.note("before the kill", time="08:00")
    child = _killed_gardener(ws.root)
    try:
        assert (
            Path(f"/proc/{child.pid}/stat").read_bytes().rsplit(b")", 1)[1][1:2] == b"Z"
        )
        started = time.monotonic()
        done = cli(ws.root, NOW, "note", "after the kill")
        assert time.monotonic() - started < 8  # not the 10 s wait for index.lock
        assert (
            f"process {child.pid} ended while holding the workspace lock" in done.stderr
        )
        assert "index.lock" in done.stderr and "removed" in done.stderr
        assert not (ws.root / ".git" / "index.lock").exists()
        assert "after the kill" in git(ws.root, "show", "HEAD")
    finally:
        child.wait()
