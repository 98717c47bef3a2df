"""A big daily note read in parts: from its start, or from where the last read stopped.

The recall index reads a note of ``BIG`` bytes or more this way
(``gardener.recall.search``), so its memory follows a part (``PART`` bytes
of lines), not the note, and a note that only grew costs what was appended.
Each part is parsed with ``dailynote.parse_body`` from the last top-level
item of the part before (``dailynote.Resume``, the point ``notetail``
resumes a pass at): the entries above that item are final, the item itself
is read again with the next part. The read ends with a ``Point``: the
length and digest of the bytes read and the last resume point, from which a
later read goes on if the note still starts with those bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
from collections.abc import Generator
from dataclasses import dataclass
from datetime import date
from typing import BinaryIO

from gardener.formats import dailynote
from gardener.formats.blocks import opens_front, split_front_matter
from gardener.formats.dailynote import parse_body
from gardener.model.facts import Entry

BIG = 1 << 18  # a note this long is read in parts; a shorter one parses whole in ms
PART = 1 << 20  # bytes of lines parsed at once
_BLOCK = 1 << 20  # bytes read at once while checking a prefix
_BOM = b"\xef\xbb\xbf"
_OPEN = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


class NotParts(Exception):
    """The note cannot be read in parts (its front matter is not closed in
    its first part, or it is not UTF-8): read it whole."""


@dataclass(frozen=True)
class Point:
    """Where a read of a note stopped. ``size``: bytes read; ``digest``: their
    sha1 (hex); ``index``, ``headings``: the ``Resume`` point (0-based line
    of the text without its BOM); ``offset``: that line's byte offset;
    ``front``: the note's front matter (strings, lists and mappings)."""

    size: int
    digest: str
    index: int
    offset: int
    headings: dict[int, str]
    front: dict[str, object]

    def dumps(self) -> str:
        """The point as JSON text (``loads`` reads it back)."""
        return json.dumps(
            [self.size, self.digest, self.index, self.offset,
             sorted(self.headings.items()), self.front],
            ensure_ascii=False,
        )  # fmt: skip

    @staticmethod
    def loads(text: str | None) -> Point | None:
        """A point from ``dumps``' text; None for None or text that does not read."""
        if not text:
            return None
        try:
            size, digest, index, offset, headings, front = json.loads(text)
            point = Point(int(size), str(digest), int(index), int(offset),
                          {int(k): str(v) for k, v in headings}, dict(front))  # fmt: skip
        except (ValueError, TypeError):
            return None
        return point


@dataclass
class Reading:
    """A note being read in parts (``start``): ``resumed`` says it goes on
    from the ``Point`` given (the entries it yields are those from that
    point's line on), else it reads from the start. ``parts`` yields lists
    of entries in note order and returns the ``Point`` at its end; it
    raises ``NotParts`` (see there) and closes the file when done."""

    resumed: bool
    parts: Generator[list[Entry], None, Point]


