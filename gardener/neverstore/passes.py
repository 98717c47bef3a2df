"""Which rules run where: the rules' words as tries, two groups, the prefilter.

The table's label rules are matched only where one of their words starts (``hits``:
one regex over the lowercased text, one at camelCase humps, one for CJK words), the
base64 and entropy rules only inside runs of 20+ base64 characters (``runs``), and
the rest are searched for in the whole text. The rules whose matches may span lines
form one group, run on the whole text; the others run once per distinct line.
Everything is compiled on first use (``engine``): importing costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from gardener.model.record import Record
from gardener.neverstore.labels import BOUND
from gardener.neverstore.regex import Check, Span, compiled
from gardener.neverstore.rules import TABLE
from gardener.neverstore.tables import trie

TYPE_CHECKING = False  # mypy and ruff read this as typing's (~4 ms to import)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")


class RuleGroup(Record):
    """The rules of one group: searched in the text (``text_rules``), in its base64
    runs (``run_rules``), or matched where a word of theirs starts (``route``)."""

    text_rules: tuple[int, ...]
    run_rules: tuple[int, ...]
    route: dict[str, tuple[int, ...]]  # word -> rules to match where it starts
    # regex sources, compiled on first use (~10 ms for all three of both groups,
    # which a short text with none of their words never needs)
    words: str | None  # a word after a non-alphanumeric (lowercased)
    camel: str | None  # a word at a camelCase hump (dbPassword)
    cjk: str | None  # a CJK word, anywhere
    latin: tuple[str, ...]  # the words of ``words``
    humped: tuple[str, ...]  # the words of ``camel``


class CompiledRules:
    """The table's rules as (rule, compiled pattern, check), each compiled when
    first used: the worded rules (password, secret, pin...) cost most of the
    compile time, and a line with none of their words never needs them."""

    def __init__(self) -> None:
        self._compiled: dict[int, tuple[str, re.Pattern[str], Check | None]] = {}

    def __getitem__(self, i: int) -> tuple[str, re.Pattern[str], Check | None]:
        got = self._compiled.get(i)
        if got is None:
            r = TABLE[i]
            got = self._compiled[i] = (r.rule, re.compile(r.pattern), r.check)
        return got


class Engine(Record):
    """The table, ready to run: its rules compiled on demand, in two groups."""

    rules: CompiledRules
    whole: RuleGroup  # rules whose matches may span lines, run on the whole text
    lines: RuleGroup  # the rest, run once per distinct line


def _group(indices: Sequence[int]) -> RuleGroup:
    """The table's rules at ``indices`` as a group: routes by word, tries."""
    owners: dict[str, set[int]] = {}
    camel: set[str] = set()
    cjk: set[str] = set()
    for i in indices:
        r = TABLE[i]
        west, _, east = r.words.partition("|")
        for word in west.split():
            owners.setdefault(word, set()).add(i)
            if BOUND in r.pattern and word.isascii() and word[0].isalpha():
                camel.add(word)
        for word in filter(None, (w.strip() for w in east.split("|"))):
            owners.setdefault(word, set()).add(i)
            cjk.add(word)
    latin = [w for w in owners if w not in cjk]
    # A hit on "authorization" must also try the rules of "auth": route by prefix.
    route = {
        w: tuple(
            sorted({i for h, ids in owners.items() if w.startswith(h) for i in ids})
        )
        for w in owners
    }
    humps: dict[str, list[str]] = {}
    for word in camel:
        humps.setdefault(word[0].upper(), []).append(word[1:])
    hump = "|".join(f"(?<={c})(?i:{trie(rest)})" for c, rest in sorted(humps.items()))
    return RuleGroup(
        text_rules=tuple(
            i for i in indices if not TABLE[i].words and not TABLE[i].runs
        ),
        run_rules=tuple(i for i in indices if TABLE[i].runs),
        route=route,
        words=rf"[\W_]({trie(latin)})" if latin else None,
        camel=rf"[{''.join(humps)}](?<=[A-Za-z0-9].)(?:{hump})" if humps else None,
        cjk="|".join(sorted(cjk, key=len, reverse=True)) if cjk else None,
        latin=tuple(latin),
        humped=tuple(sorted(camel)),
    )


_ENGINE: list[Engine] = []


