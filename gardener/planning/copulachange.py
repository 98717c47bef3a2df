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
from gardener.planning.frames import Frame, bare
from gardener.planning.keying import copula_split
from gardener.planning.labels import counter

# a mark inside a name: "box-b", "fly.io", "stg2", "py3_12"
_NAME_MARK = re.compile(r"\d|\w[-._/]\w")


@lru_cache(maxsize=8)
def _marks(change_words: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a change word opening a value, a change word closing a subject)."""
    words = sorted(change_words, key=len, reverse=True)
    # a spaced word stands whole; a Chinese or Japanese one needs no space
    ends = "|".join(
        re.escape(w) + ("" if unspaced(w[-1]) else r"(?!\w)") for w in words
    )
    starts = "|".join(
        ("" if unspaced(w[0]) else r"(?<!\w)") + re.escape(w) for w in words
    )
    return (
        re.compile(rf"^\s*(?:{ends})[\s,:，]*", re.IGNORECASE),
        re.compile(rf"(?:{starts})\s*$", re.IGNORECASE),
    )


def unmarked(value: str, words: Words) -> str:
    """``value`` without a change word opening or closing it ("3.12 from now
    on" is 3.12, "jetzt Ruff" is Ruff); ``value`` itself when nothing else
    would be left."""
    if not words.change_words:
        return value
    opens, closes = _marks(words.change_words)
    left = closes.sub("", opens.sub("", value, count=1), count=1).rstrip(" ,，")
    return left or value


def named(value: str) -> bool:
    """Whether ``value`` is written as a name or a number ("Postgres", "box-b",
    "3.12", "GitLab CI"), not as a state ("green", "down", "空的")."""
    text = value.strip("*`\"'“”「」 ")
    if not text:
        return False
    if unspaced(text[0]):  # a Chinese or Japanese value: only a Latin name in it
        return bool(re.search(r"[A-Za-z0-9]", text))
    return text[0].isupper() or bool(_NAME_MARK.search(text))


@lru_cache(maxsize=8)
def _any_mark(change_words: tuple[str, ...]) -> re.Pattern[str]:
    """Any change word anywhere (the same words ``_marks`` anchors)."""
    words = sorted(change_words, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words)), re.IGNORECASE)


def copula_change(text: str, words: Words) -> Frame | None:
    """The change ``text`` states as "<subject> <copula> <change word> <value>"
    (or the change word before the copula), as a change ``Frame`` with no
    ``old``; None when it is no such statement."""
    if not words.change_words or not words.copulas:
        return None
    if not _any_mark(words.change_words).search(text):
        return None  # most statements say no "now": skip the copula's split
    split = copula_split(text, words.copulas)
    if split is None:
        return None
    subject, value = split
    opens, closes = _marks(words.change_words)
    value_now = opens.sub("", value, count=1)
    subject_now = closes.sub("", subject, count=1).strip()
    if value_now == value and subject_now == subject:
        # "Postgres from now on": the mark may close the value too
        value_now = closes.sub("", value, count=1).rstrip(" ,")
        if value_now == value:
            return None
    subject_now, value_now = bare(subject_now), bare(value_now)
    if not subject_now or not value_now:
        return None
    # "the latency is now 80ms": a reading of a counter is a state
    strong = named(value_now) and not counter(subject_now, value_now, words)
    return Frame("change", subject_now, None, value_now, strong=strong)
