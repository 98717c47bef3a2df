"""Rewrite a file that other processes may be appending to, losing nothing.

``replace_carrying`` is purge's way to scrub a work-tree file: an agent's
``>>`` opens the file by name, writes and closes it, without asking anyone,
and a plain replace drops a line that lands on the old file between the read
and the rename. Here, what lands on the old file after the read is carried
over to the new one (edited the same way).

A kill between the rename and the carry-over would still lose such a line
(the old file then has no name left). With a ``hold`` folder the old file is
first hard-linked there, beside a small JSON record (``{"path": ..., "seen":
bytes already carried}``); the link and its record go once the carry-over is
done, and ``finish_carries`` (the rerun of a killed purge) carries over what a
killed run left.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from gardener.files.atomic import atomic_write, write_all

_QUIET = 0.05  # seconds the old file must stay unchanged after the rename
_ROUNDS = 40  # at most this many checks (a writer that never stops: 2 s)
_RECORD = ".json"  # beside each held link: the record of what it carries

Edit = Callable[[bytes], bytes]


def replace_carrying(
    path: Path, edit: Edit, root: Path, hold: Path | None = None
) -> int | None:
    """Replace the file at ``path`` with ``edit`` of its bytes, then append
    ``edit`` of whatever others appended to the old file meanwhile (a writer
    that opened the name before the rename writes there).

    ``hold``: a folder on the same file system (purge gives one in the git
    folder) where the old file is kept by a hard link until the carry-over is
    done, so that ``finish_carries`` can finish it after a kill; without one,
    or where the link cannot be made, a kill in the carry-over (~50 ms) can
    lose a line appended in it.

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
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        held = _hold(fd, path, rel, hold, len(data)) if hold is not None else None
        atomic_write(path, new.decode("utf-8", "surrogateescape"), root=root)
        carried = _carry(fd, len(data), path, edit, (held, rel))
        if held is not None:
            _drop(held)
        return carried
    finally:
        os.close(fd)


def finish_carries(hold: Path, root: Path, edit: Edit) -> list[str]:
    """Carry over what a killed ``replace_carrying`` left in ``hold``: each
    held old file's bytes past its record's ``seen`` are appended, edited,
    to the file now at its path (unless that file already ends with them: the
    kill came after the append, before the record). A link whose file was
    never replaced (same inode at the path) is only dropped. Returns the
    workspace-relative paths carried into; ``hold`` goes when empty."""
    done: list[str] = []
    try:
        names = sorted(n for n in os.listdir(hold) if n.endswith(_RECORD))
    except OSError:
        return done
    for name in names:
        held = hold / name.removesuffix(_RECORD)
        try:
            record = json.loads((hold / name).read_text(encoding="utf-8"))
            rel, seen = str(record["path"]), int(record["seen"])
        except (OSError, ValueError, KeyError, TypeError):
            _drop(held)
            continue
        target = root / rel
        with contextlib.suppress(OSError):
            old, now = os.stat(held), os.stat(target, follow_symlinks=False)
            if (old.st_dev, old.st_ino) != (now.st_dev, now.st_ino):
                extra = edit(held.read_bytes()[seen:])
                if extra and not target.read_bytes().endswith(extra):
                    with open(target, "ab") as out:
                        out.write(extra)
                    done.append(rel)
        _drop(held)
    with contextlib.suppress(OSError):
        hold.rmdir()
    return done


def _hold(fd: int, path: Path, rel: str, hold: Path, seen: int) -> Path | None:
    """Link the file open as ``fd`` into ``hold`` (record first); None if
    the link cannot be made (another file system, no hard links)."""
    held = hold / f"{os.getpid()}-{time.monotonic_ns()}"
    try:
        hold.mkdir(parents=True, exist_ok=True)
        _note(held, rel, seen)
        try:  # the open file itself, even if its name was taken meanwhile
            os.link(f"/proc/self/fd/{fd}", held, follow_symlinks=True)
        except OSError:
            os.link(path, held, follow_symlinks=False)
            if not _same(held, fd):
                os.unlink(held)
                raise
        return held
    except OSError:
        _drop(held)
        return None


def _same(held: Path, fd: int) -> bool:
    a, b = os.stat(held), os.fstat(fd)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _note(held: Path, rel: str, seen: int) -> None:
    """Write ``held``'s record: replaced whole (a kill leaves old or new)."""
    temp = f"{held}{_RECORD}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        write_all(fd, json.dumps({"path": rel, "seen": seen}).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, f"{held}{_RECORD}")


def _drop(held: Path) -> None:
    for name in (
        f"{held}{_RECORD}",
        str(held),
    ):  # the record first: no record, no carry
        with contextlib.suppress(OSError):
            os.unlink(name)


def _carry(
    fd: int, seen: int, path: Path, edit: Edit, held: tuple[Path | None, str]
) -> int:
    """Append to ``path`` what the old file (``fd``) gained past ``seen``
    bytes, until it has been quiet for ``_QUIET`` seconds; returns the count.
    ``held``: (the link, or None; the path) whose record is brought up to
    date after each append."""
    carried = 0
    for _ in range(_ROUNDS):
        time.sleep(_QUIET)
        extra = _read_from(fd, seen)
        if not extra:
            break
        seen += len(extra)
        with open(path, "ab") as out:  # O_APPEND, as the writers themselves
            out.write(edit(extra))
        if held[0] is not None:
            _note(held[0], held[1], seen)
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
