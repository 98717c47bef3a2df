"""Removals: which values of a key an entry that ends them names, and which of
them held at its time (pure; the decision table's "end" row lives in
``gardener.planning.reconcile``, see docs/design.md, Promote).

A removal ("we dropped Redis", ``- **cache**: (none)``) ends values: each
one it names that holds at its valid time gets ``until`` = that time,
``reason=ended`` and ``ended-by`` = the note and line of the removal, and
moves to Superseded. It adds no value of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime

from gardener.model.facts import Fact, normalize_key, normalize_value
from gardener.model.kinds import SUPERSEDED
from gardener.model.validtime import parse_instant

ENDED = "ended"  # the reason an ended value carries, and its recall status
# the explicit removal of a daily note: "- **cache**: (none)" ends what the
# key holds; "- **cache**: ~~Redis~~" ends Redis only
_NOTHING = re.compile(r"\(\s*(?:none|nothing|removed|ended|dropped)\s*\)")
_STRUCK = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_ARTICLES = frozenset({"the", "a", "an", "our", "my", "its", "their"})


def removal_value(value: str) -> str | None:
    """What an explicit removal written as an entry's value ends: ``""`` for
    ``(none)`` (whatever the key holds), the value for ``~~value~~``; None
    when ``value`` is no explicit removal."""
    text = value.strip()
    if _NOTHING.fullmatch(unicodedata.normalize("NFKC", text).casefold()):
        return ""
    m = _STRUCK.fullmatch(text)
    return m.group(1).strip() if m else None


def names(removal: str, value: str) -> bool:
    """Whether a removal's text ``removal`` names the value ``value``: one's words, compared as values compare, are a run of the
    other's ("the Redis cache" names Redis; "Redis" names "Redis 7"). A
    removal whose words are only the key's and articles names every value
    (``names_any``)."""
    said = normalize_value(removal).split()
    held = normalize_value(value).split()
    if not said or not held:
        return not said
    return _run_of(held, said) or _run_of(said, held)


def names_any(removal: str, key: str) -> bool:
    """True if ``removal`` names no particular value: nothing but the key's
    words and articles ("the cache", "", "(none)")."""
    key_words = set(normalize_key(key).replace("/", " ").split())
    words = normalize_value(removal).split()
    return all(w in key_words or w in _ARTICLES or w == "none" for w in words)


def _run_of(needle: list[str], hay: list[str]) -> bool:
    n = len(needle)
    return any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def ends_at(fact: Fact) -> datetime | None:
    """When ``fact`` stops holding: the earlier of its ``until`` and
    ``expires``; None when neither is set."""
    stops = [parse_instant(v) for v in (fact.until, fact.get("expires")) if v]
    return min(stops) if stops else None


def held_at(line: Sequence[Fact], at: datetime) -> list[Fact]:
    """The facts of a key's timeline ``line`` that hold at ``at``:
    ``since <= at`` and not yet ended or expired."""
    out = []
    for fact in line:
        if not fact.since or parse_instant(fact.since) > at:
            continue
        stop = ends_at(fact)
        if stop is None or at < stop:
            out.append(fact)
    return out


def ended_around(line: Sequence[Fact], at: datetime) -> Fact | None:
    """The value of ``line`` that a removal ended after ``at`` and that held
    at ``at``: a value dated ``at`` that arrives late holds until that
    removal too."""
    # the reason first: this is asked of every keyed entry, and few values ended
    ended = [f for f in line if f.get("reason") == ENDED]
    return next(iter(held_at(ended, at)), None) if ended else None


def plan_end(
    same_key: Sequence[Fact],
    timeline: Sequence[Fact],
    key: str | None,
    removal: str,
    at: datetime,
    since: str,
    mark: str,
) -> tuple[list[tuple[Fact, Fact]], str, str | None]:
    """What a removal does to a key's values: ``(changes, "", None)``, each
    change (a fact, what it becomes) in order; or ``([], why not, the id of
    the fact it concerns)`` when it ends nothing.

    ``same_key``: the key's facts; ``timeline``: those on its timeline, in
    valid-time order; ``removal``: the value the removal names ("" for the
    key alone); ``at``/``since``: its valid time, as a datetime and as
    written; ``mark``: its ``note:line``, the ``ended-by`` it leaves.
    """
    if key is None:
        return [], "a removal that names no key", None
    # a pass re-run after it was killed between its two writes finds its work
    done = next((f for f in same_key if f.get("ended-by") == mark), None)
    if done is not None:
        return [], "already on the timeline", done.id
    held = held_at(timeline, at)
    if not names_any(removal, key):
        held = [f for f in held if names(removal, f.value)]
    if not held:
        return [], "nothing to end: no value of the key it names holds then", None
    changes: list[tuple[Fact, Fact]] = []
    for old in held:
        after = next(
            (f for f in same_key if f.id and f.get("supersedes") == old.id), None
        )
        if after is not None and old.get("superseded-by") == after.id:
            # back-filled: it ended before the value that followed it began
            changes.append((after, after.with_attrs(supersedes=None)))
        attrs = {"until": since, "reason": ENDED, "ended_by": mark}
        if old.superseded:
            changes.append((old, old.with_attrs(superseded_by=None, **attrs)))
        else:  # to Superseded, keeping its kind
            changes.append((old, old.moved(SUPERSEDED, True, kind=old.kind, **attrs)))
    return changes, "", None
