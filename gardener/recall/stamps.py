"""What tells a changed file or folder: its stamp (size, mtime, ctime, inode).

A warm recall compares stamps on every call: plain ``os.stat``, no imports
beyond ``os`` and ``time``.
"""

from __future__ import annotations

import os
import time

RACY_NS = 2_000_000_000  # coarser than any file system's timestamps
TICK_NS = 20_000_000  # above a kernel's coarse clock tick (1-10 ms)


def folder_stamp(path: str) -> str:
    """A folder's stamp (``stamp``), or "" when it changed too recently to tell:
    a file added within the same clock tick as the last change leaves the
    folder's mtime as it was (git's "racy" rule: trust only older stamps)."""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS:
        return ""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


def stamp(path: str, dir_fd: int | None = None, trusted: bool = False) -> str:
    """What tells a changed file: size, mtime, ctime (which no tool can set back),
    inode. ``dir_fd``: ``path`` is a name in that open folder (one lookup).

    ``trusted``: the stamp is to be stored; a file changed so recently that
    another write could keep its times (git's "racy" case: the same size
    rewritten within the file system's clock tick) gets "racy", which equals
    no stamp, so it is read again next time. A tick is a second where the
    times carry no fraction of one (FAT, HFS+, some NFS), else a few ms.
    """
    try:
        st = os.stat(path, dir_fd=dir_fd)
    except OSError:
        return "missing"
    if trusted:
        changed = max(st.st_mtime_ns, st.st_ctime_ns)
        tick = RACY_NS if changed % 1_000_000_000 == 0 else TICK_NS
        if time.time_ns() - changed < tick:
            return "racy"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
