"""What the headings above an entry say: the kind they give it and the
subject they name (pure).

The deepest heading that names a kind decides (``## Log`` / ``### Key
lessons``: a lesson); a heading with a clock time ("## 14:30 — Heartbeat") is
a log section; a heading that is only a date is the note's title and says
nothing. Any other heading names a subject, which scopes label keys
(``## Staging`` / ``- **Host**: box3`` is ``Staging / host``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gardener.lexicon.match import find
from gardener.lexicon.words import Words, lexicon
from gardener.model.config import Config

_CLOCK = re.compile(
    r"(?<!\d)(?:[01]?\d|2[0-3])[:h.][0-5]\d(?!\d)|\b\d{1,2}\s?(?:am|pm)\b", re.I
)
_DATE = re.compile(r"\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|\d{4}年\d{1,2}月\d{1,2}日")
_WEEKDAYS = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|[月火水木金土日]曜日?|星期.|周.",
    re.IGNORECASE,
)
# "Decision: use SQLite" — a heading that is itself a labelled statement
_LABELLED = re.compile(r"^([^:：]{1,40}?)\s*[:：]\s*(\S.*)$")
_MARKUP = re.compile(r"[*_`#~\[\]]|[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F]")


def plain(heading: str) -> str:
    """A heading's text without emphasis, emoji and outer spaces."""
    return " ".join(_MARKUP.sub(" ", heading).split())


# a date written out in a heading: "Feb 12, 2026", "12 March 2026", ISO; with
# what wraps it ("(2026-03-22 afternoon)", " - Feb 12, 2026")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WRITTEN = (
    rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}\.?\s+{_MONTH}\s+\d{{4}}"
    rf"|(?:{_DATE.pattern})(?:[ T]\d{{1,2}}:\d{{2}})?)"
)
_DATED = re.compile(
    rf"\s*(?:[(\[（]\s*{_WRITTEN}[^)\]）]*[)\]）]|(?:[-–—:|,/]\s*)?\b{_WRITTEN})\s*",
    re.IGNORECASE,
)


def undated(text: str) -> str:
    """A subject heading without the date it was written on: "Token launch -
    Feb 12, 2026" is the token launch (the date is when, the note's own)."""
    if not re.search(r"\d", text):
        return text
    rest = _DATED.sub(" ", text).strip(" -–—:|,/")
    return " ".join(rest.split()) or text


def only_date(text: str) -> bool:
    """Whether ``text`` is a date (with a weekday at most): a note's title."""
    rest = _WEEKDAYS.sub(" ", _DATE.sub(" ", text))
    return bool(_DATE.search(text)) and not re.sub(r"[\W\d_]+", "", rest)


def _kind_of(
    text: str, extra: Mapping[str, tuple[str, ...]], words: Words
) -> str | None:
    """The kind of the heading word that comes first in ``text``, rules.md's
    (``extra``) or the lexicon's ("Key lessons (now in the skill)" is a
    lesson, though rules.md lists "now"); rules.md's wins a tie."""
    low = text.casefold()
    best: tuple[int, str] | None = None
    for table in (extra, words.headings):
        for kind, phrases in table.items():
            m = find(low, phrases, words.exclusions, plural=True)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), kind)
    return best[1] if best else _compound_kind(low, words)


_WORD = re.compile(r"\w+")


def _compound_kind(low: str, words: Words) -> str | None:
    """The kind of the first word of ``low`` that ends in one of the
    lexicon's ``compound_heads`` after a part of its own ("systemstatus")."""
    if not words.compound_heads:
        return None
    for m in _WORD.finditer(low):
        word = m.group(0)
        for kind, heads in words.compound_heads.items():
            if any(len(word) > len(h) + 2 and word.endswith(h) for h in heads):
                return kind
    return None


def heading_kind(
    heading: str, extra: Mapping[str, tuple[str, ...]], words: Words
) -> str | None:
    """The kind one heading gives its entries, or None (a subject or a title).

    ``extra``: rules.md's ``headings``, tried before the lexicon's.
    """
    text = plain(heading)
    if not text or only_date(text):
        return None
    lm = _LABELLED.match(text)
    if lm:
        label = lm.group(1).casefold()
        for kind, labels in words.kind_labels.items():
            if label in labels or label.rstrip("s") in labels:
                return kind
    named = _kind_of(text, extra, words)
    if named:
        return named
    if _CLOCK.search(text) or _DATE.search(text):
        # a dated or timed section of a log; a time alone ("## 10:30", the
        # heading ``gardener note`` writes) is a title, like a date alone
        rest = _CLOCK.sub(" ", _DATE.sub(" ", text))
        if re.sub(r"[\W\d_]+", "", re.sub(r"(?i)\b(?:utc|gmt)\b", "", rest)):
            return "event"
    return None


