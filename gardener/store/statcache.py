"""What promote learned about the notes and ledger files it did not need to read.

Kept in ``.git/gardener/promote-cache``: never committed, safe to delete (the
next pass reads every note once and writes it again). For each note, its
stamp (size, mtime, ctime, inode), its git blob id and whether its month's
ledger file, as stamped, said it was settled; for each month's ledger file,
its stamp. A file whose stamp is unchanged holds the same bytes: writing a
file changes its ctime, which no tool can set back, and a rename changes its
inode. As git does for its index, a stamp whose times are not older than the
moment the pass that took it began is not kept (the file may be written again
within the same clock tick without a change of stamp): such a file is read
again next time.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

FILE = "promote-cache"
_HEADER = "gardener promote cache 2"
_END = "end"
MISSING = "-"  # the stamp of a file that does not exist
# when notes, ledger and git folder are on different file systems, their clocks
# may tick at different steps: a stamp must then be this much older than the epoch
_FOREIGN_MARGIN_NS = 2_000_000_000


def stamp_of(st: os.stat_result) -> str:
    """``size:mtime_ns:ctime_ns:inode``: what changes whenever a file's bytes do."""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


@dataclass
class Cache:
    """The cache as loaded (``load``), or being made by a pass (``save``).

    ``notes``: workspace-relative path -> (stamp, git blob id, settled), where
    settled is "1" if its month's ledger file, with the stamp in ``months``,
    settled that blob. ``months``: month (``2026-07``) -> its ledger file's
    stamp (``MISSING`` when the month has no file).
    """

    notes: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    months: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Clock:
    """When a pass began, to tell which stamps it may keep (``keeps``).

    ``epoch``: the file system's time (ns) when the pass began; 0 if unknown.
    ``margin``: ns a stamp must be older than that (see _FOREIGN_MARGIN_NS).
    """

    epoch: int
    margin: int = 0

    def keeps(self, st: os.stat_result) -> bool:
        """True if a stat taken in this pass vouches for the file's bytes later."""
        return max(st.st_mtime_ns, st.st_ctime_ns) < self.epoch - self.margin


def load(git_dir: Path | None) -> Cache:
    """The cache in ``git_dir/gardener/``; an empty one if missing or unreadable."""
    if git_dir is None:
        return Cache()
    try:
        text = (git_dir / "gardener" / FILE).read_text("utf-8", "surrogateescape")
    except OSError:
        return Cache()
    lines = text.split("\n")
    # another version, or a write cut short: start again
    if len(lines) < 4 or lines[0] != _HEADER or lines[-2] != _END:
        return Cache()
    try:
        split = lines.index("")
        months = dict(line.split("\t") for line in lines[1:split])
        notes = {}
        for line in lines[split + 1 : -2]:
            stamp, blob, settled, rel = line.split("\t", 3)
            notes[rel] = (stamp, blob, settled)
    except ValueError:
        return Cache()
    return Cache(notes, months)


def begin(git_dir: Path | None, *folders: Path) -> Clock:
    """The clock of a pass that begins now: the file system's time (ns).

    Taken from a file created in the cache's folder, so it is the clock (and
    the tick) that stamps files, not the process's. ``folders``: where the
    stamped files are; on another file system than the cache, a margin is
    added. Epoch 0 (nothing kept) if the file cannot be made.
    """
    if git_dir is None:
        return Clock(0)
    folder = git_dir / "gardener"
    try:
        folder.mkdir(exist_ok=True)
        temp = folder / f"{FILE}.new"
        with suppress(FileNotFoundError):
            temp.unlink()  # a new file: its times are now
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            st = os.fstat(fd)
        finally:
            os.close(fd)
    except OSError:
        return Clock(0)
    devices = set()
    for where in folders:
        with suppress(OSError):
            devices.add(os.stat(where).st_dev)
    foreign = bool(devices - {st.st_dev})
    return Clock(st.st_mtime_ns, _FOREIGN_MARGIN_NS if foreign else 0)


def save(git_dir: Path | None, cache: Cache) -> None:
    """Write ``cache`` in place of the old one (after ``begin``).

    A cache is never needed: a failure to write it is ignored. Not fsynced:
    after a crash the old cache, or none, is as true as it was.
    """
    if git_dir is None:
        return
    folder = git_dir / "gardener"
    lines = [_HEADER]
    lines += [f"{month}\t{stamp}" for month, stamp in sorted(cache.months.items())]
    lines.append("")
    lines += [
        f"{stamp}\t{blob}\t{settled}\t{rel}"
        for rel, (stamp, blob, settled) in cache.notes.items()
    ]
    lines += [_END, ""]
    temp = folder / f"{FILE}.new"
    with suppress(OSError):
        # owner-only, as the recall index (made so by ``begin``, else here)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write("\n".join(lines).encode("utf-8", "surrogateescape"))
        os.replace(temp, folder / FILE)
