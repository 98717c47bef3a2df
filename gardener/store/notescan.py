"""Which daily notes a promote pass must read, found without reading the others.

A note is settled when its month's ledger file holds ``path<TAB>settled:<blob id>``
for its bytes (``marks.settle``): a pass has nothing left to do with it. The
stat cache (``statcache``) gives the blob id of a note whose stamp did not
change, and says whether an unchanged month file settled it, so a pass over
years of notes stats each note and each month's ledger file, and reads only
the notes that changed or are not settled, and the months they are in.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from gardener.errors import ParseError
from gardener.files.layout import note_names
from gardener.files.read import read_files
from gardener.model.facts import Note, Problem
from gardener.model.marks import note_digest, settled_mark
from gardener.store import notetail, tailstore
from gardener.store.ledger import FOLDER, LEGACY, Ledger, pending_folder, read_all
from gardener.store.statcache import MISSING, Cache, Clock, begin, load, stamp_of


@dataclass
class Scan:
    """What ``scan`` found: the notes to plan with, and the ledger months read."""

    notes: list[Note]  # the unsettled notes, parsed, each with its ``digest``
    problems: list[Problem]  # notes that could not be read
    ledger: Ledger  # the months read (every month when the legacy file is there)
    # what the cache may keep: note path -> (stamp, blob id, settled "1"/"0")
    # for stamps older than the pass, and month -> stamp of every month seen
    # (None: too new to keep)
    notes_seen: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    months_seen: dict[str, str | None] = field(default_factory=dict)
    # the notes parsed with what their next ``notetail.Tail`` is made from
    tails: dict[str, notetail.Read] = field(default_factory=dict)
    kept_tails: dict[str, notetail.Tail] = field(default_factory=dict)  # as loaded
    vouched: set[str] = field(default_factory=set)  # months read without their file
    # month -> its ledger files' state as the pass found them (notetail)
    ledger_states: dict[str, notetail.LedgerState] = field(default_factory=dict)

    def learned(self, written: set[str]) -> Cache:
        """The cache to save after the pass; ``written``: the months it rewrote.

        A month rewritten (or read from the legacy file) is left out, so its
        notes' settled flags are worked out again from its file next time.
        """
        out = Cache()
        if self.ledger.legacy is None:
            out.months = {
                month: stamp
                for month, stamp in self.months_seen.items()
                if stamp is not None and month not in written
            }
        out.notes = self.notes_seen
        return out


def scan(root: Path, notes_dir: str, git_dir: Path | None) -> Scan:
    """Stat every note and month file; read and parse only the unsettled notes.

    ``notes_dir`` is relative to ``root``; ``git_dir`` holds the cache (None:
    no cache, every note is read). Raises GardenerError if a note cannot be
    read; one that is not UTF-8 is a problem, left out.
    """
    folder = root / notes_dir
    cache = load(git_dir)
    clock = begin(git_dir, folder, root)
    base = folder.relative_to(root).as_posix() + "/"  # of workspace-relative paths
    found = Scan([], [], Ledger(root, pending=pending_folder(git_dir)))
    if (root / LEGACY).is_file():
        found.ledger = read_all(root, git_dir)
    names = note_names(root, notes_dir)
    stamps: dict[str, tuple[str, bool]] = {}  # name -> (stamp, keep it)
    blobs: dict[str, str] = {}  # name -> blob id, from the cache or the bytes
    flags: dict[str, str] = {}  # name -> the cache's settled flag
    if names:
        # one handle on the folder; Windows has none (no dir_fd): a path each
        relative = os.stat in os.supports_dir_fd
        fd = os.open(folder, os.O_RDONLY | os.O_CLOEXEC) if relative else None
        try:
            for name in names:  # years of notes: the loop is kept tight
                try:
                    st = (
                        os.stat(name, dir_fd=fd)
                        if fd is not None
                        else (os.stat(os.path.join(folder, name)))
                    )
                except FileNotFoundError:  # gone since it was listed
                    continue
                stamp = stamp_of(st)
                stamps[name] = (stamp, clock.keeps(st))
                hit = cache.notes.get(base + name)
                if hit is not None and hit[0] == stamp:
                    blobs[name] = hit[1]
                    flags[name] = hit[2]
        finally:
            if fd is not None:
                os.close(fd)
    data: dict[str, bytes] = {}
    for name, raw in read_files(folder, [n for n in stamps if n not in blobs]):
        data[name] = raw
        blobs[name] = note_digest(raw)
    # months whose big notes the tails kept vouch for: read without their files
    tails = found.kept_tails = _tails(git_dir, stamps, blobs, flags)
    vouched = _vouched(found, cache, folder, base, stamps, flags, data, tails)
    found.ledger.read_pending(skip=vouched)  # no stamp of the cache covers them
    for month in sorted({name[:7] for name in stamps}):
        _month(found, clock, cache, month, changed=False, read=month not in vouched)
    for name in data:  # a changed note: its entries' marks are needed
        if name[:7] not in vouched:
            _month(found, clock, cache, name[:7], changed=True)
    todo: list[str] = []
    legacy = found.ledger.legacy
    for name, (stamp, keep) in stamps.items():
        rel = base + name
        month = name[:7]
        if month in vouched:
            known = vouched[month].get(name)
            mark = settled_mark(rel, blobs[name])
            settled = mark in known.rest if known else flags[name] == "1"
        elif legacy is not None or month in found.ledger.months:
            mark = settled_mark(rel, blobs[name])
            settled = mark in found.ledger.months.get(month, ()) or (
                legacy is not None and mark in legacy
            )
        else:
            settled = flags[name] == "1"
        if keep:
            found.notes_seen[rel] = (stamp, blobs[name], "1" if settled else "0")
        if not settled:
            todo.append(name)
            if month not in vouched:
                _month(found, clock, cache, month, changed=True)
    for name, raw in read_files(folder, [n for n in todo if n not in data]):
        data[name] = raw
    held: dict[str, set[str]] = {month: set() for month in vouched}
    for name in todo:
        rel, raw, month = base + name, data[name], name[:7]
        known = vouched.get(month, {}).get(name)
        day = date.fromisoformat(name[:10])  # note_names checked the name
        other = tails.get(rel) if known is None else None
        files = None
        if other is not None and len(raw) >= other.size:
            files = _state(found, month, other)
        try:
            note, got = notetail.read(
                rel, day, raw, folder / name, known or other, files, known is not None,
                digest=blobs[name], settled=_settled(found, month, known),
            )  # fmt: skip
        except ParseError as exc:
            found.problems.append(Problem("parse", rel, exc.line, exc.message))
            continue
        if known is not None:
            held[month] |= notetail.vouched(known, note)
        if got is not None:
            found.tails[rel] = got
        found.notes.append(note)
        found.problems.extend(note.problems)
    for month, marks in sorted(held.items()):
        found.ledger.vouch(month, marks)
    found.vouched = set(vouched)
    return found


def _settled(
    found: Scan, month: str, known: notetail.Tail | None
) -> Callable[[str], bool] | None:
    """Whether the ledger holds a mark, for a note of ``month`` read without
    a tail vouched for (``known``), when the month was read whole; else None."""
    marks = found.ledger.months.get(month)
    if known is not None or marks is None or month in found.ledger.partial:
        return None
    legacy = found.ledger.legacy
    if legacy is None:
        return marks.__contains__
    return lambda mark: mark in marks or mark in legacy


def _tails(
    git_dir: Path | None,
    stamps: dict[str, tuple[str, bool]],
    blobs: dict[str, str],
    flags: dict[str, str],
) -> dict[str, notetail.Tail]:
    """The kept tails (``tailstore.load``) when a note a pass may read is big
    enough to have one; else {} (loading costs what the biggest tail holds)."""
    for name, (stamp, _) in stamps.items():
        if (
            flags.get(name) != "1"
            and int(stamp.partition(":")[0]) >= notetail.MIN_BYTES
        ):
            return tailstore.load(git_dir)
    return {}


def _vouched(
    found: Scan,
    cache: Cache,
    folder: Path,
    base: str,
    stamps: dict[str, tuple[str, bool]],
    flags: dict[str, str],
    data: dict[str, bytes],
    tails: dict[str, notetail.Tail],
) -> dict[str, dict[str, notetail.Tail]]:
    """Months to read without their files, each with its notes' usable tails.

    A month qualifies when each of its notes to be read has a tail that
    holds (``notetail.usable``: the note starts with the bytes it was made
    from, the month's ledger files are as that pass left them) and each other
    note has the cache's settled flag, the month's file its cached stamp.
    The bytes of unchanged unsettled notes with a tail are read into ``data``.
    """
    if not tails or found.ledger.legacy is not None:
        return {}
    by_month: dict[str, list[str]] = {}
    for name in stamps:
        by_month.setdefault(name[:7], []).append(name)
    out: dict[str, dict[str, notetail.Tail]] = {}
    for month, names in sorted(by_month.items()):
        rels = [n for n in names if base + n in tails and flags.get(n) != "1"]
        if not rels:
            continue
        others = [n for n in names if n not in rels]
        if any(n in data or flags.get(n) != "1" for n in others):
            continue  # a note the month's file must say about
        if others and cache.months.get(month) != _stamp(found, month):
            continue  # the file changed since the cache's flags were made
        files = _state(found, month, tails[base + rels[0]])
        for name, raw in read_files(folder, [n for n in rels if n not in data]):
            data[name] = raw
        usable = {
            n: tails[base + n]
            for n in rels
            if notetail.usable(data[n], tails[base + n], files)
        }
        if len(usable) == len(rels):
            out[month] = usable
    return out


def _state(found: Scan, month: str, known: notetail.Tail) -> notetail.LedgerState:
    """``tailstore.ledger_state`` of ``month`` (once a pass), stamps as ``known`` had them."""
    state = found.ledger_states.get(month)
    if state is None:
        state = tailstore.ledger_state(
            found.ledger.root, found.ledger.pending, month, known.ledger
        )
        found.ledger_states[month] = state
    return state


def _stamp(found: Scan, month: str) -> str:
    try:
        return stamp_of(os.stat(found.ledger.root / FOLDER / month))
    except FileNotFoundError:
        return MISSING


def _month(
    found: Scan,
    clock: Clock,
    cache: Cache,
    month: str,
    changed: bool,
    read: bool = True,
) -> None:
    """Stamp ``month``'s ledger file; read it unless the cache vouches for its flags.

    ``changed``: read it anyway (a note of the month is to be read);
    ``read``: False to stamp it only (a month read without its file).
    """
    if month in found.ledger.months:
        return
    if month not in found.months_seen:
        try:
            st = os.stat(found.ledger.root / FOLDER / month)
            found.months_seen[month] = stamp_of(st) if clock.keeps(st) else None
            stamp = stamp_of(st)
        except FileNotFoundError:
            found.months_seen[month] = stamp = MISSING
        if (cache.months.get(month) == stamp and not changed) or not read:
            return
    elif not changed or not read:
        return
    found.ledger.read([month])
