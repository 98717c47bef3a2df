"""One entry line of a daily note: how the gardener writes one, and the
limits on its value (see docs/design.md). Pure.

Apart from ``gardener.formats.dailynote`` because ``gardener note`` renders a
line on every call and must not pay for its dataclasses and regexes at import.
"""

from __future__ import annotations

import re

from gardener.model.kinds import KINDS, canonical_kind

# promote files an entry dated up to this many seconds ahead of now (an
# agent's clock may run a little ahead); one dated later waits for its time,
# and ``note`` refuses it: a note records what happened
FUTURE_SLACK_S = 3600

# One entry holds one fact, and MEMORY.md is read into every prompt: a value
# longer than this is a document, not a fact. ``gardener note`` refuses it and
# promote does not file one written into a note by hand.
MAX_ENTRY_CHARS = 2000


def too_long(value: str) -> str | None:
    """Why an entry's ``value`` may not be written or filed, if it is over
    ``MAX_ENTRY_CHARS``; else None."""
    if len(value) <= MAX_ENTRY_CHARS:
        return None
    return (
        f"{len(value):,} characters, over the limit of {MAX_ENTRY_CHARS:,} for one"
        " entry: split it into facts, each its own note, or keep the document in"
        " a file and note where it is"
    )


def no_value(value: str) -> bool:
    """True if an entry's value (``bare_value``) says nothing: empty, or only
    markup and punctuation (``"**city**: **"``); note refuses it, promote
    rejects it."""
    return not any(ch.isalnum() for ch in value)


def bare_value(text: str) -> str:
    """``text`` without a leading ``kind:`` and ``**key**:`` (or ``**key:**``),
    as the daily-note parser (``gardener.formats.dailynote``) takes them off: what is left is
    the entry's value. ``"fact: **city**: "`` -> ``""``."""
    rest = text.strip()
    head, colon, tail = rest.partition(":")
    # the parser reads a kind only when a space (or the end) follows its colon
    if colon and canonical_kind(head.strip("*")) and tail[:1] in ("", " ", "\t"):
        rest = tail.strip()
    if rest.startswith("**"):
        end = rest.find("**", 2)
        if end > 2:
            name, after = rest[2:end], rest[end + 2 :].lstrip()
            if name.endswith(":"):
                rest = after
            elif after.startswith(":"):
                rest = after[1:].strip()
    return rest


def _without_label(value: str, key: str) -> str:
    """``value`` without a label that repeats ``key`` ("Frontend: htmx" under
    ``--key frontend`` is htmx: the line would read "**frontend**: Frontend:
    htmx"); ``value`` itself when nothing would be left."""
    m = re.match(r"^\*{0,2}([^:*：]{1,80}?)\*{0,2}\s*[:：]\*{0,2}\s+(\S.*)$", value)
    if (
        m
        and " ".join(m.group(1).split()).casefold() == " ".join(key.split()).casefold()
    ):
        return m.group(2)
    return value


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
        value = _without_label(value.strip(), name)
    parts.append(value.strip())
    for name, given in (("source", source), ("by", by), ("expires", expires)):
        if given:
            parts.append(f"({name}: {given})")
    return " ".join(parts)
