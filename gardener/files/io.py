"""Files of a workspace: note names, UTF-8 reads, atomic writes, locked appends.

No git here: the only thing this module knows about git is that a workspace's
top folder holds ``.git`` (where the workspace lock lives).
"""

from __future__ import annotations

import fcntl
import os
import re
from _thread import _local  # threading.local itself: threading costs ~1.5 ms
from collections.abc import Iterable, Iterator
from datetime import date

from gardener.errors import GardenerError, LockError, NotAWorkspaceError, ParseError
from gardener.files.layout import (
    absolute,
    exists,
    inside,
    is_dir,
    is_file,
    is_symlink,
    note_date,
    note_names,
    path_text,
)

# ``gardener note`` writes through here: no pathlib (~6 ms to import),
# contextlib or threading at import; paths are os.path strings inside
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from pathlib import Path

LOCK_FILE = "gardener.lock"  # inside the workspace's .git folder
_TEMP = re.compile(r"\..+\.[0-9a-f]{12}\.tmp", re.DOTALL)  # see _create_temp

_CHUNK = 1 << 16
_READ_CHUNK = 1 << 20
_held = _local()  # this thread's workspace locks: {lock path: depth}


STATE_DIR = ".gardener"  # the gardener's own files in a workspace
SALT = f"{STATE_DIR}/salt"  # git-ignored: the key of purge's hashes (exists once a purge ran)
PURGE_PENDING = f"{STATE_DIR}/purge-pending"  # git-ignored: a purge not finished yet
_IGNORE = (
    "# never committed: secrets taken out of memory files\nquarantine.jsonl\n*.lock\n"
)


def note_files(root: Path, notes_dir: str = "memory") -> list[Path]:
    """The note files directly in ``root/notes_dir``, sorted by (date, name):
    ``layout.note_names`` as paths. Returns [] if the folder does not exist."""
    from pathlib import Path

    folder = Path(root) / notes_dir
    return [folder / name for name in note_names(root, notes_dir)]


def dated_notes(root: Path, notes_dir: str = "memory") -> list[tuple[date, str]]:
    """``(date, file name)`` of each of ``note_files``, in the same order."""
    return [
        (day, name)
        for name in note_names(root, notes_dir)
        if (day := note_date(name)) is not None
    ]


def read_text(path: str | os.PathLike[str]) -> str:
    """The file decoded as UTF-8, byte for byte (a BOM stays as ``'\\ufeff'``, CRLF stays).

    Raises ParseError (naming the file and the line of the first bad byte) if
    the file is not UTF-8, FileNotFoundError if it is missing, GardenerError if
    it cannot be read.
    """
    return decode_text(read_bytes(path), path)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes. Raises FileNotFoundError if it is missing, GardenerError
    if it cannot be read."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        raise
    except OSError as e:
        raise GardenerError(f"cannot read: {e.strerror or e}", path=str(path)) from e


def read_files(
    folder: str | os.PathLike[str], names: Iterable[str]
) -> Iterator[tuple[str, bytes]]:
    """Each of the named files in ``folder`` with its bytes, in the order named.

    The files are opened relative to one handle on the folder: for the thousands
    of notes a long-lived workspace keeps, that takes half the time of a
    ``read_bytes`` each. Raises as ``read_bytes``.
    """
    names = list(names)
    if not names:  # the folder need not exist
        return
    relative = os.open in os.supports_dir_fd
    folder_fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC) if relative else None
    try:
        for name in names:
            try:
                fd = os.open(
                    name if relative else os.path.join(folder, name),
                    os.O_RDONLY | os.O_CLOEXEC,
                    dir_fd=folder_fd,
                )
                try:
                    chunks = []
                    while chunk := os.read(fd, _READ_CHUNK):
                        chunks.append(chunk)
                finally:
                    os.close(fd)
            except FileNotFoundError:
                raise
            except OSError as e:
                raise GardenerError(
                    f"cannot read: {e.strerror or e}",
                    path=path_text(os.path.join(folder, name)),
                ) from e
            yield name, b"".join(chunks)
    finally:
        if folder_fd is not None:
            os.close(folder_fd)


