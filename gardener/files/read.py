"""Reading a workspace's files: UTF-8 text byte for byte, many notes through one folder handle."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import path_text

_T = TypeVar("_T")

# a note and a warm recall read through here: no pathlib (~6 ms to import)
_READ_CHUNK = 1 << 20


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
    return _on_fd(path, lambda fd: _read_plain(fd, path))


def _on_fd(path: str | os.PathLike[str], use: Callable[[int], _T]) -> _T:
    """``use(fd)`` of the file opened for reading (``_OPEN``), closed after;
    FileNotFoundError as is, any other OSError as a GardenerError naming it."""
    try:
        fd = os.open(path, _OPEN)
        try:
            return use(fd)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise GardenerError(f"cannot read: {e.strerror or e}", path=str(path)) from e


# non-blocking: opening a FIFO for reading would wait for a writer forever
# (Windows: no O_CLOEXEC, O_NONBLOCK; O_BINARY keeps the bytes untranslated)
_OPEN = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN |= getattr(os, "O_BINARY", 0)


def _read_plain(fd: int, path: str | os.PathLike[str]) -> bytes:
    """All of ``fd``'s bytes; GardenerError if it is not a plain file (a FIFO,
    socket or device at a note's path would hang or never end)."""
    _plain(fd, path)
    # the size it has now in one read: a 50 MB note is then one bytes object,
    # not chunks and their join (twice its size at once); then what grew since
    chunks = [os.read(fd, max(os.fstat(fd).st_size, 0) + 1)]
    while chunks[-1] and (chunk := os.read(fd, _READ_CHUNK)):
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _plain(fd: int, path: str | os.PathLike[str]) -> None:
    """GardenerError unless ``fd`` is a plain file."""
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        raise GardenerError(
            f"not a plain file ({_kind(mode)}); the gardener reads only plain files:"
            " move it away",
            path=path_text(path),
        )


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device")):  # fmt: skip
        if test(mode):
            return name
    return "not a regular file"


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
                path = os.path.join(folder, name)
                fd = os.open(name if relative else path, _OPEN, dir_fd=folder_fd)
                try:
                    data = _read_plain(fd, path)
                finally:
                    os.close(fd)
            except FileNotFoundError:
                raise
            except OSError as e:
                raise GardenerError(
                    f"cannot read: {e.strerror or e}",
                    path=path_text(os.path.join(folder, name)),
                ) from e
            yield name, data
    finally:
        if folder_fd is not None:
            os.close(folder_fd)


def utf8_error(data: bytes) -> int:
    """Where ``data`` stops being UTF-8 (the offset ``bytes.decode`` names),
    -1 if it is; checked a MB at a time (a 50 MB note is not decoded whole:
    its text would be 50 MB more at once)."""
    check = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    at = 0
    try:
        for at in range(0, len(data), _READ_CHUNK_CHECK):
            check.decode(view[at : at + _READ_CHUNK_CHECK])
        at = len(data)
        check.decode(b"", final=True)
    except UnicodeDecodeError as e:
        # e.start counts from the bytes the decoder kept from the piece before
        return at - len(check.getstate()[0]) + e.start
    return -1


_READ_CHUNK_CHECK = 1 << 20


def read_head(path: str | os.PathLike[str], limit: int) -> tuple[bytes, int, bool]:
    """The first ``limit`` bytes of a plain file, its size, and whether all of
    it is UTF-8: read a MB at a time, never held whole. Raises as
    ``read_bytes``."""

    def read(fd: int) -> tuple[bytes, int, bool]:
        _plain(fd, path)
        check = codecs.getincrementaldecoder("utf-8")()
        head, size, good = b"", 0, True
        while chunk := os.read(fd, max(limit, _READ_CHUNK_CHECK)):
            if size < limit:
                head += chunk[: limit - size]
            size += len(chunk)
            if good:
                try:
                    check.decode(chunk)
                except UnicodeDecodeError:
                    good = False
        if good:
            try:
                check.decode(b"", final=True)
            except UnicodeDecodeError:
                good = False
        return head, size, good

    return _on_fd(path, read)


def not_text(data: bytes) -> tuple[int, str] | None:
    """Why ``data`` is not text: (line, what) for its first NUL byte or
    byte that is not UTF-8 (lines counted from 1), else None."""
    nul = data.find(b"\0")
    bad = utf8_error(data)
    if nul < 0 and bad < 0:
        return None
    at = min(x for x in (nul, bad) if x >= 0)
    what = "a NUL byte" if at == nul else f"byte 0x{data[at]:02x}, not UTF-8"
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    return data.count(b"\n", 0, at) + 1, f"{what} at column {column}"


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
