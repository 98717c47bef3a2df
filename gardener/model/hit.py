"""Hit: one recall result, the value recall answers with and forget retires.

Kept free of heavy imports (no dataclasses, typing or pathlib at run time): a
warm ``gardener recall`` loads this module, because interpreter start and
imports are most of its cost (bench/README.md). Hit is therefore a
hand-written frozen value class.
"""

from __future__ import annotations

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
    """One recall result (its JSON shape: see docs/design.md). Immutable; equal when
    every field is.

    ``since``/``until`` are valid-time strings (local time); ``status`` is
    "current", "note" or "curated" (MEMORY.md's text outside the managed
    block: no valid time, ``since`` None), or for as-of and why
    "superseded", "corrected", "retired" or "expired"; "ended" (a removal
    ended it: ``until`` says when) also answers a plain recall and ``--key``
    when the key holds nothing since; ``score`` is BM25, higher is better (0 when not
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
        """The JSON object recall prints, fields in declaration order."""
        return {name: getattr(self, name) for name in _FIELDS}

    def scored(self, score: float) -> Hit:
        """This hit with ``score`` (BM25, higher is better)."""
        return Hit(**{**self.as_dict(), "score": score})  # type: ignore[arg-type]

    def with_status(self, status: str) -> Hit:
        """This hit with ``status`` ("retired" for a note entry forget retired)."""
        return Hit(**{**self.as_dict(), "status": status})  # type: ignore[arg-type]
