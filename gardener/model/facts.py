"""The gardener's values: daily-note entries, MEMORY.md facts, and how keys compare.

Everything here is a frozen dataclass or a pure function; parsing and rendering
live in ``gardener.formats.dailynote`` (daily notes) and
``gardener.formats.memoryfile`` (MEMORY.md); kinds and sections in
``gardener.model.kinds``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from datetime import date
from functools import lru_cache
from typing import TypeVar

from gardener.model.kinds import KIND_OF_SECTION, SUPERSEDED, canonical_kind

_SUPERSEDED_FOLDED = SUPERSEDED.casefold()

# Fact attributes in the order they are rendered; anything else follows, as found.
ATTRIBUTE_ORDER = (
    "since",
    "until",
    "expires",
    "source",
    "from",
    "by",
    "supersedes",
    "superseded-by",
    "ended-by",
    "reason",
    "kind",
)


def normalize_key(key: str) -> str:
    """Compare keys as one: case, spaces, punctuation, Unicode form (NFKC,
    casefold) and a leading article ignored, part by part around ``/``.

    ``Tier 2 renewal/List  Price`` is ``tier 2 renewal / list price``; ``The
    Great Movies ／ author`` (a full-width slash) is ``great movies / author``;
    ``**the database:**`` is ``database``. As values compare, a dot or dash
    between digits is kept (``python 3.12`` is not ``python 312``); ``+``,
    ``#`` and currency signs stay (``c++``, ``c#``); ``_`` is a space.
    """
    known = _KNOWN_KEYS.get(key)
    return known if known is not None else _normal_key(key)


# normal forms worked out by an earlier process (``know_keys``): a pass over a
# MEMORY.md of 17,000 keys would otherwise work each out again (~35 ms)
_KNOWN_KEYS: dict[str, str] = {}
_KNOWN_LIMIT = 200_000  # keys kept at most, as the memo that gives them


def know_keys(pairs: Mapping[str, str]) -> None:
    """Take ``pairs`` (key -> ``normalize_key(key)``, as an earlier process
    computed them) as known, up to ``_KNOWN_LIMIT`` keys in all.

    Only a shortcut: a pair that is not ``normalize_key``'s own answer would
    make keys compare wrongly, so give only what it returned.
    """
    room = _KNOWN_LIMIT - len(_KNOWN_KEYS)
    if room >= len(pairs):
        _KNOWN_KEYS.update(pairs)
    elif room > 0:
        _KNOWN_KEYS.update(list(pairs.items())[:room])


@lru_cache(maxsize=65536)
def _normal_key(key: str) -> str:
    """``normalize_key`` worked out."""
    text = unicodedata.normalize("NFKC", key).casefold()
    if not _PLAIN_KEY.fullmatch(text):
        text = text.translate(_KEY_SLASHES)
        text = _KEY_PUNCT.sub(" ", text)
    if "/" in text:
        return " / ".join(
            _unarticled(" ".join(part.split())) for part in text.split("/")
        )
    return _unarticled(" ".join(text.split()))


def _unarticled(part: str) -> str:
    """``part`` without its leading articles (``_KEY_ARTICLE``, which can
    match only where a part starts with one: most keys skip the regex)."""
    return _KEY_ARTICLE.sub("", part) if part.startswith(_ARTICLES) else part


# a key of letters, digits, spaces and slashes needs no punctuation pass (most
# do; "account 12 / list price" cost three times as much with it): the
# slashes NFKC leaves and what _KEY_PUNCT removes are never among them
_PLAIN_KEY = re.compile(r"[^\W_]+(?:[ /]+[^\W_]+)*")
_ARTICLES = ("the ", "a ", "an ")
# slashes NFKC leaves alone (division, fraction, big solidus)
_KEY_SLASHES = str.maketrans({"\u2215": "/", "\u2044": "/", "\u29f8": "/"})
# what is not a word, a space, a slash or a sign that names something (c++, c#,
# $), and a dot or dash that is not between digits; "_" reads as a space
_KEY_PUNCT = re.compile(r"[^\w\s/$€£¥%+#.-]|_|(?<!\d)[.-]|[.-](?!\d)", re.UNICODE)
# only when a word follows: "A / B testing" keeps its "a"
_KEY_ARTICLE = re.compile(r"^(?:(?:the|an?) (?=\S))+")


_PUNCT = re.compile(r"[^\w\s$€£¥%+#.-]|(?<!\d)[.-]|[.-](?!\d)", re.UNICODE)
# _PUNCT for ASCII text: its first alternative as a table (digits stay digits, so
# the look-arounds of the rest see the same), then the rest
_ASCII_PUNCT = {
    code: " " for code in range(128) if not re.fullmatch(r"[\w\s$€£¥%+#.-]", chr(code))
}
_LONE_DOT_DASH = re.compile(r"(?<!\d)[.-]|[.-](?!\d)")


@lru_cache(maxsize=65536)
def normalize_value(value: str) -> str:
    """Compare values ignoring case, space, punctuation and Unicode form (NFKC).

    Digits keep their inner ``.``/``-`` so ``v1.2`` and ``v12`` stay different.
    """
    text = unicodedata.normalize("NFKC", value).casefold()
    text = text.replace("*", "").replace("`", "")
    if text.isascii():  # the same, in two cheaper steps
        text = text.translate(_ASCII_PUNCT)
        if "." in text or "-" in text:
            text = _LONE_DOT_DASH.sub(" ", text)
    else:
        text = _PUNCT.sub(" ", text)
    return " ".join(text.split())


@dataclass(frozen=True)
class Problem:
    """Something wrong in a file, reported by ``check`` and skipped by the passes."""

    # "parse", "conflict", "secret", "budget", "reference", "instruction",
    # "held", "setting", "git" (a lock a killed git command left), "backlog"
    # (entries waiting for the judge too long), "lost" (an entry a merge dropped),
    # "duplicate" (a block repeated in a note), "future" (a fact whose since
    # has not come yet: a clock ran ahead)
    kind: str
    path: str  # workspace-relative posix path
    line: int | None  # 1-based, None when the problem is the whole file
    message: str

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "path": self.path,
            "line": self.line,
            "message": self.message,
        }


_T = TypeVar("_T")


def quick_init(cls: type[_T]) -> type[_T]:
    """Give a frozen dataclass an ``__init__`` that writes the instance dict directly.

    A frozen dataclass's own ``__init__`` sets each field through
    ``object.__setattr__``, about twice as slow, and a promote pass over
    thousands of notes builds a hundred thousand entries and facts (measured in
    docs/internals.md, "Bulk values"). Same signature, defaults and default
    factories; the class stays frozen (an assignment still raises). Put it
    above ``@dataclass(frozen=True)``; used only for ``Entry`` and ``Fact``.
    """
    scope: dict[str, object] = {"MISSING": MISSING}
    params, body = [], [" values = self.__dict__"]
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default is not MISSING:
            scope[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            body.append(f" if {f.name} is MISSING: {f.name} = factory_{f.name}()")
        else:
            params.append(f.name)
        # one key at a time, in field order: instances keep sharing their keys
        body.append(f" values[{f.name!r}] = {f.name}")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[method-assign,assignment]
    return cls


@quick_init
@dataclass(frozen=True)
class Entry:
    """One top-level list item of a daily note, with its nested items."""

    path: str  # workspace-relative posix path of the note
    line: int  # 1-based line of the item's first line
    day: date  # the note's date, from its file name
    text: str  # the item's text after the list marker: its lines joined by a space
    value: str  # text without time, kind, key, source, by and expires
    time: str | None = None  # "HH:MM", local time in the workspace timezone
    kind: str | None = None  # explicit kind (canonical), or None
    key: str | None = None  # explicit **key**, as written
    source: str | None = None
    by: str | None = None  # who wrote it: (by: X), else the note's `agent`
    expires: str | None = None  # "YYYY-MM-DD"
    heading: str | None = None  # the nearest heading above, without '#'
    # every heading above, outermost first (the last one is ``heading``)
    headings: tuple[str, ...] = ()
    nested: tuple[str, ...] = ()  # nested lines, as written (indent kept)
    checkbox: bool = False  # written as a task list item: "- [ ] ..."
    timezone: str | None = None  # the note's own `timezone` front matter, if any


@dataclass(frozen=True)
class Note:
    """A parsed daily note: its front matter (strings only) and entries."""

    path: str
    day: date
    front: Mapping[str, object]  # YAML read with BaseLoader: scalars stay strings
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...] = ()
    # git blob id (40 hex) of the file's bytes as read; None when parsed from text alone
    digest: str | None = None
    # each entry's ledger mark, when worked out already (``marks.entry_marks``):
    # a note parsed from where it last ended holds only some of its entries
    # (see ``gardener.store.notetail``), and their ``#n`` counts the others
    marks: tuple[str, ...] | None = None


@quick_init
@dataclass(frozen=True)
class Fact:
    """One entry line of MEMORY.md's managed block.

    ``attrs`` maps attribute names (``since``, ``until``, ``from`` ...) to strings;
    ``section`` is the heading it sits under. Valid times are local wall-clock
    strings (see ``validtime``).
    """

    value: str
    key: str | None = None
    id: str | None = None
    section: str = "Facts"
    attrs: Mapping[str, str] = field(default_factory=dict)
    struck: bool = False  # rendered as ~~...~~ (superseded entries)
    line: int = 0  # 1-based line in MEMORY.md, 0 for a fact not yet written
    tail: tuple[str, ...] = ()  # indented lines under it, kept as written

    def get(self, name: str) -> str | None:
        return self.attrs.get(name)

    @property
    def since(self) -> str | None:
        return self.attrs.get("since")

    @property
    def until(self) -> str | None:
        return self.attrs.get("until")

    @property
    def kind(self) -> str | None:
        """The kind this fact holds: from its section, or its ``kind`` attribute."""
        return KIND_OF_SECTION.get(self.section.casefold()) or canonical_kind(
            self.attrs.get("kind")
        )

    @property
    def superseded(self) -> bool:
        return self.section.casefold() == _SUPERSEDED_FOLDED

    @property
    def norm_key(self) -> str | None:
        return normalize_key(self.key) if self.key else None

    def with_attrs(self, **changes: str | None) -> Fact:
        """A copy with attributes set (``None`` removes one); ``_`` in names is ``-``."""
        return self.moved(self.section, self.struck, **changes)

    def moved(self, section: str, struck: bool, **changes: str | None) -> Fact:
        """A copy in ``section``, struck or not, with attributes set as ``with_attrs``."""
        attrs = dict(self.attrs)
        for name, value in changes.items():
            name = name.replace("_", "-")
            if value is None:
                attrs.pop(name, None)
            else:
                attrs[name] = value
        # the constructor, not dataclasses.replace: a pass makes tens of thousands
        return Fact(
            self.value, self.key, self.id, section, attrs, struck, self.line, self.tail
        )


@dataclass(frozen=True)
class Memory:
    """MEMORY.md split into the text the gardener never touches and its block.

    ``head`` and ``tail`` are kept byte for byte. Without a managed block,
    ``head`` holds the whole file and ``begin`` is None.
    """

    head: str
    facts: tuple[Fact, ...] = ()
    stray: tuple[tuple[str, str], ...] = ()  # (section, raw line) in the block, kept
    tail: str = ""
    begin: str | None = None  # the begin marker line as written
    end: str | None = None  # the end marker line as written
    newline: str = "\n"
    text: str = ""  # the file as read

    @property
    def has_block(self) -> bool:
        return self.begin is not None
