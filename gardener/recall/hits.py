"""What a recall answers with: the choice of hits (``gardener.model.hit``)
among the recall index's matches (pure; see docs/design.md).

Kept free of heavy imports (no dataclasses, typing or pathlib at run time):
a warm ``gardener recall`` loads this module and ``gardener.recall.index`` and
little else, because interpreter start and imports are most of its cost
(bench/README.md; docs/internals.md, Hot path).
"""

from __future__ import annotations

import re

from gardener.formats.retired import before, mark
from gardener.model.hit import Hit
from gardener.model.validtime import current_at

TYPE_CHECKING = False  # typing costs ~4 ms to import; mypy and ruff read this as usual
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

_WORD = re.compile(r"\w+", re.UNICODE)
# how a hit a removal ended reads in the index's JSON (its status)
_ENDED = '"status": "ended"'


class Match:
    """A search result of the recall index: what deciding needs, its BM25
    score (higher is better), and its Hit as JSON, decoded only if kept.

    ``day`` is the note's ISO date (None for MEMORY.md); ``filed_key`` a note
    entry's durable key, or a MEMORY.md entry's key (normalized); ``until``/``expires`` valid-time strings; ``since``
    as ``gardener.recall.rank.sort_key`` writes it (text that sorts by time).
    """

    __slots__ = (
        "score", "day", "filed_key", "superseded", "until", "expires", "since", "raw"
    )  # fmt: skip

    def __init__(
        self,
        score: float,
        day: str | None,
        filed_key: str | None,
        superseded: bool,
        until: str | None,
        expires: str | None,
        since: str,
        raw: str,
    ) -> None:
        self.score = score
        self.day = day
        self.filed_key = filed_key
        self.superseded = superseded
        self.until = until
        self.expires = expires
        self.since = since
        self.raw = raw

    def hit(self) -> Hit:
        """The Hit, with this match's score. Raises ValueError, TypeError or
        KeyError for a row that does not decode (a damaged index)."""
        import json

        return Hit(**{**json.loads(self.raw), "score": self.score})


def pick(
    matches: Iterable[Match],
    today: str,
    pending: Mapping[str, str],
    limit: int | None,
    everything: bool = False,
    retired: Mapping[str, str] | None = None,
    filed: Collection[tuple[str, str]] = (),
) -> list[Hit]:
    """The hits a recall answers with, from ``matches`` in rank order.

    ``matches`` come best BM25 first, then newest first (the index orders
    them); this reads only as many as it keeps. A plain recall (``everything``
    False) keeps current facts, unkeyed note entries, and of a durable key's
    note entries only the one ``pending`` names (key -> its ``since``): the
    newest, when promote has not filed it yet. MEMORY.md speaks for a key's
    filed values; an older note copy would answer with a stale value. While
    a key's newer note is pending, MEMORY.md's value for the key comes after
    every other hit: it is the one that note replaces. A note entry promote
    filed (``filed``: (note path, value as ``plain_value`` gives it) of the
    current MEMORY.md entries from notes) answers as that entry only. Note
    entries ``forget`` retired (``retired``: their marks -> when, see
    ``gardener.formats.retired``) are left out, when written before that. ``everything`` keeps every match, a
    retired note entry with status "retired". A value a removal ended
    answers after the others, status "ended" (its ``until`` says when), unless
    its key holds a value again. ``today`` is a valid-time string (local time).
    """
    hits: list[Hit] = []
    replaced: list[Hit] = []  # MEMORY.md values a pending note replaces
    ended: list[tuple[str | None, Hit]] = []  # values a removal ended, by key
    answered: set[str] = set()  # keys a current value or a pending note answers
    for m in matches:
        if limit and len(hits) >= limit:
            break
        if not everything and m.day is None and m.superseded and _ENDED in m.raw:
            # what a removal ended answers after the rest, saying so and when,
            # unless the key holds a value again
            ended.append((m.filed_key, m.hit()))
            continue
        if everything or (
            current_at(m.superseded, m.until, m.expires, today)
            if m.day is None
            else (m.filed_key is None or pending.get(m.filed_key) == m.since)
            and current_at(False, None, m.expires, today)  # a note may expire too
        ):
            hit = m.hit()
            if (
                everything
                and m.day is None
                and hit.status == "current"
                and not current_at(m.superseded, m.until, m.expires, today)
            ):  # what MEMORY.md calls current may have expired since
                hit = hit.with_status("expired")
            when = retired.get(mark(hit.path, hit.value)) if retired and m.day else None
            if when is not None and before(hit.since, when):
                if not everything:
                    continue
                hit = hit.with_status("retired")
            if not everything:
                if m.day is None and m.filed_key is not None and m.filed_key in pending:
                    replaced.append(hit)
                    continue
                if m.day is not None and (hit.path, plain_value(hit.value)) in filed:
                    continue
            if m.filed_key is not None:
                answered.add(m.filed_key)
            hits.append(hit)
    hits += [h for k, h in ended if k not in answered and k not in pending]
    hits = hits[:limit] if limit else hits
    room = len(replaced) if not limit else max(0, limit - len(hits))
    return hits + replaced[:room]


def plain_value(value: str) -> str:
    """A value as compared for sameness: case and runs of spaces ignored."""
    return " ".join(value.casefold().split())


def match_expression(query: str) -> str | None:
    """An FTS5 query matching any word of ``query``; None if it has no word."""
    words = _WORD.findall(query)
    return (
        " OR ".join('"' + w.replace('"', '""') + '"' for w in words) if words else None
    )
