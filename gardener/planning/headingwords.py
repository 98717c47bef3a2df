"""The kind a heading gives the entries under it, by rules.md's ``headings``.

``gardener note`` asks it whether the note it appends would sit under such a
heading (docs/design.md, Note), so it must read headings as promotion does
(``gardener.planning.classify``): a heading word is a whole word of the
casefolded heading, or ends one when it is marked ``*`` (a compound). It is on the note's path: no typing or dataclasses
(docs/internals.md, Hot path).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # mypy reads this as typing's
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


def heading_kind(
    heading: str | None, rules: Iterable[tuple[str, Sequence[str]]]
) -> str | None:
    """The kind of the first ``(kind, words)`` of ``rules`` (rules.md's
    ``headings``, in order) with a word in ``heading``; None if none has."""
    if not heading:
        return None
    low = heading.casefold()
    for kind, words in rules:
        # a plain substring test first: most headings hold no word at all
        found = [w.casefold() for w in words if w.casefold().lstrip("*") in low]
        if found and _words(tuple(found)).search(low):
            return kind
    return None


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for casefolded phrases, each as whole words, longest first;
    a phrase marked ``*`` ends a compound word ("*status": "systemstatus")."""
    escaped = sorted(
        (
            rf"\w{{3,}}{re.escape(w[1:])}" if w.startswith("*") else re.escape(w)
            for w in words
            if not _UNSPACED.search(w)
        ),
        key=len,
        reverse=True,
    )
    # Chinese and Japanese words match anywhere, as the lexicon's matcher reads them
    loose = sorted((re.escape(w) for w in words if _UNSPACED.search(w)), key=len)
    parts = [*reversed(loose)]
    if escaped:
        parts.append(rf"(?<!\w)(?:{'|'.join(escaped)})(?!\w)")
    return re.compile("|".join(parts))


# Han, kana, Hangul (as ``gardener.lexicon.match``, not imported on note's path)
_UNSPACED = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
