"""gardener.files.lock: the workspace lock excludes other processes and threads, re-enters."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from gardener.errors import LockError, NotAWorkspaceError
from gardener.files.lock import workspace_lock


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
