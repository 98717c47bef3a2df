"""A deleted begin marker: the entries above the end marker are still the
block (``formats.memoryfile._lost_begin``), and rendering puts the marker back."""

from __future__ import annotations

from gardener.formats.memoryfile import BEGIN, parse_memory, render_memory

BLOCK = (
    "## Decisions\n"
    "- **database**: Postgres {#m1 since=2026-03-01T12:00}\n"
    "  - chosen for the billing service\n"
    "\n"
    "## Facts\n"
    "- **host**: box1 {#m2 since=2026-03-01T12:00}\n"
    "<!-- gardener:end -->\n"
)


def test_a_deleted_begin_marker_keeps_the_entries_in_the_block():
    text = "# Memory\n\nWritten by hand.\n\n" + BLOCK + "\nafter\n"
    memory = parse_memory(text)
    assert [f.key for f in memory.facts] == ["database", "host"]
    assert memory.facts[0].tail == ("  - chosen for the billing service",)
    assert memory.begin == "" and memory.head == "# Memory\n\nWritten by hand.\n\n"
    assert (
        render_memory(memory)
        == "# Memory\n\nWritten by hand.\n\n" + BEGIN + "\n" + BLOCK + "\nafter\n"
    )


def test_a_persons_own_heading_above_stays_theirs():
    text = "## My own notes\n" + BLOCK
    memory = parse_memory(text)
    assert memory.head == "## My own notes\n"
    assert render_memory(memory).startswith("## My own notes\n" + BEGIN + "\n")


def test_an_end_marker_with_no_entries_above_is_just_text():
    text = "just text\n<!-- gardener:end -->\n"
    memory = parse_memory(text)
    assert not memory.has_block and memory.head == text


def test_a_block_at_the_top_of_the_file():
    memory = parse_memory(BLOCK)
    assert memory.head == "" and len(memory.facts) == 2
    assert render_memory(memory) == BEGIN + "\n" + BLOCK
