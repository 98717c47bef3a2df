"""The reconciliation timeline through promote: order in a note, back-dated and back-filled values."""

from __future__ import annotations

import pytest

from gardener import Workspace
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
