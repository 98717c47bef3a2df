"""Which daily notes a promote pass must read, found without reading the others.

A note is settled when its month's ledger file holds ``path<TAB>settled:<blob id>``
for its bytes (``promote.settle``): a pass has nothing left to do with it. The
stat cache (``statcache``) gives the blob id of a note whose stamp did not
change, and says whether an unchanged month file settled it, so a pass over
years of notes stats each note and each month's ledger file, and reads only
the notes that changed or are not settled, and the months they are in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from .errors import ParseError
from .ledger import FOLDER, LEGACY, Ledger, month_of, read_all
from .model import Note, Problem
from .statcache import Cache, NoteState, Stamp, begin, load, stamp_of
from .workspace import decode_text, note_names, read_files


@dataclass
class Scan:
    """What ``scan`` found: the notes to plan with and the ledger months read."""

    notes: list[Note]  # the unsettled notes, parsed, each with its ``digest``
    problems: list[Problem]  # notes that could not be read
    ledger: Ledger  # the months read (every month when the legacy file is there)
    cache: Cache  # as loaded
    epoch: int  # file-system time when the scan began (``statcache.begin``)
    # every note seen: path -> (month, stamp, blob id)
    seen: dict[str, tuple[str, Stamp, str]] = field(default_factory=dict)
    # months whose file was read, with its stamp taken before the read
    stamps: dict[str, Stamp | None] = field(default_factory=dict)

    def settled(self, rel: str) -> bool:
        """True if note ``rel`` is settled by the ledger as read, or by the cache."""
        month, stamp, blob = self.seen[rel]
        if self.ledger.legacy is not None or month in self.ledger.months:
            mark = f"{rel}\tsettled:{blob}"
            return mark in self.ledger.months.get(month, ()) or mark in (
                self.ledger.legacy or ()
            )
        hit = self.cache.blob(rel, stamp)
        return hit is not None and hit.blob == blob and hit.settled

    def learned(self, written: set[str]) -> Cache:
        """The cache to save after the pass; ``written``: the months it rewrote."""
        out = Cache(self.epoch)
        migrated = self.ledger.legacy is not None
        for month, stamp in self.cache.months.items():
            if month not in self.ledger.months and not migrated:
                out.months[month] = stamp  # not read: it matched, still true
        for month, stamp in self.stamps.items():
            if month not in written and not migrated:
                out.months[month] = stamp
        for rel, (month, stamp, blob) in self.seen.items():
            settled = month in out.months and self.settled(rel)
            out.notes[rel] = NoteState(stamp, blob, settled)
        return out


def scan(root: Path, notes_dir: str, git_dir: Path | None) -> Scan:
    """Stat every note and month file; read and parse only the unsettled notes.

    ``notes_dir`` is relative to ``root``; ``git_dir`` holds the cache (None:
    no cache, every note is read). Raises GardenerError if a note cannot be
    read; one that is not UTF-8 is a problem, left out.
    """
    from .promote import note_digest

    folder = root / notes_dir
    cache = load(git_dir, folder)
    epoch = begin(git_dir)
    base = folder.relative_to(root).as_posix()
    names = note_names(root, notes_dir)
    found = Scan([], [], Ledger(root), cache, epoch)
    if (root / LEGACY).is_file():
        found.ledger = read_all(root)
    data: dict[str, bytes] = {}
    if names:
        stamps = _stamps(folder, names)
        misses = []
        for name, stamp in stamps.items():
            rel = f"{base}/{name}"
            hit = cache.blob(rel, stamp)
            if hit is None:
                misses.append(name)
            else:
                found.seen[rel] = (month_of(rel), stamp, hit.blob)
        for name, raw in read_files(folder, misses):
            rel = f"{base}/{name}"
            data[rel] = raw
            found.seen[rel] = (month_of(rel), stamps[name], note_digest(raw))
    months = {month for month, _, _ in found.seen.values()}
    for month in sorted(months - found.ledger.months.keys()):
        stamp = _stamp(root / FOLDER / month)
        if not cache.month(month, stamp):
            found.stamps[month] = stamp
            found.ledger.read([month])
    for rel in data:  # a changed note: its entries' marks are needed
        _read_month(found, rel)
    days = {}
    for rel in sorted(found.seen):
        if found.settled(rel):
            continue
        _read_month(found, rel)
        days[rel] = date.fromisoformat(rel[len(base) + 1 :][:10])
    unread = [rel[len(base) + 1 :] for rel in days if rel not in data]
    for name, raw in read_files(folder, unread):
        data[f"{base}/{name}"] = raw
    from .notes import parse_note

    for rel, day in days.items():
        raw = data[rel]
        try:
            text = decode_text(raw, folder / rel[len(base) + 1 :])
        except ParseError as exc:
            found.problems.append(Problem("parse", rel, exc.line, exc.message))
            continue
        note = replace(parse_note(rel, day, text), digest=note_digest(raw))
        found.notes.append(note)
        found.problems.extend(note.problems)
    return found


def _read_month(found: Scan, rel: str) -> None:
    month = found.seen[rel][0]
    if month not in found.ledger.months:
        found.stamps[month] = _stamp(found.ledger.root / FOLDER / month)
        found.ledger.read([month])


def _stamps(folder: Path, names: list[str]) -> dict[str, Stamp]:
    """Each note's stamp; a note gone since it was listed is left out."""
    out: dict[str, Stamp] = {}
    fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
    try:
        for name in names:
            try:
                out[name] = stamp_of(os.stat(name, dir_fd=fd))
            except FileNotFoundError:
                continue
    finally:
        os.close(fd)
    return out


def _stamp(path: Path) -> Stamp | None:
    try:
        return stamp_of(os.stat(path))
    except FileNotFoundError:
        return None
