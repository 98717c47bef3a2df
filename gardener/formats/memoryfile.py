"""Parse and render MEMORY.md: the managed block between the gardener's markers.

Only the block is ever rewritten, canonically: one fact a line, sections in a
fixed order, facts sorted stably inside a section, attributes in a fixed order.
Everything outside the block is kept byte for byte, and so is the newline style.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from gardener.errors import ParseError
from gardener.model.facts import (
    ATTRIBUTE_ORDER,
    Fact,
    Memory,
    normalize_key,
    normalize_value,
)
from gardener.model.kinds import SECTION_OF_KIND, SUPERSEDED

BEGIN = "<!-- gardener:begin (managed: edit entries freely, the gardener keeps your changes) -->"
END = "<!-- gardener:end -->"
# a marker starts its line: an indented one is a line under a fact (a note's
# nested item filed with it), never the block's edge
_BEGIN = re.compile(r"^ ?<!--\s*gardener:begin\b.*-->\s*$")
_END = re.compile(r"^ ?<!--\s*gardener:end\b.*-->\s*$")
_SECTION = re.compile(r"^##\s+(.+?)\s*#*\s*$")
_ITEM = re.compile(r"^[-*+]\s+(.*?)\s*$")
_ITEM_MARK = re.compile(
    r"[-*+]\s+"
)  # _ITEM's start; on one line, its group is the rest
_UNESCAPE = re.compile(r"\\(.)")
ATTRS = re.compile(
    r"\s*\{(#[^\s{}\"]+|[\w-]+=(?:\"(?:[^\"\\]|\\.)*\"|[^\s{}\"]+))((?:\s+(?:#[^\s{}\"]+|[\w-]+=(?:\"(?:[^\"\\]|\\.)*\"|[^\s{}\"]+)))*)\s*\}$"
)
# ATTRS from its brace on, matched where a "{" is: a search for ATTRS tries
# every position of a long line
_ATTRS_AT = re.compile(ATTRS.pattern.removeprefix(r"\s*"))
_ATTR = re.compile(
    r"#(?P<id>[^\s{}\"]+)|(?P<name>[\w-]+)=(?:\"(?P<quoted>(?:[^\"\\]|\\.)*)\"|(?P<bare>[^\s{}\"]+))"
)
_KEYED = re.compile(r"^\*\*(?P<key>.+?)\*\*\s*:\s*(?P<value>.*)$")
_SECTION_ORDER = [*SECTION_OF_KIND.values()]
_MANAGED_SECTIONS = frozenset([*_SECTION_ORDER, SUPERSEDED])
NEW_FILE = "# Memory\n\n" + BEGIN + "\n" + END + "\n"


class Memo(Protocol):
    """Block lines parsed and rendered before (``gardener.store.linememo``
    keeps one on disk): the same answers as ``parse_fact`` and
    ``render_fact``, faster."""

    def parse(self, content: str, section: str, lineno: int) -> Fact | None:
        """``parse_fact(content, section, lineno)``."""
        ...

    def render(self, fact: Fact) -> str:
        """``render_fact(fact)``."""
        ...


def parse_attributes(text: str) -> tuple[str | None, dict[str, str]]:
    """``#id name=value name="quoted value"`` -> (id, {name: value})."""
    ident: str | None = None
    attrs: dict[str, str] = {}
    for found, name, quoted, bare in _ATTR.findall(text):
        # findall gives "" for a group that took no part: an id is never empty,
        # a quoted value may be, and then the bare group is "" too
        if found:
            ident = found
        elif bare:
            attrs[name] = bare
        else:
            attrs[name] = _UNESCAPE.sub(r"\1", quoted) if "\\" in quoted else quoted
    return ident, attrs


def _plain_attributes(inner: str) -> tuple[str | None, dict[str, str]] | None:
    """The attributes between a line's last braces when they are plain words
    (``#id name=value``, nothing quoted), else None (``ATTRS`` decides then).

    Same as ``_ATTRS_AT`` then ``parse_attributes``: the gardener writes such
    lines by the thousand, and a few string methods read them faster.
    """
    if not inner or inner[0].isspace():
        return None
    if '"' in inner or "\\" in inner or "{" in inner or "}" in inner:
        return None
    ident: str | None = None
    attrs: dict[str, str] = {}
    for word in inner.split():
        if word[0] == "#":
            if len(word) == 1:
                return None
            ident = word[1:]
            continue
        name, sep, value = word.partition("=")
        if not value or not name:
            return None
        letters = name.replace("-", "").replace("_", "")  # [\w-]+
        if letters and not letters.isalnum():
            return None
        attrs[name] = value
    return ident, attrs


