"""A removal through the whole tool (issue 14, item 4): noted in the explicit
form, promoted, then asked about by recall, --key, --as-of and why; the
commit says what ended; the loss budget counts ends; keys written another way
find the same value."""

from __future__ import annotations

import json

import pytest

from gardener import Workspace
from gardener.errors import LossBudgetError
from tests.helpers import at, git, values, write

CACHE = "- 10:15 decision: **cache**: Redis\n- 10:20 decision: **database**: Postgres\n"


def _dropped(ws: Workspace) -> None:
    write(ws, "2026-01-12.md", CACHE)
    ws.promote()
    at(ws, "2026-01-20T09:00")
    ws.note("(none)", key="cache", kind="decision")
    at(ws, "2026-01-25T12:00")


@pytest.mark.now("2026-01-12T18:00")
def test_a_noted_removal_ends_the_value_and_the_commit_says_so(ws: Workspace):
    _dropped(ws)
    result = ws.promote()
    assert result.as_dict()["ended"] == ["cache"]
    assert result.plan.keys("end") == ["cache"]
    message = git(ws.root, "log", "-1", "--format=%B")
    assert message.startswith("promote: 1 ended\n")
    assert "Ended:\n- cache: Redis (memory/2026-01-20.md:" in message
    assert "Gardener-Keys: cache" in message
    assert values(ws, "database") == ["Postgres"]
    assert ws.check() == []
    again = ws.promote()
    assert again.commit is None or not again.plan.changed


@pytest.mark.now("2026-01-12T18:00")
def test_recall_says_a_value_ended_and_when(ws: Workspace):
    _dropped(ws)
    ws.promote()
    (hit,) = ws.recall(key="cache")
    assert (hit.value, hit.status, hit.until) == ("Redis", "ended", "2026-01-20T09:00")
    found = ws.recall("cache")
    assert [h.status for h in found if h.path == "MEMORY.md"] == ["ended"]
    assert all(h.status != "current" for h in found)
    assert values(ws, "cache", "2026-01-15") == ["Redis"]
    assert values(ws, "cache", "2026-01-21") == []


@pytest.mark.now("2026-01-12T18:00")
def test_a_value_after_the_removal_answers_alone(ws: Workspace):
    _dropped(ws)
    ws.promote()
    ws.note("Memcached", key="cache", kind="decision")
    ws.promote()
    assert [(h.value, h.status) for h in ws.recall(key="cache")] == [
        ("Memcached", "current")
    ]
    assert [h.status for h in ws.recall("cache") if h.path == "MEMORY.md"] == [
        "current"
    ]


@pytest.mark.now("2026-01-12T18:00")
def test_why_names_the_removal(ws: Workspace):
    _dropped(ws)
    ws.promote()
    (record,) = ws.why("Cache")
    assert record.hit.status == "ended"
    assert record.ended_by == "memory/2026-01-20.md:3"
    assert record.as_dict()["ended_by"] == "memory/2026-01-20.md:3"


@pytest.mark.now("2026-01-12T18:00")
def test_the_cli_shows_an_ended_value(ws: Workspace, run_cli):
    _dropped(ws)
    root = str(ws.root)
    now = "2026-01-25T12:00"
    out = run_cli("-w", root, "promote", now=now).output
    assert "1 ended" in out
    out = run_cli("-w", root, "recall", "--key", "cache", now=now).output
    assert out.startswith(
        "[ended] cache: Redis  (since 2026-01-12T10:15 until 2026-01-20T09:00;"
    )
    out = run_cli("-w", root, "why", "cache", now=now).output
    assert "ended by memory/2026-01-20.md:3" in out
    data = json.loads(run_cli("-w", root, "promote", "--json", now=now).output)
    assert data["ended"] == []


@pytest.mark.now("2026-01-12T18:00")
def test_the_loss_budget_counts_ends(ws: Workspace):
    facts = "".join(f"- fact: **k{i}**: v{i}\n" for i in range(8))
    write(ws, "2026-01-12.md", facts)
    ws.promote()
    write(ws, "2026-01-13.md", "".join(f"- **k{i}**: (none)\n" for i in range(3)))
    at(ws, "2026-01-14T12:00")
    with pytest.raises(LossBudgetError):
        ws.promote()
    assert ws.promote(force=True).plan.keys("end") == ["k0", "k1", "k2"]


@pytest.mark.now("2026-01-12T18:00")
def test_a_key_is_found_however_it_is_written(ws: Workspace):
    write(ws, "2026-01-12.md", "- fact: **Great Movies / author**: Ann Lee\n")
    ws.promote()
    for asked in (
        "The Great Movies / author",
        "great movies／AUTHOR",
        "the great-movies / author",
    ):
        assert values(ws, asked) == ["Ann Lee"]
    assert [r.hit.value for r in ws.why("The Great Movies / author")] == ["Ann Lee"]
    assert [
        f["key"]
        for f in ws.forget(key="the great movies / author").as_dict()["retired"]
    ] == ["Great Movies / author"]
