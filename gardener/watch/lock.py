"""The watch lock: one ``gardener watch`` per workspace."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gardener.errors import LockError

LOCK_NAME = "gardener-watch.lock"  # in the git folder, next to gardener.lock


@contextmanager
def watch_lock(root: Path) -> Iterator[None]:
    """Hold ``.git/gardener-watch.lock`` (flock, with our pid in it) while watching.

    Raises LockError, naming the other watcher's pid, if one holds it.
    """
    fd = os.open(
        _git_dir(root) / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644
    )
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise LockError(
                f"another gardener watch (pid {owner}) is already watching {root}; "
                f"stop it first (kill {owner}) or leave it running"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # also releases the flock


def _git_dir(root: Path) -> Path:
    dot_git = root / ".git"
    if dot_git.is_file():  # a linked worktree: "gitdir: <path>"
        first = dot_git.read_text("utf-8", "replace").partition("\n")[0]
        if first.startswith("gitdir:"):
            return root / first.removeprefix("gitdir:").strip()
    return dot_git