def parse_fact(line: str, section: str, lineno: int = 0) -> Fact | None:
    """One block line -> a Fact, or None if the line is not a list item.

    A line without attributes, without a key or without strike-through is still
    a valid fact: people edit this file by hand.
    """
    if "\n" in line:
        m = _ITEM.match(line)
        if not m:
            return None
        body = m.group(1)
    elif line[:1] in ("-", "*", "+") and line[1:2].isspace():
        body = line[1:].strip()  # what _ITEM's group takes, without its backtracking
    else:
        return None
    ident: str | None = None
    attrs: dict[str, str] = {}
    if body[-1:] == "}":
        # the first "{" that starts ATTRS (what a search for ATTRS finds)
        brace = body.find("{")
        plain = _plain_attributes(body[brace + 1 : -1]) if brace >= 0 else None
        if plain is not None:
            ident, attrs = plain
        else:
            while brace >= 0 and not _ATTRS_AT.match(body, brace):
                brace = body.find("{", brace + 1)
            if brace >= 0:
                ident, attrs = parse_attributes(body[brace:])
        if brace >= 0:
            body = body[:brace].rstrip()
    struck = len(body) >= 4 and body.startswith("~~") and body.endswith("~~")
    if struck:
        body = body[2:-2]
    km = _KEYED.match(body) if body[:2] == "**" else None
    key, value = (
        (km.group("key").strip(), km.group("value").strip())
        if km
        else (None, body.strip())
    )
    return Fact(value, key or None, ident, section, attrs, struck, lineno)


def parse_memory(
    text: str, path: str = "MEMORY.md", memo: Memo | None = None
) -> Memory:
    """Split MEMORY.md text into head, block facts and tail.

    ``memo``: lines parsed before (a ``Memo``), same result, faster.
    Raises ParseError (with the line) for a begin marker without an end marker,
    or a second block: the gardener then refuses to rewrite the file.
    """
    first = text.find("\n")
    newline = "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"
    # split on \n only: splitlines() would also break on \x0c, \u2028 ...
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    begin_at = end_at = None
    for number, raw in enumerate(lines):
        if "gardener:" not in raw:  # what both markers hold
            continue
        content = raw.rstrip("\r\n")
        if _BEGIN.match(content):
            if begin_at is not None:
                raise ParseError(
                    "a second gardener:begin marker; keep one managed block",
                    path,
                    number + 1,
                )
            begin_at = number
        elif _END.match(content) and begin_at is not None and end_at is None:
            end_at = number
    begin = None
    if begin_at is None:
        begin_at = _lost_begin(lines, memo)
        if begin_at is None:
            return Memory(head=text, newline=newline, text=text)
        begin = ""  # the marker was deleted: rendering puts it back (see Memory)
        end_at = (
            begin_at
            + 1
            + next(
                i
                for i, raw in enumerate(lines[begin_at + 1 :])
                if _END.match(raw.rstrip("\r\n"))
            )
        )
    if end_at is None:
        raise ParseError(
            f"gardener:begin has no matching '{END}' line; add it after the managed entries",
            path,
            begin_at + 1,
        )
    facts: list[Fact] = []
    stray: list[tuple[str, str]] = []
    section = "Facts"
    for number in range(begin_at + 1, end_at):
        content = lines[number].rstrip("\r\n")
        if not content.strip():
            continue
        sm = _SECTION.match(content)
        if sm:
            section = sm.group(1)
            continue
        if content[:1] in (" ", "\t") and facts and facts[-1].section == section:
            last = facts[-1]
            facts[-1] = replace(last, tail=(*last.tail, content))
            continue
        fact = (memo.parse if memo else parse_fact)(content, section, number + 1)
        if fact is None:
            stray.append((section, content))
        else:
            facts.append(fact)
    return Memory(
        head="".join(lines[: begin_at + (begin == "")]),
        facts=tuple(facts),
        stray=tuple(stray),
        tail="".join(lines[end_at + 1 :]),
        begin=lines[begin_at].rstrip("\r\n") if begin is None else begin,
        end=lines[end_at].rstrip("\r\n"),
        newline=newline,
        text=text,
    )


