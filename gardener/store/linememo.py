"""MEMORY.md's lines as a pass last parsed them, so the next parses and renders only new ones.

A year of facts is a thousand lines; a pass usually changes a handful. The memo
maps a block line's text to what ``parse_fact`` makes of it and whether
``render_fact`` writes that fact back as that very line. It lives in
``.git/gardener/memory-lines``: never committed, safe to delete, only a
shortcut to the same answers (a line it does not hold is parsed, a fact it
does not hold is rendered).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from contextlib import suppress
from functools import cache
from pathlib import Path

from gardener.formats.memoryfile import parse_fact, render_fact
from gardener.model import facts
from gardener.model.facts import Fact, know_keys, normalize_key

FILE = "memory-lines"
# marshal's format is the interpreter's; the tuple layout is ours
_VERSION = ("gardener memory lines", 2, sys.version_info[:2])

# value, key, id, attributes, struck, canonical (render_fact gives the line
# back), the key's ``normalize_key`` (None without a key)
Parsed = tuple[str, str | None, str | None, dict[str, str], bool, bool, str | None]


class LineMemo:
    """Parsed block lines by their text; see the module's docstring.

    ``parse`` and ``render`` stand in for ``parse_fact`` and ``render_fact``;
    ``seen`` holds the lines the last parse met, which is what ``save`` keeps.
    """

    def __init__(self, known: dict[str, Parsed] | None = None) -> None:
        self.known: dict[str, Parsed] = known or {}
        self.loaded = frozenset(self.known)  # the lines it was made with
        self.seen: dict[str, Parsed] = {}
        # id() of a fact ``parse`` made from a canonical line -> (the fact, its
        # line); the fact is held so that its id is not reused
        self._lines: dict[int, tuple[Fact, str]] = {}

    def parse(self, content: str, section: str, lineno: int) -> Fact | None:
        """``parse_fact(content, section, lineno)``."""
        hit = self.known.get(content)
        if hit is None:
            fact = parse_fact(content, section, lineno)
            if fact is None:
                return None
            hit = (
                fact.value, fact.key, fact.id, dict(fact.attrs), fact.struck,
                render_fact(fact) == content,
                normalize_key(fact.key) if fact.key else None,
            )  # fmt: skip
            self.known[content] = hit
        else:
            value, key, ident, attrs, struck, _, _ = hit
            fact = Fact(value, key, ident, section, dict(attrs), struck, lineno)
        self.seen[content] = hit
        if hit[5]:
            self._lines[id(fact)] = (fact, content)
        return fact

    def render(self, fact: Fact) -> str:
        """``render_fact(fact)``: for a fact ``parse`` made (facts are frozen),
        the line it was made from."""
        hit = self._lines.get(id(fact))
        return hit[1] if hit is not None and hit[0] is fact else render_fact(fact)


def load(git_dir: Path | None) -> LineMemo:
    """The memo in ``git_dir/gardener/``; an empty one if missing or unreadable.

    Its keys' normal forms are made known (``facts.know_keys``): each pass
    compares every key of MEMORY.md, and a fresh process would work each out.
    """
    if git_dir is None:
        return LineMemo()
    try:
        data = marshal.loads((git_dir / "gardener" / FILE).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return LineMemo()
    if not isinstance(data, tuple) or len(data) != 3 or data[0] != _VERSION:
        return LineMemo()
    known = data[1]
    if not isinstance(known, dict) or not all(
        isinstance(v, tuple) and len(v) == 7 for v in known.values()
    ):
        return LineMemo()
    if data[2] == _normal_code():  # the normal forms of the code running now
        know_keys({v[1]: v[6] for v in known.values() if v[1] is not None})
    return LineMemo(known)


@cache
def _normal_code() -> str:
    """A digest of the source that gives keys their normal form
    (``gardener/model/facts.py``), so that a memo saved by another version of
    it makes none known; "" if it cannot be read (a memo then makes none known)."""
    try:
        return hashlib.sha1(Path(facts.__file__).read_bytes()).hexdigest()
    except (OSError, TypeError):
        return ""


def save(git_dir: Path | None, memo: LineMemo) -> None:
    """Keep the lines the memo's parses met (a failure to write is ignored).

    Nothing is written when they are the lines it was loaded with.
    """
    if git_dir is None or memo.seen.keys() == memo.loaded:
        return
    folder = git_dir / "gardener"
    temp = folder / f"{FILE}.new"
    with suppress(OSError):
        folder.mkdir(exist_ok=True)
        temp.unlink(missing_ok=True)
        # owner-only, as the recall index: it holds MEMORY.md's text
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(marshal.dumps((_VERSION, memo.seen, _normal_code() or "-")))
        os.replace(temp, folder / FILE)
