"""The kind a heading gives, as ``gardener note`` reads it: the same as
promotion's (see docs/design.md, Note)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.model.facts import Entry
from gardener.planning.classify import placed
from gardener.planning.headings import heading_words
from gardener.planning.headingwords import heading_kind
from gardener.store.settings import default_config

RULES = default_config()
# what note matches: rules.md's heading words and the lexicon's (with plurals)
TABLE = heading_words(RULES)
WORDS = sorted({w for words in TABLE.values() for w in words if w.isascii()})


def promoted_kind(heading: str) -> str | None:
    """The kind promotion gives a cue-less entry under ``heading`` by it."""
    entry = Entry(
        path="memory/2026-01-05.md",
        line=2,
        day=date(2026, 1, 5),
        text="xyzzy",
        value="xyzzy",
        heading=heading,
        headings=(heading,),
    )
    kind, _, rule = placed(entry, RULES)
    return kind if rule == "heading" else None


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("Log", "event"),
        ("Session log (afternoon)", "event"),
        ("Decisions", "decision"),
        ("TODO", "todo"),
        ("Notes to self", "fact"),
        ("Project Heron", None),
        ("Catalogue", None),  # a word inside another word is not that word
        ("Systemstatus", "state"),  # but German joins a heading word to its subject
        ("Architekturentscheidungen", "decision"),
        ("Wochenprotokoll (KW 12)", "event"),
        ("Katalog", None),  # "log" is too short to end a compound
        ("Status", "state"),
        ("09:30", None),  # the section ``gardener note`` writes
        ("2026-01-05", None),
    ],
)
def test_heading_kinds(heading, kind):
    assert heading_kind(heading, TABLE.items()) == kind
    assert promoted_kind(heading) == kind


@settings(max_examples=300, deadline=None)  # a shared machine: speed is the bench's
@given(
    st.lists(st.sampled_from(WORDS) | st.text(max_size=8), min_size=1, max_size=5).map(
        " ".join
    )
)
def test_note_and_promotion_read_a_heading_alike(heading):
    # note needs only whether a heading gives a kind (then it writes its own)
    assert (heading_kind(heading, TABLE.items()) is None) == (
        promoted_kind(heading) is None
    )
