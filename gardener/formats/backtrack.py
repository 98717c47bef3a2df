"""Does a user's regular expression risk exponential backtracking? (pure)

Python's ``re`` backtracks: a repeat inside a repeat whose pieces can match the
same characters in more than one way (``(a+)+$``, ``(\\w+\\s?)+$``, ``(\\d{1,3})+x``)
takes time exponential in the text's length when the match fails. A rules.md
``never_store`` pattern runs on every line agents write, so one such pattern
would hang ``note``, ``promote`` and ``recall`` while they hold the workspace
lock. ``risky`` finds the shape statically, before the pattern ever runs.

The test, on the parsed pattern: inside an unbounded repeat (``*``, ``+``,
``{n,}``, or more than 100), a repeat of variable length whose characters can
also begin what follows it (the rest of the body, or the body's next round).
``(?:[\\w-]+\\.)+`` is fine (a dot ends each piece); ``(?:\\w+\\s?)+`` is not
(an optional space lets two rounds share a word). Character classes are
compared on a sample of characters (ASCII and a few others), case-folded: a
conservative test, which may refuse a safe pattern but names what to change.
"""

from __future__ import annotations

import importlib
import re
import string
from collections.abc import Sequence
from typing import Any

# the parser behind ``re`` (private, stable since Python 3.11; sre_parse before)
_p: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

_Item = tuple[Any, Any]  # (opcode, argument) as re's parser gives them
_SAMPLE = string.printable + "\u00a0é߀жЖ中あ٣\u2028"
_UNBOUNDED = 100  # a repeat allowed more rounds than this counts as unbounded
_CATEGORY = {
    _c.CATEGORY_DIGIT: re.compile(r"\d"),
    _c.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    _c.CATEGORY_SPACE: re.compile(r"\s"),
    _c.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    _c.CATEGORY_WORD: re.compile(r"\w"),
    _c.CATEGORY_NOT_WORD: re.compile(r"\W"),
}
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


def risky(pattern: str) -> str | None:
    """The piece of ``pattern`` that can backtrack exponentially, or None.

    Raises re.error for a pattern that does not parse (``re.compile`` would too).
    """
    return _walk(list(_p.parse(pattern)), pattern)


def _walk(items: Sequence[_Item], pattern: str) -> str | None:
    """Look into every unbounded repeat among ``items`` and their groups."""
    for op, av in items:
        if op in _REPEATS:
            low, high, body = av
            body_items = list(body)
            if high >= 2 and _ambiguous(body_items, _first(body_items), _bounded(high)):
                return _shown(pattern)
            found = _walk(body_items, pattern)
        else:
            found = _walk_inside(op, av, pattern)
        if found:
            return found
    return None


def _walk_inside(op: Any, av: Any, pattern: str) -> str | None:
    for part in _parts(op, av):
        found = _walk(part, pattern)
        if found:
            return found
    return None


def _bounded(high: int) -> bool:
    """True for an outer repeat of a few rounds (``{2,12}``): only an inner
    unbounded repeat makes it blow up (``(.*a){12}`` is n to the 12th)."""
    return high != _c.MAXREPEAT and high <= _UNBOUNDED


def _ambiguous(items: list[_Item], after: set[str], bounded: bool = False) -> bool:
    """True if, in ``items`` followed by characters ``after``, a variable
    repeat can run into what follows it, or two branches of different length
    begin alike (right to left, carrying the set of characters that can come
    next). ``bounded``: only unbounded inner repeats count."""
    follow = set(after)
    for op, av in reversed(items):
        if op in _REPEATS:
            low, high, body = av
            counts = not bounded or high == _c.MAXREPEAT or high > _UNBOUNDED
            if counts and low != high and _chars(list(body)) & follow:
                return True
            if _ambiguous(list(body), follow | _first(list(body)), bounded):
                return True
        elif op in (_c.SUBPATTERN, _c.BRANCH) and _group_ambiguous(
            op, av, follow, bounded
        ):
            return True
        follow = _first([(op, av)]) | (follow if _optional(op, av) else set())
    return False


