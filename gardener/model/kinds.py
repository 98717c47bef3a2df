"""The kinds an entry may have, the words that name them, and MEMORY.md's
section for each.

Cheap to import (no imports at all): ``gardener note`` renders a kind on every
call.
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
# the kinds promote files into MEMORY.md unless rules.md says otherwise
DURABLE_KINDS = ("identity", "preference", "decision", "fact")

# MEMORY.md sections, in the order they are rendered; the kind each one holds.
SECTION_OF_KIND = {
    "identity": "Identity",
    "preference": "Preferences",
    "decision": "Decisions",
    "fact": "Facts",
    "event": "Events",
}
KIND_OF_SECTION = {title.casefold(): kind for kind, title in SECTION_OF_KIND.items()}
# the section a replaced, corrected or retired entry moves to, rendered last
SUPERSEDED = "Superseded"


def canonical_kind(word: str | None) -> str | None:
    """``pref`` -> ``preference``, ``now`` -> ``state``; None for an unknown word."""
    if word is None:
        return None
    low = word.strip().casefold()
    low = KIND_ALIASES.get(low, low)
    return low if low in KINDS else None
