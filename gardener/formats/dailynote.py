"""Parse daily notes (``memory/YYYY-MM-DD.md``) into entries, and render new ones.

A daily note is the firehose: whatever agents and people wrote. Each top-level
list item is one entry; its nested items belong to it; headings give context.
Parsing never fails on odd text: what can't be read is reported as a Problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from gardener.formats.blocks import FENCE, HEADING, closes, heading_title
from gardener.formats.blocks import split_front_matter as split_front_matter
from gardener.model.facts import Entry, Note
from gardener.model.kinds import KIND_ALIASES, KINDS, canonical_kind

_KIND_WORDS = "|".join([*KINDS, *KIND_ALIASES])
_TOP_ITEM = re.compile(r"^ {0,1}(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
# Outside an entry, an item indented up to three spaces is still top-level.
_FIRST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
_CHECKBOX = re.compile(r"^\[([ xX])\]\s+(.*)$")
_TIME = re.compile(
    r"^(?:\*\*)?([01]?\d|2[0-3]):([0-5]\d)(?:\*\*)?(?:\s*[-–—:]\s*|\s+)(.*)$"
)
_KIND = re.compile(rf"^(?:\*\*)?({_KIND_WORDS})(?:\*\*)?\s*:\s+(.*)$", re.IGNORECASE)
# the ASCII characters a _KIND match can start with ("ſtate" is non-ASCII: it is tried)
_KIND_STARTS = frozenset(
    "*" + "".join(w[0] + w[0].upper() for w in [*KINDS, *KIND_ALIASES])
)
_KEY = re.compile(r"^\*\*([^*]+?)\*\*\s*[:：]\s*(.*)$|^\*\*([^*]+?)[:：]\*\*\s*(.*)$")
_TRAILER = re.compile(r"\((source|by|expires):([^()]*)\)\s*$", re.IGNORECASE)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A line that cannot go on an item's text (CommonMark: it starts a block that
# interrupts a paragraph, or a table row): a list item, a thematic break or
# setext underline, a block quote, HTML, a table row.
_NOT_LAZY = re.compile(
    r"^\s*(?:(?:[-*+]|\d{1,9}[.)])(?:\s|$)|([-*_])[ \t]*(?:\1[ \t]*){2,}$|=+\s*$|[>|<])"
)


@dataclass
class _Item:
    """A list item being read: its first line and what nests under it."""

    line: int
    text: str
    heading: str | None
    headings: tuple[str, ...] = ()  # outermost first
    nested: list[str] = field(default_factory=list)
    more: list[str] = field(default_factory=list)  # its text's wrapped lines, stripped
    open: bool = True  # its text may go on: no blank or nested line since


def load_front_matter(yaml_text: str) -> Mapping[str, object] | None:
    """YAML front matter read with BaseLoader (no value changes type); None if not YAML."""
    # not at import: YAML costs ~30 ms, and most notes, and every command that
    # reads the cached settings (a recall that finds a changed note), need none
    import yaml
    from frontmatter.default_handlers import YAMLHandler

    if not yaml_text.strip():
        return {}
    try:
        # libyaml's loader when present: same strings, ~10x faster than pure Python
        loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
        data = YAMLHandler().load(yaml_text, Loader=loader)
    except yaml.YAMLError:
        return None
    if data is None:  # only comments: an empty mapping, not a body
        return {}
    return data if isinstance(data, dict) else None


def parse_note(path: str, day: date, text: str) -> Note:
    """Parse one daily note's text into entries.

    Args:
        path: workspace-relative posix path, for entries and problems.
        day: the note's date (from its file name).
        text: the decoded file, BOM and CRLF allowed.
    Returns a Note; a front matter block that is not YAML is reported, and the
    file is then read as if it had none (a body may start with a ``---`` rule).
    """
    keep = _KEEPING[0] and len(text) <= _MEMO_CHARS
    key = (path, day, text)
    held = _PARSED.get(key) if keep else None
    if held is not None:
        return held
    front, skip = _front(text)
    lines = (text[1:] if text.startswith("\ufeff") else text).split("\n")
    entries = parse_body(path, day, front, lines, skip, {})[0]
    note = Note(path=path, day=day, front=front, entries=tuple(entries))
    if keep:
        if len(_PARSED) >= _MEMO_NOTES or _HELD[0] + len(text) > _MEMO_TOTAL:
            _PARSED.clear()
            _HELD[0] = 0
        _PARSED[key] = note
        _HELD[0] += len(text)
    return note


# the last notes parsed, by path, day and text, inside a ``Keeping`` block:
# ``record`` parses the notes it commits (for their untimed lines' recorded
# times), and the pass's scan then parses the very same texts again (a Note
# is frozen; its front is only read)
_PARSED: dict[tuple[str, date, str], Note] = {}
_MEMO_NOTES = 64
_MEMO_CHARS = 1_000_000  # a bigger note is not kept (notetail resumes those)
_MEMO_TOTAL = 8_000_000  # characters of text held at most
_HELD = [0]
_KEEPING = [0]


class Keeping:
    """``with Keeping():`` ``parse_note`` keeps what it parses (see above)
    until ``forget_parsed`` or the outermost block's end."""

    def __enter__(self) -> None:
        _KEEPING[0] += 1

    def __exit__(self, *exc: object) -> None:
        _KEEPING[0] -= 1
        if not _KEEPING[0]:
            forget_parsed()


