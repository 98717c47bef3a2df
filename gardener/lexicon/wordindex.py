"""Which of many templates a text can match, found without trying each (pure).

A template (a rules.md pattern, a lexicon frame) matches only a text that
contains its literal words, so its regex is tried only then. Asking each
template in turn costs a Python step per template per entry: with a hundred
patterns (one per relation) that loop was most of the keying of a pass.
``WordFilter`` asks each distinct word once per text and goes from the words
found to the templates that need them, in the templates' own order, so the
templates tried, and the first that matches, are the same as before.
"""

from __future__ import annotations

from collections.abc import Sequence


class WordFilter:
    """The items (by position) whose words all occur in a text.

    ``words[i]``: item i's literal words, the likeliest to be missing first;
    None or empty: item i is always a candidate. Words are matched as
    substrings of the text the caller gives (already lowercased).
    """

    __slots__ = ("_always", "_by_first", "_firsts", "_rest")

    def __init__(self, words: Sequence[Sequence[str] | None]) -> None:
        self._always: list[int] = []
        self._by_first: dict[str, list[int]] = {}
        self._rest: list[tuple[str, ...]] = []
        for i, item in enumerate(words):
            self._rest.append(tuple(item[1:]) if item else ())
            if not item:
                self._always.append(i)
            else:
                self._by_first.setdefault(item[0], []).append(i)
        self._firsts = tuple(self._by_first)

    def candidates(self, low: str) -> list[int]:
        """Positions, ascending, of the items whose words are all in ``low``."""
        found = [w for w in self._firsts if w in low]
        if not found:
            return self._always
        out = list(self._always)
        rest = self._rest
        for word in found:
            out += (i for i in self._by_first[word] if all(w in low for w in rest[i]))
        if len(found) > 1 or self._always:
            out.sort()
        return out
