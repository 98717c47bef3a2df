"""What a recall answers with: the choice of hits (``gardener.model.hit``)
among the recall index's matches (pure; see docs/design.md).

Kept free of heavy imports (no dataclasses, typing or pathlib at run time):
a warm ``gardener recall`` loads this module and ``gardener.recall.index`` and
little else, because interpreter start and imports are most of its cost
(bench/README.md; docs/internals.md, Hot path).
"""

from __future__ import annotations

from gardener.formats.retired import before, mark
from gardener.model.hit import Hit
from gardener.model.validtime import current_at

TYPE_CHECKING = False  # typing costs ~4 ms to import; mypy and ruff read this as usual
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

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
    retired note entry with status "retired". A curated line of MEMORY.md
    (status "curated") with a key comes after the other hits of its key,
    and after every hit while a note of the key is pending. A value a
    removal ended answers after the others, status "ended" (its ``until``
    says when), unless its key holds a value again. ``today`` is a
    valid-time string (local time).
    """
    hits: list[Hit] = []
    keys: list[str | None] = []  # each hit's key, normalized (None: unkeyed)
    # MEMORY.md values a pending note replaces, with their keys
    replaced: list[tuple[Hit, str | None]] = []
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
                    replaced.append((hit, m.filed_key))
                    continue
                if m.day is not None and (hit.path, plain_value(hit.value)) in filed:
                    continue
            if m.filed_key is not None:
                answered.add(m.filed_key)
            hits.append(hit)
            keys.append(m.filed_key)
    for key, hit in ended:
        if key not in answered and key not in pending:
            hits.append(hit)
            keys.append(key)
    if limit:
        hits, keys = hits[:limit], keys[:limit]
    room = len(replaced) if not limit else max(0, limit - len(hits))
    for hit, key in replaced[:room]:
        hits.append(hit)
        keys.append(key)
    return _curated_last(hits, keys)


def _curated_last(hits: list[Hit], keys: list[str | None]) -> list[Hit]:
    """``hits`` with each curated hit of a key moved after the last other hit
    of that key (``keys``: each hit's normalized key): a line outside the
    managed block has no valid time, and the block's value, or a note's
    newer one, is what the gardener keeps current."""
    last = {k: i for i, (h, k) in enumerate(zip(hits, keys, strict=True))
            if k is not None and h.status != "curated"}  # fmt: skip
    if not last:
        return hits
    out: list[Hit] = []
    waiting: dict[str, list[Hit]] = {}
    for i, (hit, key) in enumerate(zip(hits, keys, strict=True)):
        if key is not None and hit.status == "curated" and last.get(key, -1) > i:
            waiting.setdefault(key, []).append(hit)
            continue
        out.append(hit)
        if key is not None and last.get(key) == i:
            out += waiting.pop(key, [])
    return out


def plain_value(value: str) -> str:
    """A value as compared for sameness: case and runs of spaces ignored."""
    return " ".join(value.casefold().split())
