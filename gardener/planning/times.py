"""Valid times of a note's entries, and the recorded times that keep them
where they were written (see docs/design.md, Recorded times). Pure.

An entry without ``HH:MM`` takes the time of the timed entry above it: it
was written after it. That order holds only on the machine that wrote the
line: a ``merge=union`` of one day's note written on two machines puts one
side's lines after the other's, so an untimed line may sit under another
machine's later entry. ``recorded_times`` says, for the lines a commit adds,
the time they take in the file as written; ``valid_times`` prefers that.
Marks are the ledger's (``gardener.model.marks.entry_marks``); times are
valid-time strings (``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``, local).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo

from gardener.model.facts import Entry, Note
from gardener.model.marks import entry_marks
from gardener.model.validtime import entry_since, format_instant, parse_instant

_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}")


def valid_times(
    note: Note,
    zone: tzinfo,
    recorded: Mapping[str, str] | None = None,
    marks: Sequence[str] | None = None,
) -> list[datetime]:
    """Valid time of each entry, in the order of ``note.entries``: its own
    time; else, for an untimed one, the time ``recorded`` holds for its mark
    (a string ``recorded_times`` made; one that does not parse is ignored);
    else the time of the timed entry above it on the same day. ``marks``:
    ``entry_marks(note)`` if the caller has them (computed here if not)."""
    times: list[datetime] = []
    last: datetime | None = None
    recorded = recorded or {}
    if recorded and marks is None:
        marks = entry_marks(note)
    marks = marks if recorded else ()
    for i, e in enumerate(note.entries):
        at = entry_instant(e, zone)
        kept = (
            _instant(recorded.get(marks[i], "")) if marks and e.time is None else None
        )
        if kept is not None and kept.date() == at.date():
            times.append(kept)
            continue
        if e.time is None and last is not None and last.date() == at.date():
            at = last
        elif e.time is not None:
            last = at
        times.append(at)
    return times


def recorded_times(old: Note | None, new: Note, zone: tzinfo) -> dict[str, str]:
    """Mark -> valid time of each untimed entry of ``new`` (a note as it is
    about to be committed) that ``old`` (its committed version; None: a new
    note) lacks: the time it takes in ``new``, as this machine wrote it."""
    have = set(entry_marks(old)) if old is not None else set()
    at = valid_times(new, zone)
    return {
        mark: format_instant(when)
        for e, mark, when in zip(new.entries, entry_marks(new), at, strict=True)
        if e.time is None and mark not in have
    }


def entry_instant(entry: Entry, zone: tzinfo) -> datetime:
    """``parse_instant(entry_since(entry, zone))`` without the round trip through text."""
    day, clock = entry.day, entry.time
    if entry.timezone or (clock is not None and not _CLOCK.fullmatch(clock)):
        return parse_instant(entry_since(entry, zone))  # its own zone, or an odd clock
    if clock is None:
        return datetime(day.year, day.month, day.day)
    return datetime(day.year, day.month, day.day, int(clock[:2]), int(clock[3:]))


def _instant(text: str) -> datetime | None:
    if not text:
        return None
    try:
        return parse_instant(text)
    except ValueError:
        return None
