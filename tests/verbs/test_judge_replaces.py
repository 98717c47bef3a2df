"""The judge's "this entry replaces that current one" (``replaces``): how an
unkeyed fact is superseded or ended, and what review shows for it."""

from __future__ import annotations

import pytest

from gardener import GardenerError, Workspace
from gardener.formats.memoryfile import parse_memory
from tests.helpers import write

OLD = """# 2026-02-10

## Working agreements
- New rule: while background work runs, send Sam a progress update every hour
"""
NEW = """# 2026-02-20

## Misc
- the background progress updates: every two hours from now on, and short
"""


def facts(ws: Workspace) -> dict[str, object]:
    memory = parse_memory(ws.memory_path.read_text(encoding="utf-8"), "MEMORY.md")
    return {f.id: f for f in memory.facts}


def setup(ws: Workspace) -> tuple[str, str]:
    """Day 1's unkeyed rule filed, day 2's entry pending: (fact id, pending id)."""
    (ws.root / "rules.md").write_text("---\njudge_scope: all\n---\n", encoding="utf-8")
    ws = Workspace(ws.root, now_override=ws.now_override)
    write(ws, "2026-02-10.md", OLD)
    (first,) = ws.review().items
    done = ws.decide(
        [{"id": first["id"], "verdict": "decision", "key": None}], by="atlas"
    )
    assert done.applied == (first["id"],)
    (old,) = [f for f in facts(ws).values() if "every hour" in f.value]
    assert old.key is None
    write(ws, "2026-02-20.md", NEW)
    (item,) = ws.review().items
    return str(old.id), str(item["id"])


@pytest.mark.now("2026-03-01T18:00")
def test_review_shows_the_current_entries_an_entry_is_near(ws: Workspace) -> None:
    old, _ = setup(ws)
    (item,) = Workspace(ws.root, now_override=ws.now_override).review().items
    assert [n["id"] for n in item["near"]] == [old]  # type: ignore[union-attr]


@pytest.mark.now("2026-03-01T18:00")
def test_an_unkeyed_fact_is_superseded_by_the_entry_that_replaces_it(
    ws: Workspace,
) -> None:
    old, pending = setup(ws)
    ws = Workspace(ws.root, now_override=ws.now_override)
    done = ws.decide(
        [{"id": pending, "verdict": "decision", "key": None, "replaces": old}],
        by="atlas",
    )
    assert done.applied == (pending,) and not done.refused
    now = facts(ws)
    retired = now[old]
    assert retired.superseded and str(retired.get("until")).startswith("2026-02-20")
    new = now[retired.get("superseded-by")]
    assert "every two hours" in new.value and new.get("supersedes") == old
    hits = ws.recall("progress update", limit=3)
    assert "every two hours" in str(hits[0])


@pytest.mark.now("2026-03-01T18:00")
def test_a_judge_ends_an_unkeyed_fact_by_its_id(ws: Workspace) -> None:
    old, pending = setup(ws)
    ws = Workspace(ws.root, now_override=ws.now_override)
    done = ws.decide([{"id": pending, "verdict": "ends", "replaces": old}], by="atlas")
    assert done.applied == (pending,)
    retired = facts(ws)[old]
    assert retired.superseded and retired.get("reason") == "ended"
    assert not [f for f in facts(ws).values() if "every two hours" in f.value]


@pytest.mark.now("2026-03-01T18:00")
def test_a_replacement_naming_no_current_entry_or_a_later_one_is_refused(
    ws: Workspace,
) -> None:
    old, pending = setup(ws)
    ws = Workspace(ws.root, now_override=ws.now_override)
    done = ws.decide(
        [{"id": pending, "verdict": "decision", "replaces": "fffff0"}], by="atlas"
    )
    assert "no current entry" in done.refused[0]["reason"]
    with pytest.raises(GardenerError, match="replaces goes with verdict durable"):
        ws.decide(
            [{"id": pending, "verdict": "transient", "replaces": old}], by="atlas"
        )


@pytest.mark.now("2026-03-01T18:00")
def test_decide_replaces_on_the_command_line(ws: Workspace, run_cli) -> None:  # type: ignore[no-untyped-def]
    old, pending = setup(ws)
    out = run_cli("-w", str(ws.root), "review", now=ws.now_override).output
    assert f"near #{old}" in out
    run_cli("-w", str(ws.root), "decide", pending, "--durable", "decision",
            "--replaces", old, "--by", "atlas", now=ws.now_override)  # fmt: skip
    assert facts(ws)[old].superseded


def long_queue(ws: Workspace) -> Workspace:
    """60 pending entries of ~300 characters each (judge_scope: all)."""
    (ws.root / "rules.md").write_text("---\njudge_scope: all\n---\n", encoding="utf-8")
    lines = "".join(
        f"- We use tool {n} for the nightly reports, " + "and it stays so " * 16 + "\n"
        for n in range(60)
    )
    write(ws, "2026-02-20.md", "# 2026-02-20\n\n## Misc\n" + lines)
    return Workspace(ws.root, now_override=ws.now_override)


@pytest.mark.now("2026-03-01T18:00")
def test_review_pages_past_the_entries_a_judge_leaves_pending(ws: Workspace) -> None:
    """An agent unsure of the first ~8 KB of the queue saw the same page for
    ever: the entries after it never reached a judge."""
    ws = long_queue(ws)
    first = ws.review(1000)
    assert first.total == 60 and 0 < len(first.items) < 60
    seen = [i["id"] for i in first.items]
    page = first
    while page.next_after:
        page = ws.review(1000, page.next_after)
        seen += [i["id"] for i in page.items]
    assert len(seen) == len(set(seen)) == 60
    with pytest.raises(GardenerError, match="no entry of the notes has this id"):
        ws.review(10, "pffffffff")


@pytest.mark.now("2026-03-01T18:00")
def test_review_goes_on_after_an_entry_answered_since(ws: Workspace) -> None:
    """Tester: an agent answered the last entry of a page, then asked for the
    page after it: 'no pending entry has this id' instead of the next page."""
    ws = long_queue(ws)
    first = ws.review(1000)
    last = first.next_after
    assert last is not None
    ws.decide([{"id": last, "verdict": "transient"}], by="atlas")
    after = ws.review(1000, last)
    ids = [i["id"] for i in after.items]
    assert ids and last not in ids and not set(ids) & {i["id"] for i in first.items}
    assert after.items[0]["id"] == ws.review(1000).items[len(first.items) - 1]["id"]


@pytest.mark.now("2026-03-01T18:00")
def test_review_prints_how_to_reach_the_next_page(ws: Workspace, run_cli) -> None:  # type: ignore[no-untyped-def]
    ws = long_queue(ws)
    out = run_cli("-w", str(ws.root), "review", "--limit", "100", now=ws.now_override)
    after = out.output.split("next page: --after ")[1].split(")")[0].split()[0]
    more = run_cli("-w", str(ws.root), "review", "--after", after, now=ws.now_override)
    assert after not in more.output.split("\n", 1)[1][:20]