def forget_parsed() -> None:
    """Drop the notes ``parse_note`` kept (a pass's memory peak comes later)."""
    _PARSED.clear()
    _HELD[0] = 0


@dataclass(frozen=True)
class Resume:
    """Where a parse may start again once lines are appended (``parse_body``).

    ``index``: 0-based line (of the text without its BOM) of the last
    top-level item whose line ends with a newline, or where the body starts
    if none does; the parser's whole state there is ``headings`` (level ->
    title): no fence is open, and the item before it ends at that line.
    """

    index: int
    headings: dict[int, str]


def parse_body(
    path: str,
    day: date,
    front: Mapping[str, object],
    lines: list[str],
    start: int,
    headings: dict[int, str],
    base: int = 0,
) -> tuple[list[Entry], Resume]:
    """The entries of a note's body lines, and where a later parse may resume.

    ``lines[i]`` is the note's line ``base + i`` (lines split on "\\n", BOM
    off); parsing starts at line ``start`` (>= ``base``) in the state
    ``headings``: from the front matter's end with none, or from a ``Resume``
    an earlier parse gave. A parse resumed there gives the entries a whole
    parse gives from that line on, whatever was appended after the lines it
    read (the line at ``Resume.index`` is complete, so it reads the same).
    """
    agent = front.get("agent") or front.get("by")
    agent = agent if isinstance(agent, str) and agent.strip() else None
    zone = front.get("timezone")
    zone = zone.strip() if isinstance(zone, str) and zone.strip() else None
    entries: list[Entry] = []
    fence: str | None = None
    current: _Item | None = None
    resume = Resume(start, headings)
    complete = base + len(lines) - 1  # lines before it end with a newline

    def flush() -> None:
        nonlocal current
        if current is not None:
            entries.append(_entry(path, day, agent, zone, current))
            current = None

    for index in range(start, base + len(lines)):
        raw = lines[index - base].rstrip("\r")
        # fences and headings start with one of these after at most 3 spaces
        lead = raw.lstrip()[:1]
        fm = FENCE.match(raw) if lead in ("`", "~") else None
        if fence is not None:
            if fm and closes(fence, raw):
                fence = None
            if current is not None:
                current.nested.append(raw)
            continue
        if fm:
            fence = fm.group(1)
            if current is not None and raw[:1] in (" ", "\t"):
                current.nested.append(raw)
                current.open = False
            else:
                flush()
            continue
        hm = HEADING.match(raw) if lead == "#" else None
        if hm:
            flush()
            level = len(hm.group(1))
            # a new dict each time: a Resume may hold the one before
            headings = {lv: t for lv, t in headings.items() if lv < level}
            headings[level] = heading_title(hm.group(2))
            continue
        if (
            current is not None
            and current.open
            and raw.strip()
            and not _NOT_LAZY.match(raw)
        ):
            # a hard-wrapped item: its paragraph goes on (CommonMark's lazy
            # continuation), indented or not
            current.more.append(raw.strip())
            continue
        im = (_TOP_ITEM if current is not None else _FIRST_ITEM).match(raw)
        if im:
            flush()
            if index < complete:  # the whole state here: headings (no fence, no item)
                resume = Resume(index, headings)
            deepest = headings[max(headings)] if headings else None
            path_ = tuple(headings[lv] for lv in sorted(headings))
            current = _Item(index + 1, im.group(1).strip(), deepest, path_)
            continue
        if current is not None and raw.strip() and raw[:1] in (" ", "\t"):
            current.nested.append(raw)
            current.open = False
            continue
        if current is not None and not raw.strip():
            current.open = False
            continue  # a blank line inside a list: nested items may follow
        flush()
    flush()
    return entries, resume


