"""``check``'s contradictions: two current entries that say the opposite."""

from __future__ import annotations

from datetime import datetime

from gardener.formats.memoryfile import parse_memory
from gardener.planning.check import contradictions, memory_problems
from gardener.store.settings import default_config

BLOCK = """# Memory

<!-- gardener:begin -->
## Preferences
- Sam loves coffee {#m1 since=2026-01-10}
- Sam hates coffee now {#m2 since=2026-02-10}
- Mira started running {#m3 since=2026-01-10}

## Superseded
- ~~Mira stopped running~~ {#m4 since=2026-01-01 until=2026-01-10 kind=preference}
<!-- gardener:end -->
"""


def test_opposite_current_entries_are_a_conflict():
    memory = parse_memory(BLOCK)
    (problem,) = contradictions(memory, "2026-03-01")
    assert (problem.kind, problem.line) == ("conflict", 5)
    assert "line 6" in problem.message and "Sam hates coffee now" in problem.message


def test_check_reports_them():
    memory = parse_memory(BLOCK)
    found = memory_problems(memory, default_config(), datetime(2026, 3, 1))
    assert [p.line for p in found if p.kind == "conflict"] == [5]


def test_a_superseded_opposite_is_no_conflict():
    memory = parse_memory(
        BLOCK.replace("- Sam hates coffee now {#m2 since=2026-02-10}\n", "")
    )
    assert contradictions(memory, "2026-03-01") == []


def test_metadata_that_does_not_read_is_a_problem_naming_its_line():
    # a breaker's edit: the entry lost its id and its metadata became its value
    text = (
        "<!-- gardener:begin -->\n## Facts\n"
        "- **cache**: Redis {#m9156e since=notadate foo=bar {{ from=x}\n"
        "- **db**: SQLite {#m1 since=2026-03-01}\n<!-- gardener:end -->\n"
    )
    found = [
        (p.line, p.message[:30])
        for p in memory_problems(
            parse_memory(text), default_config(), datetime(2026, 3, 9)
        )
        if "metadata does not read" in p.message
    ]
    assert found == [(3, "this entry's {#id ...} metadat")]


def test_a_hand_written_entry_under_superseded_is_said_not_current():
    # a new user added "- **editor**: Helix" just above the end marker
    text = (
        "<!-- gardener:begin -->\n## Facts\n- **db**: SQLite {#m1 since=2026-03-01}\n\n"
        "## Superseded\n- ~~**db**: Postgres~~ {#m0 since=2026-01-01 until=2026-03-01}\n"
        "- **editor**: Helix\n<!-- gardener:end -->\n"
    )
    found = [
        p.line
        for p in memory_problems(
            parse_memory(text), default_config(), datetime(2026, 3, 9)
        )
        if "under Superseded" in p.message
    ]
    assert found == [7]


def test_two_values_of_one_minute_from_two_notes_are_a_conflict():
    # a breaker's two clones filed Redis and Memcached for 10:00; the merge
    # kept one current and nothing said so
    text = (
        "<!-- gardener:begin -->\n## Facts\n"
        "- **cache**: Memcached {#m2 since=2026-03-01T10:00 from=memory/2026-03-01-b.md supersedes=m1}\n\n"
        "## Superseded\n"
        "- ~~**cache**: Redis~~ {#m1 since=2026-03-01T10:00 until=2026-03-01T10:00"
        " from=memory/2026-03-01.md superseded-by=m2}\n<!-- gardener:end -->\n"
    )
    found = [
        (p.kind, p.line)
        for p in memory_problems(
            parse_memory(text), default_config(), datetime(2026, 3, 9)
        )
        if "took two values" in p.message
    ]
    assert found == [("conflict", 3)]
