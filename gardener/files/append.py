"""Appending one entry to a daily note: one write under the file's lock."""

from __future__ import annotations

import os

from gardener.errors import GardenerError
from gardener.files import flock
from gardener.files.atomic import fsync_dir, is_current, workspace_of, write_all
from gardener.files.layout import absolute, exists, inside, path_text

# ``gardener note`` appends through here: no pathlib, contextlib or threading
_CHUNK = 1 << 16


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
    top = workspace_of(path) if root is None else path_text(root)
    if not inside(top, path):
        raise GardenerError(f"refusing to append to {path}: it resolves outside {top}")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        created = not exists(path)
        while True:
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | flock.OPEN_FLAGS
            fd = os.open(path, flags, 0o666)
            try:
                flock.lock(fd)
                # An atomic_write may have replaced the file while we waited:
                # then append to the new file, not to the orphaned old one.
                if is_current(fd, path):
                    _append_locked(fd, line)
                    break
            finally:
                flock.close(fd)  # also releases the lock
        if created:
            fsync_dir(os.path.dirname(path))
    except OSError as e:
        raise GardenerError(f"could not append to {path}: {e.strerror or e}") from e


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


def take_back(
    path: str | os.PathLike[str], before: str | None, after: str, root: str
) -> bool:
    """Undo an ``append_entry`` that made the file at ``path`` go from
    ``before`` (None: no file) to ``after`` (``appended_text``): the appended
    text is cut out under the file's flock, what others appended after it
    kept; a file the append created and nothing else wrote to is removed.
    ``root`` as in ``atomic_write``. Returns False, changing nothing, when the
    file no longer holds the appended text right after ``before``."""
    from gardener.files.atomic import atomic_write

    path = absolute(path)
    head = (before or "").encode("utf-8", "surrogateescape")
    ours = after.encode("utf-8", "surrogateescape")[len(head) :]
    try:
        fd = os.open(path, os.O_RDONLY | flock.OPEN_FLAGS)
    except FileNotFoundError:
        return False
    try:
        flock.lock(fd)
        data = _read_from(fd, 0)
        if not data.startswith(head + ours) or not ours:
            return False
        rest = data[len(head) + len(ours) :]
        if before is None and not rest:
            os.unlink(path)
            return True
        # the newline the append added after a last line that had none stays
        # when other lines follow, so that they do not join that line
        sep = ours[: len(ours) - len(ours.lstrip(b"\r\n"))] if rest else b""
        new = head + sep + rest
        atomic_write(path, new.decode("utf-8", "surrogateescape"), root=root)
        if late := _read_from(fd, len(data)):  # appended to the old file meanwhile
            with open(path, "ab") as out:
                out.write(late)
        return True
    finally:
        flock.close(fd)


def _read_from(fd: int, offset: int) -> bytes:
    chunks = []
    while chunk := flock.pread(fd, _CHUNK, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _append_locked(fd: int, body: str) -> None:
    size = os.fstat(fd).st_size
    newline = _newline_of(fd) if size else b"\n"
    last = flock.pread(fd, 1, size - 1) if size else b""
    write_all(fd, _appended(body, newline, last))
    os.fsync(fd)


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
    while chunk := flock.pread(fd, _CHUNK, offset):
        at = chunk.find(b"\n")
        if at >= 0:
            before = chunk[at - 1 : at] if at else previous
            return b"\r\n" if before == b"\r" else b"\n"
        offset, previous = offset + len(chunk), chunk[-1:]
    return b"\n"
