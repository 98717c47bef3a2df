"""File locks on an open descriptor, on every platform; the descriptor calls
Windows lacks.

Every lock the gardener takes goes through ``lock`` and ``close``: an
exclusive lock of the whole open file, released when the descriptor is closed
(or its process dies). Where ``fcntl`` exists it is ``flock``; elsewhere
(Windows) it is portalocker's, which there locks the file's first 64 KiB with
``msvcrt.locking`` (docs/internals.md, Locks on Windows).
"""

from __future__ import annotations

import os

try:
    import fcntl
except ImportError:  # Windows: portalocker, loaded on the first lock
    fcntl = None  # type: ignore[assignment]

# ``gardener note`` locks through here: no pathlib, contextlib or threading at
# import (threading only when a lock must be waited for with a timeout)

# what every os.open of the gardener adds: not inherited by git and the other
# children (POSIX; Windows never lets a child inherit them), and binary mode
# (Windows: no newline translation, no stop at a Ctrl-Z byte)
OPEN_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class Flocks:
    """``flock(2)``: the locks where ``fcntl`` exists (Linux, macOS, BSD)."""

    def lock(self, fd: int, timeout: float | None = None) -> bool:
        """See the module's ``lock``."""
        assert fcntl is not None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if timeout is not None and timeout <= 0:
                return False
        if timeout is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return True
        return _wait_in_thread(fd, timeout)

    def close(self, fd: int) -> None:
        """Close ``fd``; the kernel drops its flock with it."""
        os.close(fd)


class Portalocks:
    """portalocker's locks: where ``fcntl`` is missing (Windows). A wait is a
    poll (``msvcrt.locking`` gives up on its own after 10 s), so a timeout
    holds on every platform. Runs wherever portalocker installs, which is how
    the tests use it on Linux."""

    first_pause_s = 0.002  # then doubling, up to max_pause_s
    max_pause_s = 0.05

    def lock(self, fd: int, timeout: float | None = None) -> bool:
        """See the module's ``lock``."""
        import time

        import portalocker

        flags = portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING
        deadline = None if timeout is None else time.monotonic() + timeout
        pause = self.first_pause_s
        while True:
            try:
                portalocker.lock(fd, flags)
                return True
            except portalocker.AlreadyLocked:
                pass
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, self.max_pause_s)

    def close(self, fd: int) -> None:
        """Unlock ``fd`` (Windows frees a lock only some time after its
        handle is closed), then close it."""
        import portalocker

        try:
            portalocker.unlock(fd)
        except (portalocker.LockException, OSError):
            pass  # not locked (a wait that gave up): nothing to release
        finally:
            os.close(fd)


LOCKS: Flocks | Portalocks = Flocks() if fcntl is not None else Portalocks()


def lock(fd: int, timeout: float | None = None) -> bool:
    """Take the exclusive lock of the open file ``fd``.

    ``timeout``: seconds to wait for it (None: as long as it takes; 0: not at
    all). True once it is held, False when it was not free in time. Waiters
    are woken as soon as the lock is free. Released by ``close(fd)``.
    """
    return LOCKS.lock(fd, timeout)


def close(fd: int) -> None:
    """Release ``fd``'s lock, if it holds one, and close it."""
    LOCKS.close(fd)


def _wait_in_thread(fd: int, timeout: float) -> bool:
    """A blocking flock in a helper thread, given up after ``timeout``
    seconds: the waiter is woken as soon as the lock is free (polling would
    let a busy process starve it)."""
    assert fcntl is not None
    import threading  # only to wait: an uncontended lock needs no thread

    flock = fcntl.flock
    waiter = os.dup(fd)  # the same open file: its lock is fd's lock
    got = threading.Event()
    guard = threading.Lock()
    gave_up = False

    def wait() -> None:
        try:
            flock(waiter, fcntl.LOCK_EX)
            with guard:
                if gave_up:
                    flock(waiter, fcntl.LOCK_UN)
                else:
                    got.set()
        finally:
            os.close(waiter)

    threading.Thread(target=wait, name="gardener-lock", daemon=True).start()
    if got.wait(timeout):
        return True
    with guard:
        if got.is_set():
            return True
        gave_up = True
    return False


if hasattr(os, "pread"):
    pread = os.pread
    pwrite = os.pwrite
else:  # Windows: a seek, then the read or write (no caller shares an fd)

    def pread(fd: int, size: int, offset: int, /) -> bytes:
        """``os.pread``: ``size`` bytes of ``fd`` from ``offset``."""
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, size)

    def pwrite(fd: int, data: bytes, offset: int, /) -> int:  # type: ignore[misc]
        """``os.pwrite``: ``data`` written to ``fd`` at ``offset``."""
        os.lseek(fd, offset, os.SEEK_SET)
        return os.write(fd, data)
