"""Notes dated ahead of the clock wait for their time: promote, recall and check agree."""

from __future__ import annotations

import pytest

from gardener import Workspace
from tests.helpers import values, write


@pytest.mark.now("2026-03-01T18:00")
def test_a_note_dated_in_the_future_waits_and_check_says_so(ws: Workspace):
    write(ws, "2027-02-20.md", "- decision: **database**: Postgres\n")
    ws.promote()
    ws.note("SQLite", kind="decision", key="database")
    ws.promote()
    assert values(ws, "database") == ["SQLite"]
    assert [(p.kind, p.path) for p in ws.check()] == [("parse", "memory/2027-02-20.md")]


@pytest.mark.now("2026-03-01T18:00")
def test_far_future_note_in_a_zone_behind_utc(ws: Workspace):
    write(
        ws,
        "9999-12-31.md",
        "---\ntimezone: Pacific/Honolulu\n---\n- 23:30 decision: **database**: SQLite\n",
    )
    ws.promote()  # no overflow converting the year 9999 to UTC
    # it waits for its time: not filed, and no key's latest word before it
    assert "SQLite" not in (ws.root / "MEMORY.md").read_text()
    assert ws.recall("database") == []


@pytest.mark.now("2026-03-01T18:00")
def test_a_value_dated_tomorrow_is_not_current_today(ws: Workspace, run_cli):
    """A note dated tomorrow was filed at once and answered as current "since"
    tomorrow, while --as-of now answered the old value (new-user trial)."""
    ws.now_override = "2026-03-10T12:00"
    ws.note("decision: **database**: Postgres", day="2026-03-09")
    from gardener.errors import UsageError

    with pytest.raises(UsageError, match="later than now"):
        ws.note("decision: **database**: SQLite", day="2026-03-11")
    (ws.root / "memory" / "2026-03-11.md").write_text(
        "- 12:00 decision: **database**: SQLite\n", encoding="utf-8"
    )
    ws.promote()
    assert [h.value for h in ws.recall(key="database")] == ["Postgres"]
    assert [
        h.value for h in ws.recall(key="database", as_of_time="2026-03-10T12:00")
    ] == ["Postgres"]
    assert any(p.path == "memory/2026-03-11.md" for p in ws.check())
    ws.now_override = "2026-03-11T12:30"
    ws.promote()
    assert [h.value for h in ws.recall(key="database")] == ["SQLite"]


@pytest.mark.now("2026-03-01T18:00")
def test_a_note_entry_dated_later_today_does_not_answer_before_its_time(
    ws: Workspace, run_cli
):
    """(breaker) A hand-written "20:00" entry answered at noon as the key's
    latest word, above the current value, while --key and why said otherwise;
    and check called a note for just after midnight "in the future" though
    promote files it within the hour."""
    ws.now_override = "2026-03-10T09:00"
    ws.note("decision: **cache**: Memcached")
    ws.promote()
    with open(ws.root / "memory" / "2026-03-10.md", "a", encoding="utf-8") as out:
        out.write("- 20:00 decision: **cache**: Redis\n")
    ws.now_override = "2026-03-10T12:00"
    assert [(h.value, h.status) for h in ws.recall("cache")] == [
        ("Memcached", "current")
    ]
    ws.now_override = "2026-03-10T20:30"
    assert [h.value for h in ws.recall("cache")][0] == "Redis"
    ws.now_override = "2026-03-10T23:30"
    ws.note("decision: **editor**: vim", day="2026-03-11", time="00:10")
    assert not [p for p in ws.check() if "in the future" in p.message]