def start(rel: str, day: date, where: str, known: Point | None) -> Reading:
    """Open the note at ``where`` (workspace-relative ``rel``, dated ``day``)
    for a read in parts, from ``known`` when the note starts with the bytes
    it was made from. Raises OSError (FileNotFoundError for a note gone),
    and ValueError for a path that is not a plain file."""
    fd = os.open(where, _OPEN)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"not a plain file: {where}")
        handle = io.FileIO(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise
    digest = hashlib.sha1()
    kept = _prefix(handle, known, digest) if known is not None else None
    if kept is None:
        handle.seek(0)
        digest = hashlib.sha1()
        return Reading(False, _parts(rel, day, handle, digest, None, b""))
    return Reading(True, _parts(rel, day, handle, digest, known, kept))


def start_bytes(rel: str, day: date, raw: bytes) -> Generator[list[Entry], None, Point]:
    """The parts (see ``Reading``) of a note already read into ``raw``."""
    return _parts(rel, day, io.BytesIO(raw), hashlib.sha1(), None, b"")


def _prefix(handle: BinaryIO, known: Point, digest: hashlib._Hash) -> bytes | None:
    """Read ``known.size`` bytes into ``digest``: the bytes from ``known.offset``
    on if their digest is ``known.digest``, else None (the note was edited
    above its end, or is shorter)."""
    kept = bytearray()
    done = 0
    while done < known.size:
        block = handle.read(min(_BLOCK, known.size - done))
        if not block:
            return None
        digest.update(block)
        if done + len(block) > known.offset:
            kept += block[max(0, known.offset - done) :]
        done += len(block)
    return bytes(kept) if digest.hexdigest() == known.digest else None


def _parts(
    rel: str,
    day: date,
    handle: BinaryIO,
    digest: hashlib._Hash,
    known: Point | None,
    buf: bytes,
) -> Generator[list[Entry], None, Point]:
    """The entries of the note read from ``handle`` (at the byte after
    ``buf``), a part at a time; see ``Reading``."""
    with handle:
        size = known.size if known is not None else 0
        data = bytearray(buf)  # the note's bytes from byte ``at`` (line ``line``) on
        eof = False

        def fill(need: int) -> None:
            nonlocal eof, size
            while not eof and len(data) < need:
                block = handle.read(max(PART, need - len(data)))
                if not block:
                    eof = True
                    break
                digest.update(block)
                size += len(block)
                data.extend(block)

        whole_first = True
        if known is not None:
            at, line, front = known.offset, known.index, known.front
            headings = dict(known.headings)
        else:
            fill(PART)
            while (head := _head(data, eof)) is None:
                fill(len(data) * 2)
            at, line, front, whole_first = head
            headings = {}
            del data[:at]
        need = PART
        while True:
            fill(need)
            cut = len(data) if eof else data.rfind(b"\n") + 1
            if cut == 0 and not eof:  # no whole line yet: read on
                need = len(data) * 2
                continue
            chunk = bytes(data[:cut])
            try:
                lines = chunk.decode("utf-8").split("\n")
            except UnicodeDecodeError:
                raise NotParts("not UTF-8") from None
            entries, resume = parse_body(
                rel, day, front, lines, line, headings, base=line
            )
            done = resume.index - line  # lines whose entries are final
            if eof:
                yield entries
                return Point(size, digest.hexdigest() if whole_first else "", resume.index,
                             at + _skip(chunk, done), dict(resume.headings),
                             dict(front))  # fmt: skip
            yield [e for e in entries if e.line <= resume.index]
            if done == 0:  # one item longer than a part: read more of it at once
                need = len(data) * 2
                continue
            skip = _skip(chunk, done)
            del data[:skip]
            at += skip
            line, headings, need = resume.index, dict(resume.headings), PART


def _skip(chunk: bytes, lines: int) -> int:
    """The byte offset in ``chunk`` of its line ``lines`` (0-based)."""
    return 0 if lines == 0 else line_offset(chunk, lines)


def _head(
    data: bytearray, eof: bool
) -> tuple[int, int, dict[str, object], bool] | None:
    """(byte offset, line) where the note's body starts, its front matter,
    and whether that is final, from its first bytes ``data`` (all of them if
    ``eof``); None if a line or an open front matter goes on past them.
    Not final: the first line, or the front matter's closing one, has no
    newline yet (an append may still open or leave open a front matter): a
    point is then not to be read on from. NotParts for a front matter never
    closed (a closing ``---`` appended would change every line)."""
    cut = len(data) if eof else data.rfind(b"\n") + 1
    if cut == 0 and not eof:
        return None
    try:
        head = bytes(data[:cut]).decode("utf-8")
    except UnicodeDecodeError:
        raise NotParts("not UTF-8") from None
    fence = 0  # the lines a front matter takes, YAML or not, its closing one too
    if opens_front(head):
        yaml_text, fence = split_front_matter(head)
        if yaml_text is None:
            if not eof:
                return None
            raise NotParts("front matter")
    front, skip = dailynote._front(head)
    bom = 3 if data.startswith(_BOM) else 0
    # a closing line that is not YAML's still ends what an append may extend
    final = head.count("\n") >= max(skip, fence, 1)
    return bom + _skip(bytes(data[bom:cut]), skip), skip, dict(front), final


def line_offset(raw: bytes, index: int, start: int = 0, first: int = 0) -> int:
    """The byte offset in ``raw`` of line ``index`` (0-based; a BOM is not a
    line), counting from line ``first``, which starts at byte ``start``."""
    if index == first:
        if start == 0 and raw.startswith(b"\xef\xbb\xbf"):
            return 3
        return start
    # the resume point is near the end: count the newlines back from there
    after = raw.count(b"\n", start) - (index - first)  # newlines from the line on
    at = len(raw)
    for _ in range(after + 1):
        at = raw.rfind(b"\n", start, at)
    return at + 1
