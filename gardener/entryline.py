"""One entry line of a daily note: the kinds it may name, and how the
gardener writes one (DESIGN 1.1). Pure.

Apart from ``gardener.model`` and ``gardener.notes`` because ``gardener
note`` renders a line on every call and must not pay for their dataclasses
and regexes at import; both import from here.
"""

from __future__ import annotations

KINDS = (
    "identity",
    "preference",
    "decision",
    "fact",
    "event",
    "state",
    "todo",
    "correction",
)
KIND_ALIASES = {"pref": "preference", "now": "state"}


def canonical_kind(word: str | None) -> str | None:
    """``pref`` -> ``preference``, ``now`` -> ``state``; None for an unknown word."""
    if word is None:
        return None
    low = word.strip().casefold()
    low = KIND_ALIASES.get(low, low)
    return low if low in KINDS else None


def render_entry(
    value: str,
    *,
    time: str | None = None,
    kind: str | None = None,
    key: str | None = None,
    source: str | None = None,
    by: str | None = None,
    expires: str | None = None,
) -> str:
    """One entry line (without newline): ``- HH:MM kind: **key**: value (source: S) ...``.

    Raises ValueError if ``value`` spans lines or ``kind`` is unknown.
    """
    if "\n" in value or "\r" in value:
        raise ValueError("an entry is one line: put each fact in its own note")
    if not all(ch.isprintable() or ch == "\t" for ch in value):
        raise ValueError("an entry is printable text: remove control characters")
    parts = ["-"]
    if time:
        parts.append(time)
    if kind:
        canon = canonical_kind(kind)
        if canon is None:
            raise ValueError(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
        parts.append(f"{canon}:")
    if key:
        # "- **state**: x" reads as the kind state; "- **state:** x" is the key
        name = key.strip()
        bare = kind is None and canonical_kind(name) is not None
        parts.append(f"**{name}:**" if bare else f"**{name}**:")
    parts.append(value.strip())
    for name, given in (("source", source), ("by", by), ("expires", expires)):
        if given:
            parts.append(f"({name}: {given})")
    return " ".join(parts)
