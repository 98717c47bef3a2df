"""What promote learned about the notes and ledger files it did not need to read.

Kept in ``.git/gardener/promote-cache``: never committed, safe to delete (the
next pass reads every note once and writes it again). For each note, its
stamp (size, mtime, ctime, inode), its git blob id and whether its month's
ledger file, as stamped, said it was settled; for each month's ledger file,
its stamp. A file whose stamp is unchanged holds the same bytes: writing a
file changes its ctime, which no tool can set back, and a rename changes its
inode. As git does for its index, a stamp whose times are not older than the
moment the pass that took it began is not trusted (the file may be written
again within the same clock tick), so such a file is read again next time.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

FILE = "promote-cache"
_HEADER = "gardener promote cache 1"
_END = "end"
# when notes and the git folder are on different file systems, their clocks may
# tick at different steps: a stamp must then be this much older than the epoch
_FOREIGN_MARGIN_NS = 2_000_000_000

Stamp = tuple[int, int, int, int]  # size (bytes), mtime_ns, ctime_ns, inode


def stamp_of(st: os.stat_result) -> Stamp:
    """The parts of a stat that change whenever a file's bytes do."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@dataclass(frozen=True)
class NoteState:
    """What a pass knew of one note file."""

    stamp: Stamp
    blob: str  # git blob id of its bytes (40 hex)
    settled: bool  # its month's ledger file (as stamped in the cache) settles this blob


@dataclass
class Cache:
    """The cache as loaded (``load``), and what the current pass learns (``save``).

    ``epoch``: file-system time (ns) at which the pass that wrote it began; a
    stamp is trusted only if older (``trusted``). ``months`` maps a month to
    its ledger file's stamp, None when the month had no file.
    """

    epoch: int = 0
    notes: dict[str, NoteState] = field(default_factory=dict)
    months: dict[str, Stamp | None] = field(default_factory=dict)
    margin: int = 0  # ns a stamp must be older than the epoch (see _FOREIGN_MARGIN_NS)

    def trusted(self, stamp: Stamp | None) -> bool:
        """True if ``stamp`` is old enough to vouch for the file's bytes."""
        if stamp is None:  # a missing file stays missing until it is created
            return True
        return max(stamp[1], stamp[2]) < self.epoch - self.margin

    def blob(self, rel: str, stamp: Stamp) -> NoteState | None:
        """The cached state of note ``rel`` if its file still has ``stamp``."""
        hit = self.notes.get(rel)
        if hit is not None and hit.stamp == stamp and self.trusted(stamp):
            return hit
        return None

    def month(self, month: str, stamp: Stamp | None) -> bool:
        """True if the cached settled flags of ``month``'s notes still hold."""
        return (
            month in self.months
            and self.months[month] == stamp
            and self.trusted(stamp)
        )


def load(git_dir: Path | None, notes: Path) -> Cache:
    """The cache in ``git_dir/gardener/``; an empty one if missing or unreadable.

    ``notes``: the notes folder, to learn whether it shares the git folder's
    file system (and so its clock).
    """
    if git_dir is None:
        return Cache()
    try:
        text = (git_dir / "gardener" / FILE).read_text("utf-8", "surrogateescape")
    except OSError:
        return Cache()
    return _parse(text, _margin(git_dir, notes))


def begin(git_dir: Path | None) -> int:
    """The file system's time now (ns), as the epoch of the cache this pass writes.

    Taken from a file created in the cache's folder, so it is the clock (and
    the tick) that stamps files, not the process's. 0 if that cannot be done
    (then nothing the pass learns is trusted later).
    """
    if git_dir is None:
        return 0
    folder = git_dir / "gardener"
    try:
        folder.mkdir(exist_ok=True)
        temp = folder / f"{FILE}.new"
        with suppress(FileNotFoundError):
            temp.unlink()  # a new file: its times are now
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            return os.fstat(fd).st_mtime_ns
        finally:
            os.close(fd)
    except OSError:
        return 0


def save(git_dir: Path | None, cache: Cache) -> None:
    """Write ``cache`` (its ``epoch`` from ``begin``) in place of the old one.

    A cache is never needed: a failure to write it is ignored. Not fsynced:
    after a crash the old cache, or none, is as true as it was.
    """
    if git_dir is None or not cache.epoch:
        return
    folder = git_dir / "gardener"
    lines = [f"{_HEADER}\t{cache.epoch}"]
    for rel, state in sorted(cache.notes.items()):
        size, mtime, ctime, ino = state.stamp
        lines.append(
            f"n\t{size}\t{mtime}\t{ctime}\t{ino}\t{state.blob}\t{int(state.settled)}\t{rel}"
        )
    for month, stamp in sorted(cache.months.items()):
        numbers = "\t".join(map(str, stamp)) if stamp else "-\t-\t-\t-"
        lines.append(f"m\t{numbers}\t{month}")
    lines.append(_END)
    temp = folder / f"{FILE}.new"
    with suppress(OSError):
        temp.write_text("\n".join(lines) + "\n", "utf-8", "surrogateescape")
        os.replace(temp, folder / FILE)


def _parse(text: str, margin: int) -> Cache:
    lines = text.split("\n")
    if len(lines) < 3 or lines[-2] != _END or not lines[0].startswith(_HEADER + "\t"):
        return Cache()  # another version, or a write cut short
    try:
        cache = Cache(int(lines[0].partition("\t")[2]), margin=margin)
        for line in lines[1:-2]:
            kind, a, b, c, d, *rest = line.split("\t", 7 if line[:1] == "n" else 5)
            if kind == "n":
                blob, settled, rel = rest
                stamp = (int(a), int(b), int(c), int(d))
                cache.notes[rel] = NoteState(stamp, blob, settled == "1")
            else:
                cache.months[rest[0]] = None if a == "-" else (int(a), int(b), int(c), int(d))
    except ValueError:
        return Cache()
    return cache


def _margin(git_dir: Path, notes: Path) -> int:
    try:
        same = os.stat(git_dir).st_dev == os.stat(notes).st_dev
    except OSError:
        same = False
    return 0 if same else _FOREIGN_MARGIN_NS
