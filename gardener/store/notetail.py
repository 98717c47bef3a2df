"""Big daily notes parsed from where the last pass left them: a pass reads what was appended.

Notes are append-only, so a note that grew holds the bytes the last pass read
and then new ones. For a note of at least ``MIN_BYTES``, a pass keeps a
``Tail``: the length and digest of the bytes it read, where a parse may
resume (``dailynote.Resume``: the last top-level item, whose line is
complete, and the headings there), the digest counts of the entries above
it (for the ``#n`` of a repeated line's mark), and the few entries above it
a later pass still needs: those its month's ledger did not hold, and before
each the timed entry above it (whose time an untimed entry takes; see
``planning.times.valid_times``), and the last timed entry above the
resume point. The next pass, when the note still starts with those bytes
and the month's ledger files hold what the last pass left, parses from the
resume point and plans with those entries and the new ones: a plan equal to
the one over the whole note, as every other entry above is in the ledger.
Anything else (a note edited above its end, a ledger month another verb
rewrote, another version of the parser) is a whole parse.

Kept by ``gardener.store.tailstore`` (never committed, safe to delete).
"""

from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_left, insort
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import date
from pathlib import Path

from gardener.files.read import decode_text
from gardener.formats import dailynote
from gardener.formats.blocks import opens_front
from gardener.formats.dailynote import (
    Resume,
    parse_body,
    parse_note,
    split_front_matter,
)
from gardener.model import marks as marks_module
from gardener.model.facts import Entry, Note
from gardener.model.marks import (
    APPROVED,
    HELD,
    entry_digest,
    note_digest,
    settled_mark,
)
from gardener.store import noteparts
from gardener.store.noteparts import NotParts, line_offset

MIN_BYTES = noteparts.BIG  # a smaller note parses in a few ms: whole, no tail kept
_FIELDS = tuple(f.name for f in fields(Entry))
# (stat stamp, sha1 hex) of a month's ledger file, appendix and pending marks
# ("" and "" for one that does not exist; a stamp "" when too new to trust)
LedgerState = tuple[tuple[str, str], ...]
_DAY = _FIELDS.index("day")


@dataclass
class Tail:
    """What a pass keeps of a note so that the next one parses only what follows.

    ``size``: bytes of the note it read; ``prefix``: their git blob id.
    ``index``, ``headings``: the ``Resume`` point; ``offset``: its byte
    offset. ``front``: the note's front matter. ``digests``: the sorted
    unique 64-bit entry digests (``marks.entry_digest``) of the entries
    above ``index``; ``repeats``: digest -> count for those seen twice or
    more. ``kept``: (entry fields, mark) of the entries above ``index`` the
    next pass needs (see the module's docstring), in note order.
    ``rest``: the marks of this note the month's ledger held but those of
    the entries above ``index`` not kept (all of which it held): what the
    next pass asks the ledger about the note, it answers from these.
    ``ledger``: the month's ledger file, appendix and pending marks as the
    pass left them (``ledger_state``).
    """

    size: int
    prefix: str
    index: int
    offset: int
    headings: dict[int, str]
    front: dict[str, object]
    digests: array[int]  # array("Q")
    repeats: dict[int, int]
    kept: list[tuple[tuple[object, ...], str]]
    rest: frozenset[str]
    ledger: LedgerState


@dataclass
class Read:
    """A note as ``read`` parsed it: the ``note`` to plan with (its ``marks``
    set when only its tail was parsed), and what ``tail`` needs to make the
    next ``Tail``: ``fresh`` is the position in ``note.entries`` of the first
    entry parsed now; ``base`` the tail it resumed from (None: whole parse)."""

    note: Note
    raw_size: int
    prefix: str
    resume: Resume
    offset: int
    fresh: int
    base: Tail | None


