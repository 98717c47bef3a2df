"""Word tables as data: per-language rows of regex alternatives, made into one
alternation (``alts``) and into the routing words the engine looks for
(``words_of``: ``passes.hits`` matches a rule only where one of them starts).

A row is ``(language, alternatives)`` or ``(language, alternatives, words)``:
the words (space-separated, lowercase) are needed only when an alternative does
not start with a literal (``[şs]ifre``, a look-behind). A label in a new language
is one row, with a case in tests/neverstore/data/refused.tsv
(tests/neverstore/test_tables.py checks that every row has one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Row = tuple[str, ...]  # (language, alternatives) or (language, alternatives, words)


def top(line: str) -> list[str]:
    """The alternatives of a regex at its top level (not inside a group)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        if ch in "([" and line[i - 1 : i] != "\\":
            depth += 1
        elif ch in ")]" and line[i - 1 : i] != "\\":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(line[start:i])
            start = i + 1
    return [*parts, line[start:]]


def cjk(word: str) -> bool:
    """Whether ``word`` holds a CJK or Hangul character (matched without a word
    boundary before it)."""
    return any("\u2e80" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7a3" for c in word)


def alts(table: tuple[Row, ...], east: bool | None = None) -> str:
    """One alternation of every row's alternatives, longest first; only the CJK
    ones (``east=True``) or only the others (``east=False``) if asked."""
    words = {w for row in table for w in top(row[1]) if east is None or cjk(w) == east}
    return "|".join(sorted(words, key=len, reverse=True))


_SPECIAL = re.compile(r"[ \\\[(?*+{.|]")


def head(alternative: str) -> str:
    """The literal start of one alternative, lowercased ("" if none): a last
    character made optional (``passwords?``) is no part of it."""
    cut = _SPECIAL.search(alternative)
    word = alternative if cut is None else alternative[: cut.start()]
    if cut is not None and alternative[cut.start()] in "?*{":
        word = word[:-1]
    return word.lower()


def words_of(table: tuple[Row, ...]) -> str:
    """The routing words of a table: each row's own words, or the literal start
    of each of its alternatives; CJK ones after "|" (``rules.Rule.words``).
    Raises ValueError for a row with an alternative that has no literal start
    and no words of its own."""
    west: set[str] = set()
    east: set[str] = set()
    for row in table:
        if len(row) > 2:
            found = row[2].split()
        else:
            found = [head(w) for w in top(row[1])]
            if not all(found):
                raise ValueError(f"{row[0]} row {row[1]!r}: give its words")
        for w in found:
            (east if cjk(w) else west).add(w)
    return " ".join(sorted(west)) + "".join(f" | {w}" for w in sorted(east))


_Node = dict[str, "_Node"]


def trie(words: Iterable[str]) -> str:
    """A regex for any of ``words``, longest first, shaped as a trie: the engine
    picks a branch by its first character, so a miss costs one comparison."""
    root: _Node = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: _Node) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else f"(?:{'|'.join(alts)})"
        return f"(?:{body})?" if "" in node else body

    return emit(root)
