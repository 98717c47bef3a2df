"""One entry line as ``gardener note`` writes it: render_entry, and what it refuses."""

from __future__ import annotations

import pytest

from gardener.formats.entryline import render_entry


@pytest.mark.parametrize(
    ("args", "line"),
    [
        ({"value": "SQLite"}, "- SQLite"),
        (
            {
                "value": "SQLite",
                "time": "09:30",
                "kind": "pref",
                "key": " database ",
                "source": "standup",
                "by": "mira",
                "expires": "2026-12-31",
            },
            "- 09:30 preference: **database**: SQLite (source: standup) (by: mira) (expires: 2026-12-31)",
        ),
        ({"value": "  padded  ", "kind": "now"}, "- state: padded"),
        # a key that is also a kind word: "**state**: x" would read as the kind
        ({"value": "frozen", "key": "state"}, "- **state:** frozen"),
        (
            {"value": "frozen", "key": "state", "kind": "fact"},
            "- fact: **state**: frozen",
        ),
    ],
)
def test_render_entry(args, line):
    assert render_entry(**args) == line


@pytest.mark.parametrize(
    "args",
    [{"value": "two\nlines"}, {"value": "cr\rline"}, {"value": "x", "kind": "opinion"}],
)
def test_render_entry_refuses(args):
    with pytest.raises(ValueError):
        render_entry(**args)
