"""When two values are the same: equal once normalized, or near-duplicates (pure).

Promote rejects an entry whose value is the same as a current entry's; the
comparison ignores case, space and punctuation, and for long values allows a
few characters of difference but never different digits, nor different
weekdays or months ("updates on Mondays" is not "updates on Fridays").
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from functools import lru_cache

from gardener.lexicon.match import phrase_regex
from gardener.lexicon.words import lexicon
from gardener.model.facts import normalize_value

NEAR_DUPLICATE = 92  # rapidfuzz ratio at or above this is "the same"
FUZZY_LENGTH = 12  # normalized values shorter than this must match exactly
# CJK numerals count as digits: 每周一 is not 每周五
_DIGITS = re.compile(r"\d+|[一二三四五六七八九十百千万两〇零]+")


def same_value(a: str, b: str) -> bool:
    """Whether values ``a`` and ``b`` say the same: equal once normalized, or
    near-duplicates (a long value, the same digits, a fuzzy ratio of at least
    ``NEAR_DUPLICATE``)."""
    na, nb = normalize_value(a), normalize_value(b)
    if na == nb:
        return True
    # short values differ by a word: "box2" vs "box7"
    if min(len(na), len(nb)) < FUZZY_LENGTH:
        return False
    if digits(na) != digits(nb):  # v0.1 vs v0.2, $4,200 vs $3,600
        return False
    if _calendar(na) != _calendar(nb):  # Mondays vs Fridays
        return False
    if surely_apart(na, nb):
        return False
    from rapidfuzz import fuzz

    # order matters: "tabs rather than spaces" is not "spaces rather than tabs"
    return fuzz.ratio(na, nb) >= NEAR_DUPLICATE


def surely_apart(a: str, b: str) -> bool:
    """True if ``fuzz.ratio(a, b)`` is below NEAR_DUPLICATE, known without rapidfuzz.

    The ratio is 200 * LCS / (len(a) + len(b)), and the longest common
    subsequence is no longer than the shorter text nor than the characters the
    two share (counted with repeats): an exact "no" for most pairs, which spares
    a pass that needs no fuzzy match the import of rapidfuzz (~20 ms).
    """
    total = len(a) + len(b)
    if 200 * min(len(a), len(b)) < NEAR_DUPLICATE * total:
        return True
    if "rapidfuzz.fuzz" in sys.modules:  # imported: its answer is as cheap
        return False
    shared = sum((Counter(a) & Counter(b)).values())
    return 200 * shared < NEAR_DUPLICATE * total


def digits(normalized: str) -> tuple[str, ...]:
    """The runs of digits in a normalized value, in order."""
    return tuple(_DIGITS.findall(normalized))


def _calendar(normalized: str) -> tuple[str, ...]:
    """The weekday and month names in a normalized value, in order (every
    language of the lexicon: a value is compared whatever its language)."""
    regex = _calendar_regex()
    return tuple(regex.findall(normalized)) if regex is not None else ()


@lru_cache(maxsize=1)
def _calendar_regex() -> re.Pattern[str] | None:
    words = lexicon()
    return phrase_regex(words.calendar_words + words.recurring)