def _group_ambiguous(op: Any, av: Any, follow: set[str], bounded: bool) -> bool:
    """``_ambiguous`` for a group or a branch followed by ``follow``."""
    parts = _parts(op, av)
    if op == _c.BRANCH and not bounded and _branches_overlap(parts, follow):
        return True
    return any(_ambiguous(part, follow, bounded) for part in parts)


def _branches_overlap(parts: list[list[_Item]], follow: set[str]) -> bool:
    """True if branches of different lengths can begin with the same
    character, or a shorter one can stop where what follows begins
    (``a|aa``, which ``re`` reads as ``a(?:|a)``); ``cat|car`` stays linear."""
    widths = [_p.SubPattern(_p.State(), part).getwidth() for part in parts]
    empty = any(all(_optional(*item) for item in part) for part in parts)
    if empty and any(_first(part) & follow for part in parts):
        return True
    for i, first in enumerate(parts):
        for j in range(i + 1, len(parts)):
            differ = widths[i] != widths[j] or widths[i][0] != widths[i][1]
            if differ and _first(first) & _first(parts[j]):
                return True
    return False


def _parts(op: Any, av: Any) -> list[list[_Item]]:
    """The sub-sequences inside a group, branch or lookaround."""
    if op == _c.SUBPATTERN:
        return [list(av[-1])]
    if op == _c.ATOMIC_GROUP:
        return [list(av)]
    if op == _c.BRANCH:
        return [list(branch) for branch in av[1]]
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return [list(av[1])]
    if op == _c.POSSESSIVE_REPEAT:
        return [list(av[2])]
    return []


def _optional(op: Any, av: Any) -> bool:
    """True if the item can match the empty string."""
    if op in _REPEATS or op == _c.POSSESSIVE_REPEAT:
        return av[0] == 0 or all(_optional(*item) for item in av[2])
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT, _c.GROUPREF):
        return True
    if op in (_c.SUBPATTERN, _c.ATOMIC_GROUP):
        return all(_optional(*item) for item in _parts(op, av)[0])
    if op == _c.BRANCH:
        return any(all(_optional(*item) for item in part) for part in _parts(op, av))
    return False


def _first(items: list[_Item]) -> set[str]:
    """Sample characters a match of ``items`` can begin with."""
    return _reach(items, first=True)


def _chars(items: list[_Item]) -> set[str]:
    """Sample characters any part of ``items`` can match."""
    return _reach(items, first=False)


def _reach(items: list[_Item], first: bool) -> set[str]:
    found: set[str] = set()
    for op, av in items:
        if op in _REPEATS or op == _c.POSSESSIVE_REPEAT:
            found |= _reach(list(av[2]), first)
        elif op in (_c.SUBPATTERN, _c.ATOMIC_GROUP, _c.BRANCH):
            for part in _parts(op, av):
                found |= _reach(part, first)
        else:
            found |= _one(op, av)
        if first and not _optional(op, av):
            break
    return found


def _one(op: Any, av: Any) -> set[str]:
    """Sample characters one single-character item matches (case-folded)."""
    if op == _c.LITERAL:
        return _cased({chr(av)})
    if op == _c.NOT_LITERAL:
        return {ch for ch in _SAMPLE if ch.casefold() != chr(av).casefold()}
    if op == _c.ANY:
        return set(_SAMPLE) - {"\n"}
    if op == _c.IN:
        return _cased(_in(av))
    return set()


def _in(members: list[_Item]) -> set[str]:
    negate = bool(members) and members[0][0] == _c.NEGATE
    found: set[str] = set()
    for op, av in members[1:] if negate else members:
        if op == _c.LITERAL:
            found.add(chr(av))
        elif op == _c.RANGE:
            low, high = av
            found |= {ch for ch in _SAMPLE if low <= ord(ch) <= high}
        elif op == _c.CATEGORY and av in _CATEGORY:
            found |= {ch for ch in _SAMPLE if _CATEGORY[av].match(ch)}
    return set(_SAMPLE) - found if negate else found


def _cased(chars: set[str]) -> set[str]:
    return chars | {ch.casefold() for ch in chars} | {ch.upper() for ch in chars}


def _shown(pattern: str) -> str:
    return pattern if len(pattern) <= 60 else pattern[:57] + "..."