def read(
    rel: str,
    day: date,
    raw: bytes,
    where: Path,
    known: Tail | None,
    ledger: LedgerState | None = None,
    checked: bool = False,
    min_bytes: int = MIN_BYTES,
    digest: str | None = None,
    settled: Callable[[str], bool] | None = None,
) -> tuple[Note, Read | None]:
    """Parse the note ``rel`` (its bytes ``raw``, read from ``where``).

    ``known``: the note's last ``Tail``, used if ``usable`` with the digests
    of its month's ledger files now (``ledger``; None: not worked out), or
    if ``checked`` says so already. Returns the note (``digest`` set) and
    what ``tail`` needs, None for a note parsed whole that keeps no tail
    (under ``min_bytes``, or front matter left open). ``digest``: the blob
    id of ``raw`` if known. ``settled``: whether the month's ledger, read
    whole, holds a mark; given, a note with no usable tail is read in parts
    (``noteparts``) and only the entries a tail would keep are held (the
    others are in the ledger), as if it resumed from a tail made of its
    whole. Raises ParseError for a note that is not UTF-8.
    """
    digest = digest or note_digest(raw)
    if len(raw) < min_bytes:
        return _whole(rel, day, decode_text(raw, where), digest), None
    prefix = digest
    if known is not None and (
        checked or (ledger is not None and usable(raw, known, ledger))
    ):
        got = _resumed(rel, day, raw, known, digest, prefix)
        if got is not None:
            return got.note, got
    if settled is not None:  # memory follows a part, not the note
        base = _streamed(rel, day, raw, settled)
        got = _resumed(rel, day, raw, base, digest, prefix) if base else None
        if got is not None:
            return got.note, got
    text = decode_text(raw, where)
    yaml_text, fence = split_front_matter(text)
    if yaml_text is None and opens_front(text):
        # a closing "---" appended would change how every line reads
        return _whole(rel, day, text, digest), None
    front, skip = dailynote._front(text)
    lines = (text[1:] if text.startswith("\ufeff") else text).split("\n")
    if len(lines) <= fence:
        # its closing line has no newline yet: an append may make it another line
        del lines
        return _whole(rel, day, text, digest), None
    del text  # the lines hold it: the note's size once, not twice
    entries, resume = parse_body(rel, day, front, lines, skip, {})
    del lines
    note = Note(rel, day, front, tuple(entries), (), digest)
    offset = line_offset(raw, resume.index)
    return note, Read(note, len(raw), prefix, resume, offset, 0, None)


def _whole(rel: str, day: date, text: str, digest: str) -> Note:
    note = parse_note(rel, day, text)
    return Note(note.path, note.day, note.front, note.entries, note.problems, digest)


def usable(raw: bytes, known: Tail, ledger: LedgerState) -> bool:
    """Whether ``known`` holds for the note's bytes ``raw`` now: they begin
    with those it was made from, and its month's ledger files hold what they
    held then (``ledger``: their ``ledger_state`` now)."""
    if len(raw) < known.size or [h for _, h in ledger] != [h for _, h in known.ledger]:
        return False
    digest = hashlib.sha1(b"blob %d\0" % known.size)
    digest.update(memoryview(raw)[: known.size])
    return digest.hexdigest() == known.prefix


def vouched(known: Tail, note: Note) -> set[str]:
    """The marks the month's ledger holds that a pass over ``note`` (read
    with ``known``) may ask for: of its entries (held, approved or not),
    and its settled line."""
    asked = {settled_mark(note.path, note.digest or "")}
    for mark in note.marks or ():
        asked.update((mark, mark + HELD, mark + APPROVED))
    return asked & known.rest


def _resumed(
    rel: str, day: date, raw: bytes, known: Tail, digest: str, prefix: str
) -> Read | None:
    """The note parsed from ``known``'s resume point; None if its tail is not UTF-8
    (the whole parse then says where)."""
    try:
        text = raw[known.offset :].decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    front = known.front
    new, resume = parse_body(
        rel, day, front, lines, known.index, dict(known.headings), base=known.index
    )
    kept = [_entry(values) for values, _ in known.kept]
    marks = [mark for _, mark in known.kept]
    counts: dict[str, int] = {}
    for entry in new:
        text_digest = entry_digest(entry.text)
        n = counts.get(text_digest)
        if n is None:
            n = _count(known, int(text_digest, 16))
        counts[text_digest] = n + 1
        marks.append(f"{rel}\t{text_digest}" + (f"#{n}" if n else ""))
    note = Note(rel, day, front, (*kept, *new), (), digest, tuple(marks))
    offset = line_offset(raw, resume.index, known.offset, known.index)
    return Read(note, len(raw), prefix, resume, offset, len(kept), known)


def _streamed(
    rel: str, day: date, raw: bytes, settled: Callable[[str], bool]
) -> Tail | None:
    """A ``Tail`` of the whole note ``raw`` read in parts, with the entries
    above its last resume point ``tail`` would keep given the marks the
    ledger holds (``settled``); None if it cannot be read in parts."""
    parts = noteparts.start_bytes(rel, day, raw)
    counts: dict[int, int] = {}
    kept: dict[int, tuple[Entry, str]] = {}
    timed: tuple[Entry, str] | None = None

    def take(entries: list[Entry]) -> None:
        nonlocal timed
        for entry in entries:
            text_digest = entry_digest(entry.text)
            value = int(text_digest, 16)
            n = counts.get(value, 0)
            counts[value] = n + 1
            mark = f"{rel}\t{text_digest}" + (f"#{n}" if n else "")
            if not settled(mark):
                if entry.time is None and timed is not None:
                    kept[timed[0].line] = timed
                kept[entry.line] = (entry, mark)
            if entry.time is not None:
                timed = (entry, mark)

    last: list[Entry] = []
    try:
        while True:
            try:
                part = next(parts)
            except StopIteration as stop:
                point = stop.value
                break
            take(last)  # a part is taken once the next shows it was not the last
            last = part
    except NotParts:
        return None
    if not point.digest:  # its head may still change (``noteparts``): not a tail
        return None
    take([e for e in last if e.line <= point.index])  # the rest is read again
    if timed is not None:
        kept[timed[0].line] = timed
    digests = array("Q", sorted(counts))
    repeats = {value: n for value, n in counts.items() if n > 1}
    rows = [(_values(e), m) for _, (e, m) in sorted(kept.items())]
    return Tail(
        len(raw), "", point.index, point.offset, dict(point.headings),
        dict(point.front), digests, repeats, rows, frozenset(), (),
    )  # fmt: skip


