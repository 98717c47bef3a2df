"""The workspace lock: an exclusive lock of ``.git/gardener.lock``, re-entrant per thread."""

from __future__ import annotations

import os
import sys
from _thread import _local  # threading.local itself: threading costs ~1.5 ms

from gardener.errors import GardenerError, LockError, NotAWorkspaceError
from gardener.files import flock
from gardener.files.layout import is_dir, is_file, path_text

# ``gardener note`` locks through here: no pathlib, contextlib or threading at
# import (threading only when the lock must be waited for)
LOCK_FILE = "gardener.lock"  # inside the workspace's .git folder
_held = _local()  # this thread's workspace locks: {lock path: depth}


def workspace_lock(
    root: str | os.PathLike[str], timeout: float = 30.0
) -> WorkspaceLock:
    """Hold the workspace's exclusive lock (flock of ``.git/gardener.lock``):
    ``with workspace_lock(root) as notice: ...``.

    Waits up to ``timeout`` seconds. Re-entrant within one thread; other
    threads and processes are excluded. The lock file holds the owner's pid
    while it is held and is emptied on release; the kernel drops the flock
    when its owner dies, so a pid left in the file names an owner that was
    killed. Entering gives a notice saying so (the stale pid is then cleared),
    else None. Raises LockError after ``timeout``, NotAWorkspaceError without
    ``.git`` (when entered).
    """
    return WorkspaceLock(root, timeout)


class WorkspaceLock:
    """The context manager ``workspace_lock`` returns; it takes the lock when
    entered. A class, not a ``contextlib.contextmanager``: contextlib is an
    import ``gardener note`` avoids."""

    def __init__(self, root: str | os.PathLike[str], timeout: float) -> None:
        self._root = root
        self._timeout = timeout
        self._held: dict[str, int] = {}  # this thread's locks: {lock path: depth}
        self._key = ""
        self._fd = -1  # the lock file, when this one took the lock (not re-entered)

    def __enter__(self) -> str | None:
        lock_path = _lock_path(self._root)
        key = self._key = os.path.realpath(lock_path)
        held = self._held = _held.__dict__.setdefault("depth", {})
        if held.get(key):
            held[key] += 1
            return None
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | flock.OPEN_FLAGS, 0o644)
        try:
            _acquire(fd, lock_path, self._timeout)
            stale = _dead_owner(fd)
            os.ftruncate(fd, 0)
            flock.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:  # a full disk: say which file, not just the errno
            flock.close(fd)
            raise GardenerError(
                f"could not write the workspace lock: {e.strerror or e}", path=lock_path
            ) from e
        except BaseException:
            flock.close(fd)
            raise
        held[key] = 1
        self._fd = fd
        if stale is None:
            return None
        return (
            f"process {stale} ended while holding the workspace lock "
            f"{lock_path} (killed?); the stale lock was cleared"
        )

    def __exit__(self, *exc_info: object) -> None:
        if self._fd < 0:  # re-entered: the outer one releases it
            self._held[self._key] -= 1
            return
        fd, self._fd = self._fd, -1
        try:
            del self._held[self._key]
            try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
                os.ftruncate(fd, 0)
            except OSError:
                pass
        finally:
            flock.close(fd)  # also releases the lock


def _lock_path(root: str | os.PathLike[str]) -> str:
    top = path_text(root)
    dot_git = path_text(os.path.join(top, ".git"))
    if is_file(dot_git):  # a linked worktree or submodule: "gitdir: <path>"
        with open(dot_git, encoding="utf-8", errors="replace") as file:
            first = file.read().partition("\n")[0]
        if first.startswith("gitdir:"):
            pointed = first.removeprefix("gitdir:").strip()
            dot_git = path_text(os.path.join(top, pointed))
    if not is_dir(dot_git):
        raise NotAWorkspaceError(
            f"{top} is not a workspace (no .git folder); run `gardener init {top}`"
        )
    return os.path.join(dot_git, LOCK_FILE)


def _acquire(fd: int, lock_path: str, timeout: float) -> None:
    """Take the lock, waiting up to ``timeout`` seconds; LockError after that."""
    if flock.lock(fd, timeout):
        return
    try:
        owner = flock.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:  # Windows: the bytes another process locked cannot be read
        owner = ""
    raise LockError(
        f"another gardener process (pid {owner or 'unknown'}) holds "
        f"{lock_path}; waited {timeout:g} s. Run the command again when "
        f"it finishes (the lock is released when that process exits)"
    )


def _dead_owner(fd: int) -> int | None:
    """The pid a killed owner left in the lock file; None if none or it still runs."""
    try:
        pid = int(flock.pread(fd, 32, 0).decode("ascii", "replace").strip() or "0")
    except ValueError:
        return None
    if pid <= 0 or pid == os.getpid():
        return None
    return pid if process_ended(pid) else None


def process_ended(pid: int) -> bool:
    """True if process ``pid`` has ended: gone, or a zombie its parent has
    not reaped yet (it holds no file and runs nothing, though ``kill(pid,
    0)`` still finds it). Linux's /proc; elsewhere only gone counts."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return True
        return _gone(pid)  # no /proc here
    except OSError:
        return _gone(pid)
    state = stat[stat.rfind(b")") + 2 :][:1]  # the name before it may hold ")"
    return state in (b"Z", b"X", b"x")


def _gone(pid: int) -> bool:
    if sys.platform == "win32":
        return _gone_on_windows(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


if sys.platform == "win32":

    def _gone_on_windows(pid: int) -> bool:
        """Windows: ``os.kill(pid, 0)`` would end the process (TerminateProcess),
        so the kernel is asked: gone when no process has the id or it has exited;
        one we may not open (another user's) is alive."""
        import ctypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        # PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE
        handle = kernel32.OpenProcess(0x1000 | 0x100000, False, pid)
        if not handle:
            return bool(ctypes.get_last_error() == 87)  # ERROR_INVALID_PARAMETER
        try:
            return bool(kernel32.WaitForSingleObject(handle, 0) == 0)  # WAIT_OBJECT_0
        finally:
            kernel32.CloseHandle(handle)
