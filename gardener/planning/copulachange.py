"""A plain statement that says its value changed (pure): "the deploy target is
now box-b", "Der Linter ist jetzt Ruff", "数据库现在是 Postgres", "La CI est
désormais GitLab CI", "データベースは今はPostgres".

Its copula is any of the lexicon's (``Words.copulas``, a spaced dash, は) and its
mark of change one of ``Words.change_words``, right after the copula or right
before it; so every language the lexicon holds reads this frame with no
template of its own. It is a change frame (``Frame``) whose subject is the key's
name: strong when the value is written as a name ("box-b", "Postgres", "3.12"),
weak when it reads as a state ("the build is now green", "the latency is now
80ms"). See docs/design.md,
"Changes and removals".
"""

from __future__ import annotations

import re
from functools import lru_cache

from gardener.lexicon.match import unspaced
from gardener.lexicon.words import Words
from gardener.planning.frames import Frame, bare, named
from gardener.planning.keying import copula_split
from gardener.planning.labels import counter

# a mark inside a name: "box-b", "fly.io", "stg2", "py3_12"


class _Marks:
    """The change words as a value's opening and a subject's closing mark.

    Both regexes are big alternations, matched case-insensitively; the
    closing one is anchored at the end, so it is searched only from where
    the longest word could start (a search from the text's start tries
    every place, each against every word), and the opening one is only
    matched at the start. Same matches as ``sub(..., count=1)`` of each.
    """

    __slots__ = ("opens", "closes", "longest", "ascii_words", "other", "tails")

    def __init__(self, change_words: tuple[str, ...]) -> None:
        words = sorted(change_words, key=len, reverse=True)
        # a spaced word stands whole; a Chinese or Japanese one needs no space
        ends = "|".join(
            re.escape(w) + ("" if unspaced(w[-1]) else r"(?!\w)") for w in words
        )
        starts = "|".join(
            ("" if unspaced(w[0]) else r"(?<!\w)") + re.escape(w) for w in words
        )
        self.opens = re.compile(rf"^\s*(?:{ends})[\s,:，]*", re.IGNORECASE)
        self.closes = re.compile(rf"(?:{starts})\s*$", re.IGNORECASE)
        self.longest = max((len(w) for w in words), default=0)
        # for ``any_in``: an ASCII text holds a word case-insensitively only
        # as its lowercase (an ASCII word), or through a fold out of ASCII
        # ("K" the Kelvin sign is k, "ſ" is s): those few keep a regex
        self.ascii_words = tuple(w.lower() for w in words if w.isascii())
        folds = [w for w in words if not w.isascii() and _asciiable(w)]
        self.other = (
            re.compile("|".join(map(re.escape, folds)), re.IGNORECASE)
            if folds
            else None
        )
        # a closing word ends an ASCII text's last non-space character, so
        # ``drop_close`` asks ``endswith`` first (None: the regex must)
        tails = tuple(w for w in self.ascii_words if w and not w[-1].isspace())
        whole = not folds and len(tails) == len(self.ascii_words)
        self.tails = tails if whole else None

    def drop_open(self, text: str) -> str:
        """``opens.sub("", text, count=1)``."""
        m = self.opens.match(text)
        return text[m.end() :] if m else text

    def drop_close(self, text: str) -> str:
        """``closes.sub("", text, count=1)``: a match ends the text but for
        spaces, so it starts at most ``longest`` characters before them."""
        body = text.rstrip()
        if (
            self.tails is not None
            and text.isascii()
            and not body.lower().endswith(self.tails)
        ):
            return text
        m = self.closes.search(text, max(0, len(body) - self.longest))
        return text[: m.start()] + text[m.end() :] if m else text


def _asciiable(word: str) -> bool:
    """Whether each character of ``word`` matches some ASCII character
    case-insensitively (as ``re.IGNORECASE`` reads it)."""
    return all(
        ch.isascii()
        or any(re.fullmatch(re.escape(ch), chr(a), re.IGNORECASE) for a in range(128))
        for ch in word
    )


@lru_cache(maxsize=8)
def _marks(change_words: tuple[str, ...]) -> _Marks:
    return _Marks(change_words)


def unmarked(value: str, words: Words) -> str:
    """``value`` without a change word opening or closing it ("3.12 from now
    on" is 3.12, "jetzt Ruff" is Ruff); ``value`` itself when nothing else
    would be left."""
    if not words.change_words:
        return value
    marks = _marks(words.change_words)
    left = marks.drop_close(marks.drop_open(value)).rstrip(" ,，")
    return left or value


@lru_cache(maxsize=8)
def _any_mark(change_words: tuple[str, ...]) -> re.Pattern[str]:
    """Any change word anywhere (the same words ``_marks`` anchors)."""
    words = sorted(change_words, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words)), re.IGNORECASE)


def any_mark(text: str, change_words: tuple[str, ...]) -> bool:
    """Whether ``_any_mark(change_words)`` finds a change word in ``text``;
    an ASCII text is asked word by word (``_Marks.ascii_words``)."""
    if not text.isascii():
        return _any_mark(change_words).search(text) is not None
    marks = _marks(change_words)
    low = text.lower()
    for word in marks.ascii_words:
        if word in low:
            return True
    return marks.other is not None and marks.other.search(text) is not None


def copula_change(text: str, words: Words) -> Frame | None:
    """The change ``text`` states as "<subject> <copula> <change word> <value>"
    (or the change word before the copula), as a change ``Frame`` with no
    ``old``; None when it is no such statement."""
    if not words.change_words or not words.copulas:
        return None
    if not any_mark(text, words.change_words):
        return None  # most statements say no "now": skip the copula's split
    split = copula_split(text, words.copulas)
    if split is None:
        return None
    subject, value = split
    marks = _marks(words.change_words)
    value_now = marks.drop_open(value)
    subject_now = marks.drop_close(subject).strip()
    if value_now == value and subject_now == subject:
        # "Postgres from now on": the mark may close the value too
        value_now = marks.drop_close(value).rstrip(" ,")
        if value_now == value:
            return None
    subject_now, value_now = bare(subject_now), bare(value_now)
    if not subject_now or not value_now:
        return None
    # "the latency is now 80ms": a reading of a counter is a state
    strong = named(value_now) and not counter(subject_now, value_now, words)
    return Frame("change", subject_now, None, value_now, strong=strong)