def engine() -> Engine:
    """The table, compiled on first use: that costs ~20 ms and importing must not."""
    if not _ENGINE:
        _ENGINE.append(
            Engine(
                rules=CompiledRules(),
                whole=_group([i for i, r in enumerate(TABLE) if not r.lines]),
                lines=_group([i for i, r in enumerate(TABLE) if r.lines]),
            )
        )
    return _ENGINE[0]


# What one reading of a note asks twice of the same long text, kept while it
# lasts (``Remembering``): ``decision.found_spans`` reads a note whole
# (``find``), then its lines joined again (``find_each``'s prefilter), and
# both ask for the word hits, the runs and the line rules' candidates.
_MEMO: dict[tuple[object, str, int], list[Any]] = {}
_MEMO_FROM = 1_000  # characters: a shorter text costs less to read than to keep
_MEMO_UPTO = 4_000_000  # a longer one is not kept
_DEPTH = [0]


class Remembering:
    """``with Remembering():`` keep ``kept``'s answers until the outermost
    such block ends (then they are dropped: a pass's memory peak is not the
    place for them)."""

    def __enter__(self) -> None:
        _DEPTH[0] += 1

    def __exit__(self, *exc: object) -> None:
        _DEPTH[0] -= 1
        if not _DEPTH[0]:
            _MEMO.clear()


def kept(
    kind: object, text: str, rules: object, read: Callable[[], list[_T]]
) -> list[_T]:
    """``read()``, kept for (``kind``, hashable, ``text``, ``rules``) inside a
    ``Remembering`` block if the text is long; a copy of it."""
    if not _DEPTH[0] or not _MEMO_FROM <= len(text) <= _MEMO_UPTO:
        return read()
    key = (kind, text, id(rules))
    hit = _MEMO.get(key)
    if hit is None:
        hit = _MEMO[key] = read()
    return list(hit)


def hits(text: str, rules: RuleGroup) -> list[tuple[int, str]]:
    """(position, word) wherever a word of ``rules`` starts, in order."""
    return kept("hits", text, rules, lambda: _hits(text, rules))


def _hits(text: str, rules: RuleGroup) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    low = text.lower()
    if len(low) != len(text):  # a few characters lowercase to two ("İ")
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    # A short text holding none of a regex's words skips it, and so the cost of
    # compiling it. (The camel regex matches case-insensitively, which outside
    # ASCII also pairs "ſ" with "s": there no word is ruled out.)
    short = len(text) <= PREFILTER
    if rules.words and not (short and not _any_in(rules.latin, low)):
        # After "\n", the match of "[\W_]word" starts where the word does in text.
        words = compiled(rules.words).finditer("\n" + low)
        found += [(m.start(), m.group(1)) for m in words]
    if rules.camel and not (
        short and text.isascii() and not _any_in(rules.humped, low)
    ):
        for m in compiled(rules.camel).finditer(text):
            word = m.group().lower()
            if word not in rules.route:  # matched through a fold outside ASCII
                word = _folded(m.group(), rules.humped)
            found.append((m.start(), word))
    if rules.cjk and not text.isascii():
        # in the lowercased text: a route word may mix scripts ("id/パス")
        found += [(m.start(), m.group()) for m in compiled(rules.cjk).finditer(low)]
    return sorted(found)


PREFILTER = 4096  # characters: up to here, looking for each word costs < 0.1 ms


def _folded(found: str, words: tuple[str, ...]) -> str:
    """The word of ``words`` that ``found`` matches case-insensitively, as the
    camel regex did: "Paſſ" is "pass" ("ſ" folds to "s"), yet lowercases to itself."""
    return next(w for w in words if re.fullmatch(re.escape(w), found, re.IGNORECASE))


def _any_in(words: tuple[str, ...], text: str) -> bool:
    return any(word in text for word in words)


_RUN_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-"
_RUN_MAP = bytes(0x61 if i in _RUN_CHARS else 0x20 for i in range(256))
_RUN = b"a" * 20  # the shortest run the base64 and entropy rules can match


def runs(text: str) -> list[Span]:
    """The maximal runs of 20+ ASCII ``[\\w+/=-]`` characters. The run rules match
    only such characters and look around with them only, so a run is all they see."""
    return kept("runs", text, None, lambda: _runs(text))


def _runs(text: str) -> list[Span]:
    flat = text.encode("ascii", "replace").translate(_RUN_MAP)
    out = []
    start = flat.find(_RUN)
    while start >= 0:
        end = flat.find(b" ", start)
        end = len(flat) if end < 0 else end
        out.append((start, end))
        start = flat.find(_RUN, end)
    return out