def _lost_begin(lines: list[str], memo: Memo | None) -> int | None:
    """For a file whose begin marker was deleted but whose end marker is
    there: the line just before the block's entries (the first of the section
    headings, entries with an id and their indented lines that run up to the
    end marker), where the marker belonged; None without an end marker or
    without such entries. Their lines are kept, not left as dead text beside a
    second block."""
    end_at = next(
        (n for n, raw in enumerate(lines) if _END.match(raw.rstrip("\r\n"))), None
    )
    if end_at is None:
        return None
    start = end_at
    for number in range(end_at - 1, -1, -1):
        content = lines[number].rstrip("\r\n")
        section = _SECTION.match(content)
        if (
            not content.strip()
            or content[:1] in (" ", "\t")
            or (section and section.group(1) in _MANAGED_SECTIONS)
        ):
            start = number
            continue
        fact = (memo.parse if memo else parse_fact)(content, "Facts", number + 1)
        if fact is None or not fact.id:
            break
        start = number
    while start < end_at and not lines[start].strip():
        start += 1  # blank lines before the first entry stay in the head
    if start == end_at:
        return None
    return start - 1  # the (missing) marker's line: the head ends with it


_PLAIN = frozenset(ATTRIBUTE_ORDER)
_NEEDS_QUOTES = re.compile(r"[\s{}\"\\]")


def _quote(value: str) -> str:
    if value and not _NEEDS_QUOTES.search(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_fact(fact: Fact) -> str:
    """A fact as its one canonical line (without newline)."""
    body = f"**{fact.key}**: {fact.value}" if fact.key else fact.value
    if fact.struck:
        body = f"~~{body}~~"
    attrs = fact.attrs
    parts = [f"#{fact.id}"] if fact.id else []
    known = 0
    for name in ATTRIBUTE_ORDER:  # a MEMORY.md has thousands of lines: kept tight
        if name in attrs:
            value = attrs[name]
            bare = value and not _NEEDS_QUOTES.search(value)
            parts.append(f"{name}={value}" if bare else f"{name}={_quote(value)}")
            known += 1
    if known < len(attrs):
        parts += [f"{n}={_quote(v)}" for n, v in attrs.items() if n not in _PLAIN]
    return f"- {body} {{{' '.join(parts)}}}" if parts else f"- {body}"


def sort_key(fact: Fact) -> tuple[str, str, str]:
    """Stable order inside a section: by key (or value), then valid time, then id."""
    label = normalize_key(fact.key) if fact.key else normalize_value(fact.value)
    return (label, fact.since or "", fact.id or "")


def section_order(titles: Iterable[str], stray: Iterable[tuple[str, str]]) -> list[str]:
    """Known sections first in their fixed order, then others as found, Superseded last.

    ``titles``: the facts' sections in the order found (repeats allowed).
    """
    seen = list(dict.fromkeys([*titles, *(s for s, _ in stray)]))
    known = {t.casefold() for t in [*_SECTION_ORDER, SUPERSEDED]}
    ordered = [t for t in _SECTION_ORDER if t in seen]
    ordered += [t for t in seen if t.casefold() not in known]
    ordered += [t for t in seen if t.casefold() == SUPERSEDED.casefold()]
    return ordered


def render_block(
    facts: Iterable[Fact],
    stray: Iterable[tuple[str, str]] = (),
    newline: str = "\n",
    memo: Memo | None = None,
) -> list[str]:
    """The lines between the markers (without newlines), canonical.

    ``memo``: lines rendered before (a ``Memo``), same result, faster.
    """
    render = memo.render if memo else render_fact
    facts = list(facts)
    stray = list(stray)
    by_section: dict[str, list[Fact]] = {}
    for fact in facts:
        by_section.setdefault(fact.section, []).append(fact)
    out: list[str] = []
    for title in section_order(by_section, stray):
        if out:
            out.append("")
        out.append(f"## {title}")
        for fact in sorted(by_section.get(title, ()), key=sort_key):
            out.append(render(fact))
            out.extend(fact.tail)
        out.extend(line for s, line in stray if s == title)
    return out


def render_memory(
    memory: Memory, facts: Iterable[Fact] | None = None, memo: Memo | None = None
) -> str:
    """MEMORY.md text with the block rendered from ``facts`` (default: memory's own).

    A file without a block gets one appended at its end. ``memo``: see
    ``render_block``.
    """
    chosen = memory.facts if facts is None else tuple(facts)
    nl = memory.newline
    block = [
        memory.begin or BEGIN,
        *render_block(chosen, memory.stray, nl, memo),
        memory.end or END,
    ]
    body = nl.join(block) + nl
    if memory.has_block:
        return memory.head + body + memory.tail
    head = memory.head
    if head and not head.endswith("\n"):
        head += nl
    if head.strip():
        head += nl
    return head + body
