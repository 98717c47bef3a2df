"""Reading a workspace's files: UTF-8 text byte for byte, many notes through one folder handle."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import path_text

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