# what ends a section's name: "Lofi Video 2 — Animation progress", "Alpha: status"
_NAME_END = re.compile(r"\s+[-–—|]\s+|\s*[:：]\s+|\s*[(（]")


def _name(
    heading: str, extra: Mapping[str, tuple[str, ...]], words: Words
) -> str | None:
    """The name an enclosing heading gives a section ("Lofi Video 2 — Image
    approved (2026-03-22)" names "Lofi Video 2"), or None when it names a
    kind, a date or nothing of its own ("## Decisions", "## Session 3")."""
    text = plain(heading)
    head = _NAME_END.split(text, maxsplit=1)[0].strip()
    if not head or only_date(head) or _generic(head, words):
        return None
    if _kind_of(head, extra, words) or _CLOCK.search(head) or _DATE.search(head):
        return None
    return undated(head)


def _only_clock(text: str) -> bool:
    """Whether ``text`` is a clock time alone ("13:00", "9 am UTC"): the
    heading ``gardener note`` writes above an entry, no subject of its own."""
    rest = _CLOCK.sub(" ", text)
    return rest != text and not re.sub(r"(?i)\b(?:utc|gmt)\b|[\W\d_]+", "", rest)


def _title(heading: str, extra: Mapping[str, tuple[str, ...]], words: Words) -> bool:
    """Whether an outermost heading with a date, no clock time and no word
    naming a kind is the note's title ("# 2026-02-11 - Voice, trust &
    models"): it names the day, not a log section ("# 2026-02-11 Daily log"
    still is one)."""
    text = plain(heading)
    if _CLOCK.search(text) or not _DATE.search(text):
        return False
    rest = _DATE.sub(" ", text)
    return not (_kind_of(rest, extra, words))


def _generic(text: str, words: Words) -> bool:
    low = text.casefold().rstrip(":：").strip()
    return low in words.generic_labels or low.rstrip("s") in words.generic_labels


def heading_words(config: Config) -> dict[str, tuple[str, ...]]:
    """kind -> heading words, rules.md's then the lexicon's, with English
    plurals spelled out, and the lexicon's ``compound_heads`` marked ``*``:
    what ``gardener note`` matches whole words against
    (``planning.headingwords``), without loading the lexicon on its path."""
    words = lexicon(tuple(config.languages))
    out: dict[str, tuple[str, ...]] = {}
    for table in (config.headings, words.headings):
        for kind, phrases in table.items():
            spelled = [p for w in phrases for p in (w, *_plurals(w))]
            out[kind] = tuple(dict.fromkeys((*out.get(kind, ()), *spelled)))
    for kind, heads in words.compound_heads.items():
        # "*status": the last part of a compound ("systemstatus"), as promotion reads
        out[kind] = (*out.get(kind, ()), *(f"*{h}" for h in heads))
    return out


def _plurals(word: str) -> tuple[str, ...]:
    if not word.isascii() or not word[-1:].isalpha() or word.endswith("s"):
        return ()
    return (word + "s", word + "es")


def read_headings(
    headings: tuple[str, ...], extra: Mapping[str, tuple[str, ...]], words: Words
) -> tuple[str | None, str | None, bool]:
    """(kind, subject, shielded) from an entry's heading path (outermost first).

    kind: the deepest heading's that names one; subject: the deepest heading
    that names neither a kind nor a date, below the one that gave the kind;
    shielded: a subject heading stands between the entry and the heading
    that gave the kind (``## Session 3`` / ``### Proton account``: the
    session's kind does not reach the account's label bullets).
    """
    subject: str | None = None
    scoped = False
    for depth, heading in reversed(list(enumerate(headings))):
        kind = heading_kind(heading, extra, words)
        if kind == "event" and depth == 0 and _title(heading, extra, words):
            continue  # "# 2026-02-11 - Voice & trust": the note's title
        if subject is not None and not scoped and depth > 0:
            # "## Project Alpha — In progress" / "### Approved image": two
            # projects' "Approved image" are two subjects (docs/design.md,
            # Promote > Key); the outermost heading is the note's title
            scoped = True
            name = _name(heading, extra, words)
            if name:
                subject = f"{name} / {subject}"
        if kind:
            lm = _LABELLED.match(plain(heading))
            if subject is None and lm and kind in ("decision", "fact"):
                return kind, lm.group(2), False
            return kind, subject, subject is not None
        text = plain(heading)
        # "## Notes", "## Misc": a generic heading names no subject of its own
        if (
            subject is None
            and text
            and not only_date(text)
            and not _only_clock(text)
            and not _generic(text, words)
        ):
            subject = undated(text)
    return None, subject, False
