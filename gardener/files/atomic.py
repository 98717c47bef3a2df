"""Writing a workspace's files atomically: a temp file beside the target,
fsynced, then ``os.replace``; the compare-and-replace a re-planning verb needs.

No git here: the only thing this module knows about git is that a
workspace's top folder holds ``.git``.
"""

from __future__ import annotations

import errno
import os
import re
import time

from gardener.errors import GardenerError
from gardener.files import flock
from gardener.files.layout import STATE_DIR, absolute, inside, is_symlink, path_text

# ``gardener note`` writes through here: no pathlib (~6 ms to import),
# contextlib or threading at import; paths are os.path strings inside
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

# seconds replace_if_unchanged looks again for an in-place append to the old file
_SETTLE_S = 0.02
_TEMP = re.compile(r"\..+\.[0-9a-f]{12}\.tmp", re.DOTALL)  # see _create_temp
_IGNORE = (
    "# never committed: secrets taken out of memory files\nquarantine.jsonl\n*.lock\n"
)


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
    _write(path, text, root, None)


def atomic_write_pieces(
    path: str | os.PathLike[str],
    pieces: Iterable[str],
    *,
    root: str | os.PathLike[str] | None = None,
) -> None:
    """``atomic_write(path, "".join(pieces))``, each piece encoded and
    written as it comes: a big text (the journal of a pass that rewrites a
    2.4 MB MEMORY.md) is never held whole, nor as bytes beside it."""
    _write(path, pieces, root, None)


def _write(
    path: str | os.PathLike[str],
    text: str | Iterable[str],
    root: str | os.PathLike[str] | None,
    expect: int | None,
) -> bool:
    """``atomic_write``; with ``expect`` (a descriptor of the file a plan read),
    only if the file at ``path`` is still that one when the new one takes its
    place: False, writing nothing, when another writer renamed a file of its own
    there meanwhile (an editor's save), which is then left as it is. ``text``
    may be pieces (``atomic_write_pieces``)."""
    path = absolute(path)
    top = workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        how = "is a symlink pointing" if is_symlink(path) else "resolves"
        raise GardenerError(f"refusing to write {path}: it {how} outside {top}")
    target = os.path.realpath(path)  # inside: not a symlink loop
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else None
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, temp = _create_temp(target)
        placed = False
        try:
            try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
                _keep_mode(fd, temp, os.stat(target).st_mode & 0o7777)
            except FileNotFoundError:
                pass
            if data is not None:
                write_all(fd, data)
            else:
                for piece in text:
                    write_all(fd, piece.encode("utf-8", "surrogateescape"))
            os.fsync(fd)
            os.close(fd)
            fd = -1
            placed = _place(temp, target, expect)
        finally:
            if fd >= 0:
                os.close(fd)
            if not placed:
                try:  # noqa: SIM105
                    os.unlink(temp)
                except OSError:
                    pass
        if placed:
            fsync_dir(os.path.dirname(target))
        return placed
    except OSError as e:
        raise GardenerError(f"could not write {path}: {e.strerror or e}") from e


def _place(temp: str, target: str, expect: int | None) -> bool:
    """Rename ``temp`` over ``target``; with ``expect``, only while ``target``
    is still the file ``expect`` holds open. Where the system can swap two
    names in one step (Linux ``renameat2(RENAME_EXCHANGE)``), the check is
    exact: swap, look at what came out, swap back if it was someone else's
    save. Elsewhere the check is made just before the rename."""
    if expect is None:
        os.replace(temp, target)
        return True
    ours = os.lstat(temp)
    swapped = _exchange(temp, target)
    if swapped is None:  # no swap here: check, then rename (a tiny window)
        if not is_current(expect, target):
            return False
        os.replace(temp, target)
        return True
    if os.path.samestat(os.fstat(expect), os.lstat(temp)):
        os.unlink(temp)  # the old file, now under the temp name
        return True
    _give_back(temp, target, ours)
    return False


