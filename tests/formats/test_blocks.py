"""A daily note's open headings and code fence at its end, as its parser reads
them (what ``gardener note`` appends after)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.formats.blocks import split_front_matter, tail
from gardener.formats.dailynote import parse_note

PROBE = "- probe entry"


def test_the_open_headings_outermost_first():
    text = "# 2026-01-05\n\n## Log\n### Deploys ###\n- x\n## Todo\n- y\n"
    assert tail(text) == ([(1, "2026-01-05"), (2, "Todo")], None)


@pytest.mark.parametrize(
    ("text", "fence"),
    [
        ("# t\n```sh\nrm -rf build\n", (2, "", "```")),
        ("- item\n  ~~~~\n  code\n  ~~~\n", (2, "  ", "~~~~")),
        ("```\n# not a heading\n```\n````\n", (4, "", "````")),
        ("\ufeff```\n", (1, "", "```")),
    ],
)
def test_an_open_fence_is_found_with_its_line_and_marker(text, fence):
    assert tail(text)[1] == fence


def test_a_closed_fence_hides_its_headings():
    assert tail("# t\n```\n# code comment\n```\n") == ([(1, "t")], None)


def test_a_fence_with_an_info_string_does_not_close_one():
    assert tail("```\ncode\n``` python\n")[1] == (1, "", "```")


def test_front_matter_comments_are_not_headings():
    text = "---\nagent: atlas\n# a YAML comment\n---\n# 2026-01-05\n"
    assert tail(text) == ([(1, "2026-01-05")], None)
    assert split_front_matter(text) == ("agent: atlas\n# a YAML comment", 4)


def test_crlf_lines():
    assert tail("# t\r\n## Log\r\n```\r\n") == ([(1, "t"), (2, "Log")], (3, "", "```"))


_FRAGMENTS = st.sampled_from(
    [
        "- ", "  ", "    ", "\t", "# ", "## ", "###### ", "####### ", "#", "```",
        "````", "~~~", "``` x", "---", "\n", "\r\n", "\r", "x", "Log", "中文",
        "\ufeff", " #", "\x0b", "\u2028", "\x85",
    ]
)  # fmt: skip


@settings(max_examples=500)
@given(st.lists(_FRAGMENTS | st.text(max_size=4), max_size=60).map("".join))
def test_tail_agrees_with_the_parser(text):
    """An entry appended after ``text`` sits under the headings ``tail`` finds,
    and is no entry at all when ``tail`` finds a fence open."""
    if split_front_matter(text)[1]:
        text = "\n" + text  # the parser would load it as YAML: not the point here
    headings, fence = tail(text)
    entries = parse_note("memory/2026-01-05.md", date(2026, 1, 5), f"{text}\n{PROBE}\n")
    last = entries.entries[-1] if entries.entries else None
    if fence is not None:
        assert last is None or last.value != "probe entry" or last.nested
    else:
        assert last is not None and last.text == "probe entry"
        assert last.headings == tuple(t for _, t in headings if t)


def test_front_matter_to_the_end_of_the_file():
    assert tail("---\nagent: a\n---") == ([], None)