def decode_text(data: bytes, path: str | os.PathLike[str]) -> str:
    """``data`` (read from ``path``) decoded as ``read_text`` does; ParseError if not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        raise ParseError(
            f"not valid UTF-8 (byte 0x{data[e.start]:02x} at column "
            f"{e.start - line_start + 1}); re-save the file as UTF-8",
            path=str(path),
            line=data.count(b"\n", 0, e.start) + 1,
        ) from None


def atomic_write(
    path: str | os.PathLike[str],
    text: str,
    *,
    root: str | os.PathLike[str] | None = None,
) -> None:
    """Replace the file's content with ``text`` (UTF-8) so readers see old or new, never half.

    Writes a temp file in the same folder, fsyncs it, ``os.replace``s it and
    fsyncs the folder; the file's permission bits are kept, missing folders are
    made. A symlink inside the workspace is written through. ``root`` is the
    workspace; by default the nearest folder above ``path`` holding ``.git``
    (else ``path``'s own folder). Text from ``committed_text`` (surrogates for
    bad bytes) is written back as the original bytes.

    Raises GardenerError if ``path`` resolves outside the workspace or the
    write fails; the old file is then untouched and no temp file is left.
    """
    path = absolute(path)
    top = _workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        how = "is a symlink pointing" if is_symlink(path) else "resolves"
        raise GardenerError(f"refusing to write {path}: it {how} outside {top}")
    target = os.path.realpath(path)  # inside: not a symlink loop
    data = text.encode("utf-8", "surrogateescape")
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, temp = _create_temp(target)
        try:
            try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
                os.fchmod(fd, os.stat(target).st_mode & 0o7777)
            except FileNotFoundError:
                pass
            _write_all(fd, data)
            os.fsync(fd)
            os.close(fd)
            fd = -1
            os.replace(temp, target)
        except BaseException:
            if fd >= 0:
                os.close(fd)
            try:  # noqa: SIM105
                os.unlink(temp)
            except OSError:
                pass
            raise
        _fsync_dir(os.path.dirname(target))
    except OSError as e:
        raise GardenerError(f"could not write {path}: {e.strerror or e}") from e


def append_entry(
    path: str | os.PathLike[str],
    line: str,
    *,
    root: str | os.PathLike[str] | None = None,
) -> None:
    """Append one line (an entry) to a note, atomically, under the file's flock.

    One ``os.write`` on an ``O_APPEND`` descriptor, so concurrent appenders never
    interleave. A missing final newline is added first; the line ending is the
    file's own (CRLF if its first line ends CRLF, else LF); a trailing newline
    on ``line`` is dropped. Missing file and folders are created. ``root`` as in
    ``atomic_write``. Raises GardenerError if ``path`` resolves outside the
    workspace or the write fails.
    """
    path = absolute(path)
    top = _workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        raise GardenerError(f"refusing to append to {path}: it resolves outside {top}")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        created = not exists(path)
        while True:
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
            fd = os.open(path, flags, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                # An atomic_write may have replaced the file while we waited:
                # then append to the new file, not to the orphaned old one.
                if _is_current(fd, path):
                    _append_locked(fd, line)
                    break
            finally:
                os.close(fd)  # also releases the flock
        if created:
            _fsync_dir(os.path.dirname(path))
    except OSError as e:
        raise GardenerError(f"could not append to {path}: {e.strerror or e}") from e


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
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            _acquire(fd, lock_path, self._timeout)
            stale = _dead_owner(fd)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
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
            os.close(fd)  # also releases the flock


def replace_if_unchanged(
    path: str | os.PathLike[str],
    text: str | None,
    before: str | None,
    *,
    root: str | os.PathLike[str] | None = None,
) -> bool:
    """Write ``text`` to ``path`` (None: delete it) only if it still holds ``before``.

    ``before`` is the text a plan was made from (None: the file did not
    exist). The content hashes are compared under the file's flock, then
    the file is replaced atomically (``atomic_write``). A write that lands in
    the old file while it is being replaced is detected: that version is put
    back. Returns False, writing nothing of ``text``, when the file changed
    since the plan: re-plan then. Raises GardenerError as ``atomic_write``.
    """
    path = absolute(path)
    top = _workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        raise GardenerError(f"refusing to write {path}: it resolves outside {top}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        if before is not None:
            return False
        if text is not None:
            atomic_write(path, text, root=top)
        return True
    except OSError as e:
        raise GardenerError(f"could not read {path}: {e.strerror or e}") from e
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if not _is_current(fd, path):
            return False
        current = _pread_all(fd)
        if before is None or _digest(current) != _digest(_encode(before)):
            return False
        if text is None:
            os.unlink(path)
        else:
            atomic_write(path, text, root=top)
        late = _pread_all(fd)
        if late != current:  # written in place while we replaced it: keep that
            atomic_write(path, late.decode("utf-8", "surrogateescape"), root=top)
            return False
        return True
    except OSError as e:
        raise GardenerError(f"could not write {path}: {e.strerror or e}") from e
    finally:
        os.close(fd)


def remove_stale_temps(folder: str | os.PathLike[str]) -> list[str]:
    """Delete the temp files a killed ``atomic_write`` left in ``folder``; their names.

    Call it under the workspace lock: every gardener write happens under it.
    """
    removed = []
    try:
        with os.scandir(folder) as items:
            for item in items:
                if _TEMP.fullmatch(item.name) and item.is_file(follow_symlinks=False):
                    try:
                        os.unlink(item.path)
                    except FileNotFoundError:
                        continue
                    removed.append(item.name)
    except (FileNotFoundError, NotADirectoryError):
        pass
    return removed


def refuse_outside(root: str | os.PathLike[str], names: dict[str, str]) -> None:
    """Raise GardenerError if one of ``names`` (relative path -> "file" or "folder")
    leads out of ``root``, through a symlink or otherwise, or is there but is
    not a ``what`` (a file where the notes folder goes: every verb would fail
    with an error of the operating system's instead)."""
    for name, what in names.items():
        path = path_text(os.path.join(root, name))
        if not inside(root, name):
            how = f"a symlink to {os.readlink(path)}" if is_symlink(path) else "a path"
            raise GardenerError(
                f"{path} is {how} outside the workspace {path_text(root)}; the gardener never reads or writes outside it: replace the link with the real {what}"
            )
        if os.path.lexists(path) and (os.path.isdir(path) != (what == "folder")):
            found = "a folder" if os.path.isdir(path) else "a file"
            raise GardenerError(
                f"{path} is {found}; the gardener needs a {what} there: move it"
                " away, or name another in rules.md"
            )


def _workspace_of(path: str) -> str:
    """The nearest folder above ``path`` (absolute) that holds ``.git``, else
    its own folder."""
    child, folder = path, os.path.dirname(path)
    while folder != child:  # up to the root, as Path.parents
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        child, folder = folder, os.path.dirname(folder)
    return os.path.dirname(path)


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
    """Take the flock, waiting up to ``timeout`` seconds; LockError after that.

    The wait is a blocking flock in a helper thread, so waiters are woken as
    soon as the lock is free (polling would let a busy process starve them).
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    import threading  # only to wait: an uncontended lock needs no thread

    waiter = os.dup(fd)  # the same open file: its lock is fd's lock
    got = threading.Event()
    guard = threading.Lock()
    gave_up = False

    def wait() -> None:
        try:
            fcntl.flock(waiter, fcntl.LOCK_EX)
            with guard:
                if gave_up:
                    fcntl.flock(waiter, fcntl.LOCK_UN)
                else:
                    got.set()
        finally:
            os.close(waiter)

    threading.Thread(target=wait, name="gardener-lock", daemon=True).start()
    if got.wait(timeout):
        return
    with guard:
        if got.is_set():
            return
        gave_up = True
    owner = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    raise LockError(
        f"another gardener process (pid {owner or 'unknown'}) holds "
        f"{lock_path}; waited {timeout:g} s. Run the command again when "
        f"it finishes (the lock is released when that process exits)"
    )


def _dead_owner(fd: int) -> int | None:
    """The pid a killed owner left in the lock file; None if none or it still runs."""
    try:
        pid = int(os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "0")
    except ValueError:
        return None
    if pid <= 0 or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    except OSError:  # alive, another user's
        return None
    return None


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _digest(data: bytes) -> str:
    import hashlib  # not at import: it loads OpenSSL (~3 ms of every recall)

    return hashlib.sha256(data).hexdigest()


def _pread_all(fd: int) -> bytes:
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _create_temp(target: str) -> tuple[int, str]:
    """Create a new hidden temp file next to ``target`` (mode 0666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    folder, name = os.path.split(target)
    while True:
        temp = os.path.join(folder, f".{name[:150]}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue


def _append_locked(fd: int, body: str) -> None:
    size = os.fstat(fd).st_size
    newline = _newline_of(fd) if size else b"\n"
    last = os.pread(fd, 1, size - 1) if size else b""
    _write_all(fd, _appended(body, newline, last))
    os.fsync(fd)


def appended_text(text: str | None, line: str) -> str:
    """What ``append_entry(path, line)`` makes of a file holding ``text``
    (None: no file), as text: for a journal to record before the append."""
    if not text:
        return (text or "") + _appended(line, b"\n", b"").decode(
            "utf-8", "surrogateescape"
        )
    first, found, _ = text.partition("\n")
    newline = b"\r\n" if found and first.endswith("\r") else b"\n"
    last = text[-1].encode("utf-8", "surrogateescape")[-1:]
    tail = _appended(line, newline, last)
    return text + tail.decode("utf-8", "surrogateescape")


def _appended(line: str, newline: bytes, last: bytes) -> bytes:
    """The bytes an append of ``line`` writes after a file whose first line
    ends with ``newline`` and whose last byte is ``last`` (b"": empty)."""
    body = line.replace("\r\n", "\n").removesuffix("\n")
    prefix = b""
    if last and last != b"\n":
        prefix = b"\n" if last == b"\r" and newline == b"\r\n" else newline
    return (
        prefix
        + body.encode("utf-8", "surrogateescape").replace(b"\n", newline)
        + newline
    )


def _newline_of(fd: int) -> bytes:
    """CRLF if the file's first line ends with CRLF, else LF."""
    offset, previous = 0, b""
    while chunk := os.pread(fd, _CHUNK, offset):
        at = chunk.find(b"\n")
        if at >= 0:
            before = chunk[at - 1 : at] if at else previous
            return b"\r\n" if before == b"\r" else b"\n"
        offset, previous = offset + len(chunk), chunk[-1:]
    return b"\n"


def _write_all(fd: int, data: bytes) -> None:
    # One write does it on a local file; the loop only covers a short write.
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _is_current(fd: int, path: str) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # not supported here; the data itself is already synced
        return
    try:
        try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
            os.fsync(fd)
        except OSError:
            pass
    finally:
        os.close(fd)


def ensure_state_dir(root: Path) -> None:
    """Create ``.gardener/`` with the .gitignore that keeps quarantine out of git."""
    folder = root / STATE_DIR
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        atomic_write(ignore, _IGNORE)