def note_front(text: str) -> Mapping[str, object]:
    """The front matter ``parse_note`` reads from a note's text (strings
    only), without parsing its entries; ``{}`` for none or one not YAML."""
    return _front(text)[0]


def _front(text: str) -> tuple[Mapping[str, object], int]:
    """(a note's front matter, the lines it takes); ``({}, 0)`` without one
    or for one that is not YAML."""
    yaml_text, skip = split_front_matter(text)
    if yaml_text is None:
        return {}, skip
    loaded = load_front_matter(yaml_text)
    return ({}, 0) if loaded is None else (loaded, skip)


def _entry(
    path: str,
    day: date,
    agent: str | None,
    zone: str | None,
    item: _Item,
) -> Entry:
    text = " ".join([item.text, *item.more]) if item.more else item.text
    nested = tuple(item.nested)
    heading = item.heading
    rest = text
    checkbox = False
    # each regex only where its first character (or last, for trailers) allows
    cm = _CHECKBOX.match(rest) if rest[:1] == "[" else None
    if cm:
        checkbox, rest = True, cm.group(2)
    time = kind = key = None
    tm = _TIME.match(rest) if rest[:1] == "*" or rest[:1].isdecimal() else None
    if tm:
        time, rest = f"{int(tm.group(1)):02d}:{tm.group(2)}", tm.group(3)
    first = rest[:1]
    km = None if first.isascii() and first not in _KIND_STARTS else _KIND.match(rest)
    if km:
        kind, rest = canonical_kind(km.group(1)), km.group(2)
    trailers: dict[str, str] = {}
    while rest.rstrip().endswith(")"):
        mm = _TRAILER.search(rest)
        if not mm or mm.group(1).lower() in trailers:
            break
        trailers[mm.group(1).lower()] = mm.group(2).strip()
        rest = rest[: mm.start()]
    keym = _KEY.match(rest) if rest.startswith("**") else None
    if keym:
        key = (keym.group(1) or keym.group(3)).strip()
        rest = keym.group(2) if keym.group(1) else keym.group(4)
    expires = trailers.get("expires")
    if expires is not None and not _DATE.match(expires):
        expires = None
    return Entry(
        path=path,
        line=item.line,
        day=day,
        text=text,
        value=rest.strip(),
        time=time,
        kind=kind,
        key=key or None,
        source=trailers.get("source") or None,
        by=trailers.get("by") or agent,
        expires=expires,
        heading=str(heading) if heading else None,
        headings=tuple(h for h in item.headings if h),
        nested=nested,
        checkbox=checkbox,
        timezone=zone,
    )
