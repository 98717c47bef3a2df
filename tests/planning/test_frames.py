"""Change and removal frames: a value a frame reads is whole, and whether the
frame is all the text says (see docs/design.md, "Changes and removals")."""

from __future__ import annotations

import pytest

from gardener.lexicon.words import lexicon
from gardener.planning.frames import read_frame


@pytest.mark.parametrize(
    ("text", "new", "whole"),
    [
        ("Fly.io → Hetzner", "Hetzner", True),
        ("switched from Postgres to SQLite.", "SQLite", True),
        ("migrated to Hetzner (cheaper)", "Hetzner", True),
        ("removes the last word from the code to create an id", "create an id", False),
    ],
)
def test_a_frame_says_whether_it_is_the_whole_text(text, new, whole):
    frame = read_frame(text, lexicon())
    assert frame is not None and (frame.new, frame.whole) == (new, whole)


@pytest.mark.parametrize(
    "text",
    [
        "replaced `list(set(...))` with `list(dict.fromkeys(...))` to keep order",
        "switched to foo(bar. baz)",
    ],
)
def test_a_value_cut_inside_code_or_brackets_is_no_value(text):
    frame = read_frame(text, lexicon())
    assert frame is None or frame.new is None
