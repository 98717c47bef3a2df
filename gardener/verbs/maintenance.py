"""When a commit runs git's housekeeping: once every few hours, by a stamp file.

``gardener note`` asks on every commit, so this module imports only ``os``
and ``time``.
"""

import os
import time

MAINTENANCE_EVERY = 6 * 3600  # seconds between git's housekeeping checks after commits


def maintenance_due(git_dir: str) -> bool:
    """Whether this commit runs git's automatic housekeeping (packing
    loose objects once there are many). An agent may note hundreds of times a
    day, and each check is a git process of its own; once every few hours
    keeps the store packed just as well (promote, prune and the other verbs
    follow the same clock: a pass makes two or three commits)."""
    stamp = os.path.join(git_dir, "gardener", "maintained")
    try:
        if time.time() - os.stat(stamp).st_mtime < MAINTENANCE_EVERY:
            return False
        _touch(stamp)
    except OSError:
        try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
            os.makedirs(os.path.dirname(stamp), exist_ok=True)
            _touch(stamp)
        except OSError:
            pass
    return True


def _touch(path: str) -> None:
    """``Path(path).touch()``: now as its time, created if missing."""
    try:
        os.utime(path)
    except OSError:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666))
