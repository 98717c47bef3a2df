"""Which file events the watcher acts on, and how it tells a file changed (pure)."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from gardener.files.layout import note_date

RULES = "rules.md"
# editors' temp, lock, swap and backup files: never a memory file
_DROPPING_PREFIXES = (".", "#")  # .#x (emacs lock), .x.swp, .goutputstream-*, #x#
_DROPPING_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".bak", "#")
_VIM_PROBE = "4913"  # vim checks it may create files in the folder with this name

Signature = tuple[int, int, int, int] | None  # (inode, size, mtime_ns, ctime_ns)
Identity = tuple[int, int] | None  # a folder's (device, inode)


def is_dropping(name: str) -> bool:
    """True for an editor's temp, lock, swap or backup file name."""
    return (
        name == _VIM_PROBE
        or name.startswith(_DROPPING_PREFIXES)
        or name.endswith(_DROPPING_SUFFIXES)
    )


def relevant(
    rel: str, memory_file: str = "MEMORY.md", notes_dir: str = "memory"
) -> bool:
    """True if a workspace-relative path is one the watcher records.

    MEMORY.md, rules.md and the dated notes directly in the notes folder.
    """
    path = PurePosixPath(rel)
    if is_dropping(path.name):
        return False
    if rel in (memory_file, RULES):
        return True
    return path.parent.as_posix() == notes_dir and note_date(path.name) is not None


def event_paths(event_type: str, src: str, dest: str | None) -> list[str]:
    """The paths an event may have changed: a move writes its destination and removes its source."""
    if event_type == "moved" and dest:
        return [dest, src]
    if event_type in ("created", "modified", "deleted"):
        return [src]
    return []  # opened, closed: reads and the end of writes already seen


def signature(path: Path) -> Signature:
    """What changes when a file is written; None if it does not exist (or dangles)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def identity(path: Path) -> Identity:
    """Which folder is at ``path`` (a re-created folder is another one); None if none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)
