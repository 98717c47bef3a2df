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


def test_a_label_repeating_the_key_is_not_written_twice() -> None:
    # `note --key frontend "Frontend: htmx"` wrote "**frontend**: Frontend: htmx"
    assert render_entry("Frontend: htmx", key="frontend") == "- **frontend**: htmx"
    assert render_entry("**Frontend:** htmx", key="frontend") == "- **frontend**: htmx"
    assert render_entry("Backend: Go", key="frontend") == "- **frontend**: Backend: Go"
    assert render_entry("Frontend:", key="frontend") == "- **frontend**: Frontend:"
