"""gardener.files.lock: the workspace lock excludes other processes and threads, re-enters."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gardener.errors import LockError, NotAWorkspaceError
from gardener.files.lock import process_ended, workspace_lock


def _try_lock(root: str, queue: object) -> None:
    try:
        with workspace_lock(Path(root), timeout=0.2):
            queue.put("acquired")  # type: ignore[attr-defined]
    except LockError as e:
        queue.put(f"LockError: {e}")  # type: ignore[attr-defined]


def test_workspace_lock_excludes_another_process(root: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    with workspace_lock(root, timeout=1):
        assert (root / ".git" / "gardener.lock").read_text() == f"{os.getpid()}\n"
        child = ctx.Process(target=_try_lock, args=(str(root), queue))
        child.start()
        result = queue.get(timeout=60)
        child.join(timeout=60)
    assert result.startswith("LockError")
    assert f"pid {os.getpid()}" in result and "gardener.lock" in result

    child = ctx.Process(target=_try_lock, args=(str(root), queue))
    child.start()
    assert queue.get(timeout=60) == "acquired"
    child.join(timeout=60)


def test_workspace_lock_reentrant_in_thread(root: Path) -> None:
    with workspace_lock(root, timeout=0.1), workspace_lock(root, timeout=0.1):
        pass
    with workspace_lock(root, timeout=0.1):
        pass


def test_workspace_lock_excludes_other_threads_and_is_released_on_errors(
    root: Path,
) -> None:
    import threading

    results: list[str] = []

    def other() -> None:
        try:
            with workspace_lock(root, timeout=0.2):
                results.append("acquired")
        except LockError:
            results.append("LockError")

    def in_a_thread() -> None:
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()

    with workspace_lock(root, timeout=1) as notice:
        assert notice is None
        with pytest.raises(RuntimeError), workspace_lock(root, timeout=0.1):
            raise RuntimeError("re-entered, then failed: the outer one still holds it")
        in_a_thread()
    assert results == ["LockError"]
    assert (root / ".git" / "gardener.lock").read_text() == ""  # released
    with pytest.raises(RuntimeError), workspace_lock(root, timeout=0.1):
        raise RuntimeError("failed: released all the same")
    in_a_thread()
    assert results == ["LockError", "acquired"]


def test_workspace_lock_needs_git_folder(tmp_path: Path) -> None:
    with (
        pytest.raises(NotAWorkspaceError, match="gardener init"),
        workspace_lock(tmp_path),
    ):
        pass


def _zombie_owner(root: Path, hold_index: bool) -> subprocess.Popen[bytes]:
    """A process that took the workspace lock (and, if ``hold_index``,
    created index.lock), killed with SIGKILL and left unreaped: a zombie."""
    code = (
        "import os, sys, time\n"
        "from gardener.files.lock import process_ended, workspace_lock\n"
        "with workspace_lock(sys.argv[1]):\n"
        "    if sys.argv[2] == '1':\n"
        "        os.open(os.path.join(sys.argv[1], '.git', 'index.lock'),"
        " os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n"
        "    print('ok', flush=True)\n"
        "    time.sleep(60)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(root), "1" if hold_index else "0"],
        stdout=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdout.readline() == b"ok\n"
    os.kill(child.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not process_ended(child.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    stat = Path(f"/proc/{child.pid}/stat").read_bytes()
    assert stat.rsplit(b")", 1)[1][1:2] == b"Z"
    return child


def test_process_ended_counts_a_zombie_as_ended(root: Path) -> None:
    assert not process_ended(os.getpid())
    child = _zombie_owner(root, hold_index=False)
    try:
        os.kill(child.pid, 0)  # the kernel still finds it
        assert process_ended(child.pid)
    finally:
        child.wait()
    assert process_ended(child.pid)


def test_a_zombie_owner_releases_the_workspace_lock_with_a_notice(root: Path) -> None:
    child = _zombie_owner(root, hold_index=False)
    try:
        with workspace_lock(root, timeout=2) as notice:
            assert notice is not None
            assert f"process {child.pid} ended while holding" in notice
    finally:
        child.wait()
