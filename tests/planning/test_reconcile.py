"""The reconciliation timeline: order in a note, back-dated and back-filled values,
switching back, and the duplicate index."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener import Workspace
from gardener.store.settings import default_config
from tests.helpers import values, write


@pytest.mark.now("2026-03-01T18:00")
def test_an_untimed_entry_after_a_timed_one_is_later(ws: Workspace):
    write(
        ws,
        "2026-03-01.md",
        "- 09:00 decision: **database**: Postgres\n- decision: **database**: SQLite\n- 14:00 fact: **host**: box2\n- correction: **host**: box7\n",
    )
    ws.promote()
    assert values(ws, "database") == ["SQLite"]
    assert values(ws, "host") == ["box7"]


@pytest.mark.now("2026-03-01T18:00")
def test_a_back_dated_correction_corrects_the_value_of_its_day(ws: Workspace):
    write(ws, "2026-02-01.md", "- decision: **database**: SQLite\n")
    write(ws, "2026-02-10.md", "- decision: **database**: Postgres\n")
    ws.promote()
    write(
        ws,
        "2026-02-05.md",
        "---\nrecorded: 2026-03-01\n---\n- correction: **database**: MySQL\n",
    )
    ws.promote()
    assert values(ws, "database") == ["Postgres"]
    assert values(ws, "database", "2026-02-03") == ["MySQL"]
    assert ws.check() == []


@pytest.mark.now("2026-03-01T18:00")
def test_a_back_fill_after_an_expired_value_stays_history(ws: Workspace):
    write(
        ws,
        "2026-02-10.md",
        "- fact: **office wifi**: guest-net (expires: 2026-02-20)\n",
    )
    ws.promote()
    write(ws, "2026-02-01.md", "- fact: **office wifi**: old-net\n")
    ws.promote()
    assert values(ws, "office wifi") == []
    assert values(ws, "office wifi", "2026-02-15") == ["guest-net"]
    assert values(ws, "office wifi", "2026-02-05") == ["old-net"]


@pytest.mark.now("2026-03-01T18:00")
def test_switching_back_with_the_same_line_in_one_note(ws: Workspace):
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text("- decision: **database**: SQLite\n")
    ws.promote()
    with open(note, "a") as f:
        f.write("- decision: **database**: Postgres\n")
    ws.promote()
    with open(note, "a") as f:
        f.write("- decision: **database**: SQLite\n")
    ws.promote()
    assert values(ws, "database") == ["SQLite"]


_PHRASES = [
    "tabs rather than spaces",
    "spaces rather than tabs",
    "deploys go out on Tuesdays",
    "deploys go out on Tuesday",
    "deploys go out on Thursdays",
    "the 2 staging boxes run v1.2",
    "the 2 staging boxes run v1.3",
    "box2",
]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_PHRASES) | st.text(max_size=30),
            st.sampled_from(["Facts", "Superseded", "Preferences"]),
            st.sampled_from([None, "2026-01-01", "2027-01-01"]),
        ),
        max_size=12,
    ),
    st.sampled_from(_PHRASES) | st.text(max_size=30),
)
def test_the_duplicate_index_finds_what_a_scan_of_every_fact_finds(facts, query):
    from gardener.model.facts import Fact, Memory
    from gardener.model.validtime import is_current
    from gardener.planning.reconcile import Reconciliation
    from gardener.planning.sameness import same_value

    memory = Memory(
        head="",
        facts=tuple(
            Fact(value, section=section, attrs={"until": until} if until else {})
            for value, section, until in facts
        ),
    )
    today = "2026-06-01"
    work = Reconciliation(memory, default_config(), today)
    scan = (
        f for f in memory.facts if is_current(f, today) and same_value(f.value, query)
    )
    assert work.duplicate(query) is next(scan, None)
