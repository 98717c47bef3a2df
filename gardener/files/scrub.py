"""Rewrite a file that other processes may be appending to, losing nothing.

``replace_carrying`` is purge's way to scrub a work-tree file: an agent's
``>>`` opens the file by name, writes and closes it, without asking anyone,
and a plain replace drops a line that lands on the old file between the read
and the rename. Here, what lands on the old file after the read is carried
over to the new one (edited the same way).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from gardener.files.atomic import atomic_write

_QUIET = 0.05  # seconds the old file must stay unchanged after the rename
_ROUNDS = 40  # at most this many checks (a writer that never stops: 2 s)


def replace_carrying(
    path: Path, edit: Callable[[bytes], bytes], root: Path
) -> int | None:
    """Replace the file at ``path`` with ``edit`` of its bytes, then append
    ``edit`` of whatever others appended to the old file meanwhile (a writer
    that opened the name before the rename writes there).

    Returns the number of bytes carried over, or None when the file is gone
    or ``edit`` changes nothing (nothing written). Appends made to the new
    file after the rename land there as usual; carried bytes come after
    them. Raises GardenerError as ``atomic_write``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        data = _read_from(fd, 0)
        new = edit(data)
        if new == data:
            return None
        atomic_write(path, new.decode("utf-8", "surrogateescape"), root=root)
        return _carry(fd, len(data), path, edit)
    finally:
        os.close(fd)


def _carry(fd: int, seen: int, path: Path, edit: Callable[[bytes], bytes]) -> int:
    """Append to ``path`` what the old file (``fd``) gained past ``seen``
    bytes, until it has been quiet for ``_QUIET`` seconds; returns the count."""
    carried = 0
    for _ in range(_ROUNDS):
        time.sleep(_QUIET)
        extra = _read_from(fd, seen)
        if not extra:
            break
        seen += len(extra)
        with open(path, "ab") as out:  # O_APPEND, as the writers themselves
            out.write(edit(extra))
        carried += len(extra)
    return carried


def _read_from(fd: int, offset: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)