def _give_back(temp: str, target: str, ours: os.stat_result) -> None:
    """A save landed between the check and the swap: it is at ``temp`` and
    our file (``ours``) at ``target``. Swap until the save has its name back:
    a newer save that replaced ours meanwhile comes out of the swap instead
    of ours, and then it is the one to put back. What comes out last is ours
    or an older save its writer had already replaced: it goes. The file left
    at ``temp`` is never unlinked unless it is one of those."""
    expected = ours  # what the next swap should bring out of ``target``
    for _ in range(_SWAPS):
        aside = os.lstat(temp)
        _exchange(temp, target)
        out = os.lstat(temp)
        if os.path.samestat(out, expected):
            os.unlink(temp)
            return
        expected = aside  # a newer save came out: swap it back in next
    # saves kept landing: the last one out is kept beside, under its own name
    kept = f"{target}.kept-{os.getpid()}"
    os.replace(temp, kept)
    raise OSError(
        f"{target} kept being replaced while written; a version is kept in {kept}"
    )


_SWAPS = 50


def _exchange(first: str, second: str) -> bool | None:
    """Swap two paths' names atomically: True, or None where the system or
    the file system cannot (then nothing changed). Raises OSError otherwise."""
    global _RENAMEAT2
    if _RENAMEAT2 is None:
        _RENAMEAT2 = _load_renameat2()
    if not callable(_RENAMEAT2):
        return None
    import ctypes

    if _RENAMEAT2(-100, os.fsencode(first), -100, os.fsencode(second), 2) == 0:
        return True  # -100: AT_FDCWD; 2: RENAME_EXCHANGE
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return None
    raise OSError(code, os.strerror(code), second)


_RENAMEAT2: Callable[..., int] | bool | None = None  # None: not looked up; False: none


def _load_renameat2() -> Callable[..., int] | bool:
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a libc older than glibc 2.28, or none
        return False
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


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
    top = workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        raise GardenerError(f"refusing to write {path}: it resolves outside {top}")
    try:
        fd = os.open(path, os.O_RDONLY | flock.OPEN_FLAGS)
    except FileNotFoundError:
        if before is not None:
            return False
        if text is not None:
            atomic_write(path, text, root=top)
        return True
    except OSError as e:
        raise GardenerError(f"could not read {path}: {e.strerror or e}") from e
    try:
        flock.lock(fd)
        if not is_current(fd, path):
            return False
        current = _pread_all(fd)
        if before is None or _digest(current) != _digest(_encode(before)):
            return False
        if text is None:
            os.unlink(path)
        elif not _write(path, text, top, fd):
            return False  # saved by rename since the check: re-plan on it
        late = _pread_all(fd)
        if late == current:
            # an append that opened the old file just before the rename (an
            # editor or agent writing in place, without the lock) lands a
            # moment later: look once more
            time.sleep(_SETTLE_S)
            late = _pread_all(fd)
        if late != current:  # written in place while we replaced it: keep that
            atomic_write(path, late.decode("utf-8", "surrogateescape"), root=top)
            return False
        return True
    except OSError as e:
        raise GardenerError(f"could not write {path}: {e.strerror or e}") from e
    finally:
        flock.close(fd)


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


def ensure_state_dir(root: Path) -> None:
    """Create ``.gardener/`` with the .gitignore that keeps quarantine out of git."""
    folder = root / STATE_DIR
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        atomic_write(ignore, _IGNORE)


def workspace_of(path: str) -> str:
    """The nearest folder above ``path`` (absolute) that holds ``.git``, else
    its own folder."""
    child, folder = path, os.path.dirname(path)
    while folder != child:  # up to the root, as Path.parents
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        child, folder = folder, os.path.dirname(folder)
    return os.path.dirname(path)


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _digest(data: bytes) -> str:
    import hashlib  # not at import: it loads OpenSSL (~3 ms of every recall)

    return hashlib.sha256(data).hexdigest()


def _pread_all(fd: int) -> bytes:
    chunks, offset = [], 0
    while chunk := flock.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _create_temp(target: str) -> tuple[int, str]:
    """Create a new hidden temp file next to ``target`` (mode 0666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | flock.OPEN_FLAGS
    folder, name = os.path.split(target)
    while True:
        temp = os.path.join(folder, f".{name[:150]}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue


def _keep_mode(fd: int, temp: str, mode: int) -> None:
    """Give the temp file the target's permission bits (Windows before
    Python 3.13 has no ``os.fchmod``: by its name there)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(temp, mode)


def write_all(fd: int, data: bytes) -> None:
    # One write does it on a local file; the loop only covers a short write.
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def is_current(fd: int, path: str) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # not supported here; the data itself is already synced
        return
    try:
        try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
            os.fsync(fd)
        except OSError:
            pass
    finally:
        os.close(fd)
