"""The facade end to end: stories that run several verbs on one Workspace."""

from __future__ import annotations

from pathlib import Path

from gardener import RefusedError, Workspace
from tests.helpers import at, git, new_workspace


def test_monday_postgres_friday_sqlite(ws: Workspace):
    at(ws, "2026-01-12T09:00").note(
        "use Postgres", kind="decision", key="database", day="2026-01-12", time="09:00"
    )
    at(ws, "2026-01-12T18:00").promote()
    at(ws, "2026-01-16T16:00").note(
        "switch to SQLite",
        kind="decision",
        key="database",
        day="2026-01-16",
        time="16:00",
    )
    at(ws, "2026-01-16T18:00").promote()
    assert [h.value for h in ws.recall(key="database")] == ["switch to SQLite"]
    assert [h.value for h in ws.recall(key="Database", as_of_time="2026-01-14")] == [
        "use Postgres"
    ]
    history = ws.why("database")
    assert [(r.hit.value, r.hit.status) for r in history] == [
        ("use Postgres", "superseded"),
        ("switch to SQLite", "current"),
    ]
    assert all(r.commit for r in history)
    assert history[0].commit != history[1].commit


def test_tier2_renewal_price_today_as_of_february_then_pruned(ws: Workspace):
    at(ws, "2026-01-12T12:00").note(
        "$4,200",
        key="Tier 2 renewal / list price",
        kind="fact",
        source="pricing-sheet",
        by="pricing-team",
        day="2026-01-12",
        time="",
    )
    at(ws, "2026-01-12T12:00").promote()
    at(ws, "2026-03-03T12:00").note(
        "$3,600",
        key="Tier 2 renewal / list price",
        kind="fact",
        source="pricing-sheet",
        by="pricing-team",
        day="2026-03-03",
        time="",
    )
    at(ws, "2026-03-03T12:00").promote()
    assert [h.value for h in ws.recall(key="tier 2 renewal / list price")] == ["$3,600"]
    feb = ws.recall(key="Tier 2 renewal / list price", as_of_time="2026-02-09")
    assert [(h.value, h.since, h.until) for h in feb] == [
        ("$4,200", "2026-01-12", "2026-03-03")
    ]
    assert [h.value for h in ws.recall("Tier 2 renewal price")][:1] == ["$3,600"]
    # the retention (90 days) counts from `until`: kept on 2026-05-31, gone on 2026-06-02
    assert at(ws, "2026-05-31T12:00").prune().as_dict()["superseded_removed"] == 0
    pruned = at(ws, "2026-06-02T12:00").prune()
    assert pruned.as_dict()["superseded_removed"] == 1
    assert ws.recall(key="Tier 2 renewal / list price", as_of_time="2026-02-09") == []
    assert "$4,200" in git(ws.root, "log", "-p", "MEMORY.md")  # still in git history
    # and `why` still tells the whole story, from the prune commit's diff
    story = [
        (r.hit.value, r.hit.status, r.hit.until)
        for r in ws.why("tier 2 renewal / list price")
    ]
    assert story == [("$4,200", "pruned", "2026-03-03"), ("$3,600", "current", None)]
    first = ws.why("Tier 2 renewal / list price")[0]
    assert first.removed_in == pruned.commit and first.commit is not None


def test_day_40_lesson_ttl_refusals_and_ranking(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-01-01T08:00")
    day = lambda n: f"2026-01-{n + 1:02d}" if n < 31 else f"2026-02-{n - 30:02d}"  # noqa: E731
    stored = 0
    for text, n in [
        ("deploy to staging on friday", 5),
        ("staging server is called box7", 20),
        ("deploy needs two approvals", 33),
        ("my password is hunter2", 38),
        ("email me at someone@example.org", 38),
        ("deploy staging fix is merged", 39),
    ]:
        try:
            at(ws, f"{day(n)}T12:00").note(text, day=day(n), time="12:00")
            stored += 1
        except RefusedError:
            pass
    assert stored == 4
    hits = at(ws, day(40) + "T12:00").recall("deploy staging")
    assert [h.text.split(" ", 1)[1] for h in hits] == [
        "deploy staging fix is merged",
        "deploy needs two approvals",
        "staging server is called box7",
    ]
    assert len({h.path for h in hits}) == 3  # the day-5 note is past its TTL
