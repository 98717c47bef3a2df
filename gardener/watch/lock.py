"""The watch lock: one ``gardener watch`` per workspace."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gardener.errors import LockError
from gardener.files import flock

LOCK_NAME = "gardener-watch.lock"  # in the git folder, next to gardener.lock


@contextmanager
def watch_lock(root: Path) -> Iterator[None]:
    """Hold ``.git/gardener-watch.lock`` (flock, with our pid in it) while watching.

    Raises LockError, naming the other watcher's pid, if one holds it.
    """
    fd = os.open(
        _git_dir(root) / LOCK_NAME, os.O_RDWR | os.O_CREAT | flock.OPEN_FLAGS, 0o644
    )
    try:
        if not flock.lock(fd, timeout=0):
            try:
                owner = flock.pread(fd, 32, 0).decode("ascii", "replace").strip()
            except OSError:  # Windows: bytes another process locked
                owner = ""
            owner = owner or "unknown"
            raise LockError(
                f"another gardener watch (pid {owner}) is already watching {root}; "
                f"stop it first (kill {owner}) or leave it running"
            ) from None
        os.ftruncate(fd, 0)
        flock.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        flock.close(fd)  # also releases the lock


def _git_dir(root: Path) -> Path:
    dot_git = root / ".git"
    if dot_git.is_file():  # a linked worktree: "gitdir: <path>"
        first = dot_git.read_text("utf-8", "replace").partition("\n")[0]
        if first.startswith("gitdir:"):
            return root / first.removeprefix("gitdir:").strip()
    return dot_git
