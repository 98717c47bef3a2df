"""MEMORY.md's curated text: what a person or an agent wrote outside the
managed block (``Memory.head`` and ``Memory.tail``), as recall's units (pure).

The gardener never rewrites that text, but it is memory all the same: an
adopted MEMORY.md may hold years of it. Each list item, paragraph, table row
and fenced block is one unit (and each ``**Key**: value`` line, even
among the lines of a paragraph), found by ``recall`` with the status
``curated`` and its line. The headings above a unit, the header row of its
table and the items it is nested in are its context: searched too, with a
lower weight, never shown. A unit written ``**Key**: value`` (or
``**Key:** value``, either colon ASCII or full-width) has that key, so
``recall --key Key`` answers with it after MEMORY.md's managed values of the
key. Curated text has no valid time: it never answers ``--as-of``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gardener.model.facts import Memory
from gardener.model.hit import Hit
from gardener.model.kinds import KIND_OF_SECTION
from gardener.neverstore.instructions import reads_as_instruction

STATUS = "curated"

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\][ \t]+)?(.*)")
_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_TABLE_RULE = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_QUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")
# **Key**: value, **Key:** value; the colon ASCII or full-width
_KEYED = re.compile(
    r"\*\*(?P<k1>[^*\n]+?)\*\*[ \t]*[:：][ \t]*(?P<v1>.*)"
    r"|\*\*(?P<k2>[^*\n]+?)[ \t]*[:：]\*\*[ \t]*(?P<v2>.*)",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One searchable unit of curated text.

    ``line`` is 1-based in MEMORY.md; ``text`` its lines stripped and joined
    by spaces (a list item's marker and checkbox left out); ``context`` the
    headings above it (outermost first), its table's header row and the
    items it is nested in; ``key``/``value`` from a ``**Key**: value`` form
    (else None and ``text``); ``kind`` what its nearest heading that names a
    MEMORY.md section implies ("Preferences": preference), else None.
    """

    line: int
    text: str
    context: tuple[str, ...]
    key: str | None
    value: str
    kind: str | None


def curated_units(memory: Memory) -> list[Unit]:
    """The units of ``memory``'s head, of the lines in its block that are no
    entry (``Memory.stray``: kept as written, one unit each), then of its
    tail, in file order."""
    units = list(_units(memory.head, 1))
    units += _stray_units(memory)
    if memory.tail:
        start = len(memory.text) - len(memory.tail)
        units += _units(memory.tail, memory.text.count("\n", 0, start) + 1)
    return units


def curated_hits(memory: Memory, memory_file: str) -> list[tuple[Hit, str]]:
    """Each unit of ``memory`` as (its Hit, its context as one string), but for
    those that read like an order to a model (recall answers into a prompt)."""
    out = []
    for unit in curated_units(memory):
        if reads_as_instruction(unit.text):
            continue
        hit = Hit(unit.key, unit.value, unit.text, unit.kind, None, None, STATUS,
                  0.0, memory_file, unit.line)  # fmt: skip
        out.append((hit, " ".join(unit.context)))
    return out


def _stray_units(memory: Memory) -> list[Unit]:
    """A unit for each line of the block that is no entry, at its line, its
    section as its context and its kind."""
    if not memory.stray:
        return []
    lines = memory.text.split("\n")
    at = memory.head.count("\n") + 1  # the first line after the begin marker
    units = []
    for section, raw in memory.stray:
        while at < len(lines) and lines[at].rstrip("\r") != raw:
            at += 1
        if at == len(lines):
            break  # not found as written: no line to point at
        item = _ITEM.match(raw)
        text = (item.group(2) if item else raw).strip()
        key, value = _key_value(text)
        if text:
            units.append(Unit(at + 1, text, (section,), key, value,
                              KIND_OF_SECTION.get(section.casefold())))  # fmt: skip
        at += 1
    return units


def _key_value(text: str) -> tuple[str | None, str]:
    """(key, value) of a ``**Key**: value`` text, else (None, ``text``)."""
    found = _KEYED.fullmatch(text)
    if found:
        name = (found.group("k1") or found.group("k2")).strip()
        said = (found.group("v1") if found.group("k1") else found.group("v2")).strip()
        if name and said:
            return name, said
    return None, text


