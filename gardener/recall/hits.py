"""What a recall answers with (DESIGN 2.4, the JSON shape of DESIGN 5): Hit,
and the choice of hits among the recall index's matches (pure).

Kept free of heavy imports (no dataclasses, typing or pathlib at run time):
a warm ``gardener recall`` loads this module and ``gardener.recall.index`` and
little else, because interpreter start and imports are most of its cost
(bench/README.md). Hit is therefore a hand-written frozen value class.
"""

from __future__ import annotations

import re

from gardener.model.validtime import current_at
from gardener.store.retired import before, mark

TYPE_CHECKING = False  # typing costs ~4 ms to import; mypy and ruff read this as usual
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

_WORD = re.compile(r"\w+", re.UNICODE)
_FIELDS = (
    "key",
    "value",
    "text",
    "kind",
    "since",
    "until",
    "status",
    "score",
    "path",
    "line",
    "id",
    "origin",
)


class Hit:
    """One recall result (the JSON shape of DESIGN 5). Immutable; equal when
    every field is.

    ``since``/``until`` are valid-time strings (local time); ``status`` is
    "current" or "note", or for as-of and why "superseded", "corrected",
    "retired" or "expired"; ``score`` is BM25, higher is better (0 when not
    ranked); ``line`` is 1-based in ``path``; ``origin`` is the daily note a
    MEMORY.md fact came from.
    """

    __slots__ = _FIELDS
    key: str | None
    value: str
    text: str
    kind: str | None
    since: str | None
    until: str | None
    status: str
    score: float
    path: str
    line: int
    id: str | None
    origin: str | None

    def __init__(
        self,
        key: str | None,
        value: str,
        text: str,
        kind: str | None,
        since: str | None,
        until: str | None,
        status: str,
        score: float,
        path: str,
        line: int,
        id: str | None = None,  # noqa: A002 - the JSON field's name
        origin: str | None = None,
    ) -> None:
        given = (
            key,
            value,
            text,
            kind,
            since,
            until,
            status,
            score,
            path,
            line,
            id,
            origin,
        )
        for name, field in zip(_FIELDS, given, strict=True):
            object.__setattr__(self, name, field)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Hit is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Hit is immutable: cannot delete {name!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hit):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in _FIELDS)
        return f"Hit({inner})"

    def as_dict(self) -> dict[str, object]:
        """The JSON object of DESIGN 5, fields in declaration order."""
        return {name: getattr(self, name) for name in _FIELDS}

    def scored(self, score: float) -> Hit:
        """This hit with ``score`` (BM25, higher is better)."""
        return Hit(**{**self.as_dict(), "score": score})  # type: ignore[arg-type]

    def with_status(self, status: str) -> Hit:
        """This hit with ``status`` ("retired" for a note entry forget retired)."""
        return Hit(**{**self.as_dict(), "status": status})  # type: ignore[arg-type]


class Match:
    """A search result of the recall index: what deciding needs, its BM25
    score (higher is better), and its Hit as JSON, decoded only if kept.

    ``day`` is the note's ISO date (None for MEMORY.md); ``filed_key`` a note
    entry's durable key, or a MEMORY.md entry's key (normalized); ``until``/``expires`` valid-time strings; ``since``
    as ``recall.sort_key`` writes it (text that sorts by time).
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
    ``gardener.store.retired``) are left out, when written before that. ``everything`` keeps every match, a
    retired note entry with status "retired". ``today`` is a valid-time
    string (local time).
    """
    hits: list[Hit] = []
    replaced: list[Hit] = []  # MEMORY.md values a pending note replaces
    for m in matches:
        if limit and len(hits) >= limit:
            break
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
            hits.append(hit)
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
