"""The marks of the promote ledger: what names a processed entry or a settled note.

A mark is an entry's ``path<TAB>digest`` (see ``entry_marks``), with a suffix
when it is held for review (``HELD``) or approved (``APPROVED``), or a note's
``path<TAB>settled:<blob id>`` (``settled_mark``). ``gardener.store.ledger``
keeps them on disk; the planners read and add them. Pure.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from gardener.model.facts import Entry, Note
from gardener.model.markset import Growing

HELD = "\theld"  # ledger suffix: held for review, not yet processed
# ledger line ``path<TAB>settled:<blob id>``: every entry of the note as it held
# those bytes is in the ledger, so a pass may leave that text unread
SETTLED = "\tsettled:"
APPROVED = "\tapproved"  # ledger suffix: a person approved a held entry


def fingerprints(note: Note) -> dict[Entry, str]:
    """Each entry's ledger mark: ``path<TAB>digest`` of its first line, ``#n`` for repeats.

    Stable when lines are appended or nested items added under an entry; the
    n-th repeat of the same line in one note (a change back) is its own entry.
    """
    return dict(zip(note.entries, entry_marks(note), strict=True))


def entry_marks(note: Note) -> list[str]:
    """``fingerprints`` as a list, in the order of ``note.entries``."""
    if note.marks is not None:  # worked out by a parse of the note's tail
        return list(note.marks)
    marks: list[str] = []
    count: dict[str, int] = {}
    for entry in note.entries:
        digest = entry_digest(entry.text)
        n = count.get(digest, 0)
        count[digest] = n + 1
        marks.append(f"{note.path}\t{digest}" + (f"#{n}" if n else ""))
    return marks


def entry_digest(text: str) -> str:
    """The 16 hex digits of an entry's text that its mark holds."""
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def note_digest(data: bytes) -> str:
    """A note file's git blob id (40 hex): what ``git hash-object FILE`` prints."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)  # not header + data: a copy of a 50 MB note
    return digest.hexdigest()


def settled_mark(path: str, digest: str) -> str:
    """The ledger line saying the note at ``path`` with blob id ``digest`` is settled."""
    return f"{path}{SETTLED}{digest}"


def review_id(mark: str) -> str:
    """The short id a person types to approve or reject a held entry."""
    return "h" + mark.split("\t")[1][:8]


def pending_id(mark: str) -> str:
    """The id ``gardener review`` shows for a pending entry (``p`` + 8 hex of
    its whole mark, so the same line in two notes has two ids)."""
    return "p" + hashlib.sha1(mark.encode("utf-8", "surrogateescape")).hexdigest()[:8]


def settle(seen: Growing, notes: Sequence[Note], marks: Sequence[list[str]]) -> None:
    """Mark in ``seen`` (the ledger being built) the notes whose entries are all in it.

    A note whose every entry mark is in the ledger has nothing left for a pass to
    do: a later pass may skip its text while its bytes stay the same (the ledger
    line names their blob id). A note with an entry held for review, refused,
    or dated after the horizon is not settled, so it is read again. The settled
    lines of the notes read (``marks[i]`` belongs to ``notes[i]``) are replaced;
    a note without a ``digest`` (parsed from text alone) is never settled.
    """
    read = {n.path for n in notes if n.digest}
    if not read:
        return
    seen.difference_update(
        # a settled line is never of the compact kind: no walk of every mark
        [m for m in seen.odd() if SETTLED in m and m.partition("\t")[0] in read]
    )
    for note, mine in zip(notes, marks, strict=True):
        if note.digest and all(m in seen for m in mine):
            seen.add(settled_mark(note.path, note.digest))