class _Reader:
    """One pass over curated text: the headings, open items and table header
    it is under, the unit being read, and the units read so far."""

    def __init__(self) -> None:
        self.units: list[Unit] = []
        self.headings: list[tuple[int, str]] = []  # (level, title)
        self.items: list[tuple[int, str]] = []  # open list items: (indent, text)
        self.header: str | None = None  # the header row of the open table
        self.fence: str | None = None  # the open code fence's marker
        self.comment = False  # inside an HTML comment
        self.open: list[str] = []  # the open unit's lines
        self.at = 0  # its first line
        self.kind = ""  # "item", "para", "code" or ""
        self.context: tuple[str, ...] = ()

    def start(self, kind: str, line: int, text: str, context: tuple[str, ...]) -> None:
        self.end()
        self.open, self.at, self.kind, self.context = [text], line, kind, context

    def end(self) -> None:
        """Close the open unit, if any: a unit unless it holds no text."""
        text = " ".join(part for part in self.open if part)
        kind, self.open, self.kind = self.kind, [], ""
        if not kind or not text.strip():
            return
        key, value = _key_value(text)
        implied = None
        for _, title in reversed(self.headings):
            implied = KIND_OF_SECTION.get(title.casefold())
            if implied:
                break
        self.units.append(Unit(self.at, text, self.context, key, value, implied))

    def titles(self) -> tuple[str, ...]:
        return tuple(title for _, title in self.headings)

    def heading(self, level: int, title: str) -> None:
        """A heading at ``level``: it replaces those at its level and below."""
        self.end()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if title:
            self.headings.append((level, title))
        self.items, self.header = [], None

    def code(self, number: int, raw: str) -> None:
        """A line inside a fenced block: the block's lines are one unit."""
        text = raw.strip()
        if text.startswith(self.fence or "") and not text.strip(text[:1]):
            self.fence = None
            self.end()
        elif text:
            if not any(self.open):
                self.at = number  # the block's first line of text
            self.open.append(text)

    def row(self, number: int, text: str, follows: str) -> None:
        """A table row (``text`` stripped; ``follows``: the next line)."""
        self.end()
        if _TABLE_RULE.match(text):
            return
        if "-" in follows and _TABLE_RULE.match(follows.strip()):
            self.header = text  # the header row: context of the rows
            return
        context = self.titles() + ((self.header,) if self.header else ())
        self.start("para", number, text, context)
        self.end()

    def item(self, number: int, indent: int, body: str) -> None:
        """A list item: its parents are the open items indented less."""
        while self.items and self.items[-1][0] >= indent:
            self.items.pop()
        context = self.titles() + tuple(text for _, text in self.items)
        self.items.append((indent, body))
        self.start("item", number, body, context)

    def text(self, number: int, line: str, stripped: str) -> None:
        """A line of text: a key line, a continuation, or a new paragraph."""
        if _KEYED.fullmatch(stripped):  # a key line is a unit, even in a paragraph
            if line[:1] not in (" ", "\t"):
                self.items = []
            self.start(
                "para",
                number,
                stripped,
                self.titles() + tuple(t for _, t in self.items),
            )
        elif self.kind in ("item", "para"):  # a continuation line of the open unit
            self.open.append(stripped)
            if self.kind == "item" and self.items:
                self.items[-1] = (self.items[-1][0], " ".join(self.open))
        else:
            self.items = []
            self.start("para", number, stripped, self.titles())


def _units(text: str, first: int) -> list[Unit]:
    """The units of ``text``, whose first line is line ``first`` of the file."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    r = _Reader()
    for at, raw in enumerate(lines):
        number = first + at
        if r.fence is not None:
            r.code(number, raw)
            continue
        if r.comment:
            r.comment = "-->" not in raw
            continue
        line = raw
        while quote := _QUOTE.match(line):  # a quote's text is text
            line = line[quote.end() :]
        stripped = line.strip()
        if stripped.startswith("<!--"):
            r.end()
            r.comment = "-->" not in stripped
        elif not stripped:
            r.end()
            r.header = None
        elif fenced := _FENCE.match(line):
            r.start("code", number + 1, "", r.titles())
            r.fence = fenced.group(1)
        elif r.kind == "para" and len(r.open) == 1 and _SETEXT.match(line):
            title = r.open[0].strip()  # the paragraph was a heading
            r.open, r.kind = [], ""
            r.heading(1 if "=" in line else 2, title)
        elif heading := _HEADING.match(line):
            r.heading(len(heading.group(1)), (heading.group(2) or "").strip())
        elif _BREAK.match(line):
            r.end()
        elif stripped.startswith("|"):
            r.row(number, stripped, lines[at + 1] if at + 1 < len(lines) else "")
        elif item := _ITEM.match(line):
            r.item(number, len(item.group(1).expandtabs(4)), item.group(2).strip())
        else:
            r.text(number, line, stripped)
    r.end()
    return r.units
