"""inotify on Linux: how many watches this process holds, and what to do at the limit."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def inotify_watch_count() -> int | None:
    """This process's inotify watches (from /proc/self/fdinfo); None off Linux."""
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return None
    count = 0
    for fd in fds:
        try:
            if os.readlink(f"/proc/self/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/self/fdinfo/{fd}") as info:
                count += sum(line.startswith("inotify wd:") for line in info)
        except OSError:
            continue
    return count


def limit_advice(code: int | None) -> str:
    """Which inotify limit was hit, its value, and the command that raises it."""
    name, higher = (
        ("max_user_instances", 1024)
        if code == errno.EMFILE
        else ("max_user_watches", 524288)
    )
    try:
        value = Path(f"/proc/sys/fs/inotify/{name}").read_text().strip()
    except OSError:
        value = "?"
    return (
        f"inotify limit reached (fs.inotify.{name} = {value}); raise it with "
        f"`sudo sysctl fs.inotify.{name}={higher}` and keep it with "
        f"`echo fs.inotify.{name}={higher} | sudo tee /etc/sysctl.d/60-gardener.conf`"
    )
