"""Exact duplicate blocks in a note: a second flush of the same lines is found."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.planning.duplicates import repeated_blocks

BLOCK = "## Session summary\n- deployed v0.3 to staging\n- the flaky test is back\n"


def test_a_block_flushed_twice_is_found_with_its_lines():
    text = "# 2026-01-05\n\n" + BLOCK + BLOCK
    assert repeated_blocks(text) == [(6, 8, 3)]
    crlf = text.replace("\n", "\r\n")
    assert repeated_blocks(crlf) == [(6, 8, 3)]


def test_short_or_single_repeats_are_not_blocks():
    assert repeated_blocks("- ok\n- ok\n- ok\n- ok\n") == []  # too short to matter
    one = "- the build runs on Fridays at noon\n"
    assert (
        repeated_blocks(one + "- other\n" + one) == []
    )  # one line: a repeat, no block
    assert repeated_blocks("") == []


_LINE = st.sampled_from(
    ["- a fact about the build", "- b", "", "## h", "text line here"]
)


@settings(max_examples=300)
@given(st.lists(_LINE, max_size=6), st.lists(_LINE, min_size=3, max_size=6))
def test_a_repeated_block_is_always_reported(head: list[str], block: list[str]):
    body = "\n".join(block) + "\n"
    filled = [x for x in block if x.strip()]
    text = "\n".join(head) + ("\n" if head else "") + body + body
    found = repeated_blocks(text)
    for first, last, origin in found:
        lines = text.split("\n")
        assert (
            lines[first - 1 : last] == lines[origin - 1 : origin - 1 + last - first + 1]
        )
        assert origin + (last - first) < first  # the earlier copy ends before
    if len(filled) >= 2 and sum(map(len, filled)) >= 40:
        assert found