def _count(known: Tail, value: int) -> int:
    """How many entries above ``known``'s resume point have the digest ``value``."""
    at = bisect_left(known.digests, value)
    if at == len(known.digests) or known.digests[at] != value:
        return 0
    return known.repeats.get(value, 1)


def _entry(values: tuple[object, ...]) -> Entry:
    data = dict(zip(_FIELDS, values, strict=True))
    data["day"] = date.fromisoformat(str(data["day"]))
    return Entry(**data)  # type: ignore[arg-type]


def tail(
    got: Read,
    held: set[str],
    carried: frozenset[str],
    ledger: LedgerState,
) -> Tail:
    """The ``Tail`` to keep after a pass over ``got``: ``held`` holds the
    marks of this note the month's ledger holds, as the pass left it (the
    files' ``ledger_state``), of all of them when the month was read
    whole, else of those it read; ``carried``: the rest of the tail it
    resumed from, the month not read whole (else empty)."""
    note, base = got.note, got.base
    marks = marks_module.entry_marks(note)
    digests = array("Q", base.digests) if base is not None else array("Q")
    repeats = dict(base.repeats) if base is not None else {}
    above = [
        (e, m) for e, m in zip(note.entries, marks, strict=True)
        if e.line <= got.resume.index
    ]  # fmt: skip
    added = [int(m.partition("\t")[2][:16], 16) for _, m in above[got.fresh :]]
    _add(digests, repeats, added)
    kept: dict[int, tuple[Entry, str]] = {}
    timed: tuple[Entry, str] | None = None
    rest = set(held) | carried
    for entry, mark in above:
        if mark not in rest:
            if entry.time is None and timed is not None:
                kept[timed[0].line] = timed
            kept[entry.line] = (entry, mark)
        if entry.time is not None:
            timed = (entry, mark)
    if timed is not None:  # the time an untimed entry below the resume point takes
        kept[timed[0].line] = timed
    keep = {m for _, m in kept.values()}
    rest.difference_update(m for _, m in above if m not in keep)
    if base is not None:  # and the marks of those above the base it did not keep
        rest = {m for m in rest if m in keep or not _marks_above(base, note.path, m)}
    rows = [(_values(e), m) for _, (e, m) in sorted(kept.items())]
    front = dict(note.front)
    return Tail(
        got.raw_size, got.prefix, got.resume.index, got.offset,
        dict(got.resume.headings), front, digests, repeats, rows,
        frozenset(rest), ledger,
    )  # fmt: skip


def _marks_above(known: Tail, path: str, mark: str) -> bool:
    """Whether ``mark`` is the mark of an entry above ``known``'s resume point
    (``path<TAB>digest`` and ``#n`` under that digest's count there)."""
    head, tab, tail = mark.partition("\t")
    if head != path or not tab or len(tail) < 16 or tail[16:17] not in ("", "#"):
        return False
    try:
        value = int(tail[:16], 16)
        n = int(tail[17:]) if tail[16:] else 0
    except ValueError:
        return False
    return n < _count(known, value)


def _add(digests: array[int], repeats: dict[int, int], added: list[int]) -> None:
    """Count ``added`` into the sorted unique ``digests`` and ``repeats``."""
    fresh: set[int] = set()
    for value in added:
        at = bisect_left(digests, value)
        if value in fresh or (at < len(digests) and digests[at] == value):
            repeats[value] = repeats.get(value, 1) + 1
        else:
            fresh.add(value)
    if len(fresh) < 64:
        for value in fresh:
            insort(digests, value)
    else:
        merged = sorted([*digests, *fresh])
        digests[:] = array("Q", merged)


def _values(entry: Entry) -> tuple[object, ...]:
    values = [getattr(entry, name) for name in _FIELDS]
    values[_DAY] = entry.day.isoformat()
    return tuple(values)
