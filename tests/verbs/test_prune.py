"""The prune verb: notes kept until promoted, expired entries out of current memory."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from gardener import Workspace
from gardener.errors import LossBudgetError
from gardener.formats.memoryfile import parse_memory
from tests.helpers import at, git, new_workspace, write


def test_prune_keeps_notes_until_promoted_and_checks_the_name(ws: Workspace):
    ws.note("we decided on SQLite", day="2026-01-05", time="09:00")
    (ws.root / "memory" / "2024-01-01.md").write_text("- decided: misnamed note\n")
    at(ws, "2026-01-05T10:00")
    kept = at(ws, "2026-03-01T09:00").prune(dry_run=True).as_dict()
    reasons = {k["path"]: k["reason"] for k in kept["kept_notes"]}
    assert "not promoted" in reasons["memory/2026-01-05.md"]
    ws.promote()
    result = ws.prune().as_dict()
    assert result["removed_notes"] == ["memory/2026-01-05.md"]
    assert any("first committed" in k["reason"] for k in result["kept_notes"])
    assert (ws.root / "memory" / "2024-01-01.md").exists()
    assert not (ws.root / "memory" / "2026-01-05.md").exists()
    assert "we decided on SQLite" in git(ws.root, "log", "-p", "--all")


def test_expired_entries_leave_current_memory(ws: Workspace):
    for n in range(4):
        ws.note(
            f"value {n}",
            kind="fact",
            key=f"k{n}",
            expires="2026-01-10",
            time=f"09:0{n}",
        )
    ws.note("stays", kind="fact", key="other", time="09:30")
    at(ws, "2026-01-05T18:00").promote()
    assert len(at(ws, "2026-01-09T23:59").recall(key="k1")) == 1
    assert (
        at(ws, "2026-01-10T00:00").recall(key="k1") == []
    )  # expires is exclusive, like until
    with pytest.raises(LossBudgetError, match="remove 4 of 5 current entries"):
        ws.prune()  # expiry counts against max_loss like every other removal
    result = ws.prune(force=True).as_dict()
    assert result["expired_removed"] == 4
    facts = parse_memory((ws.root / "MEMORY.md").read_text()).facts
    assert (
        sorted(f.get("reason") or "" for f in facts if f.superseded) == ["expired"] * 4
    )
    assert [h.value for h in ws.recall(key="k1", as_of_time="2026-01-09")] == [
        "value 1"
    ]


def test_a_note_named_356_days_before_its_first_commit_is_kept_and_reported(
    tmp_path: Path, run_cli: Callable[..., Result]
):
    """Issue 14: the wrong-year guard started at 365 days, so this note went."""
    ws = new_workspace(tmp_path, "2025-12-27T21:00")
    write(ws, "2025-01-05.md", "- 09:00 event: deployed v2\n")
    ws.record()
    result = run_cli("-w", str(ws.root), "prune", now="2025-12-28T09:00")
    assert (
        "- keep memory/2025-01-05.md: named 2025-01-05 but first committed"
        " 2025-12-27: check the date in its name"
    ) in result.output
    assert (ws.root / "memory" / "2025-01-05.md").exists()


def test_adopted_notes_age_out_by_their_names(tmp_path: Path):
    """A workspace adopted with months of old notes: every one is first
    committed by the adoption, which does not hold them for ever."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    for day in ("2025-06-01", "2025-09-14", "2026-01-20"):
        (root / "memory" / f"{day}.md").write_text("- 09:00 event: deployed\n")
    ws, _ = Workspace.init(root, now_override="2026-02-01T09:00")
    result = ws.prune().as_dict()
    assert result["removed_notes"] == ["memory/2025-06-01.md", "memory/2025-09-14.md"]


def test_undecided_entries_keep_their_note_and_prune_says_until_when(
    ws: Workspace, run_cli: Callable[..., Result]
):
    ws.note("the staging box feels slow", day="2026-01-05", time="09:00")
    at(ws, "2026-01-05T10:00").promote()
    out = run_cli("-w", str(ws.root), "prune", "--json", now="2026-02-10T09:00")
    (kept,) = json.loads(out.output)["kept_notes"]
    assert kept == {
        "path": "memory/2026-01-05.md",
        "reason": "1 undecided entry, kept until 2026-02-19 (lines 3)",
        "why": "undecided",
        "until": "2026-02-19",
        "lines": [3],
    }
    # past the grace it is still kept, and the line says how to let it go
    out = run_cli("-w", str(ws.root), "prune", now="2026-02-19T09:00")
    assert "- keep memory/2026-01-05.md: 1 undecided entry past their" in out.output
    assert (ws.root / "memory" / "2026-01-05.md").exists()
    out = run_cli("-w", str(ws.root), "prune", "--force", now="2026-02-19T09:00")
    assert (
        "- delete memory/2026-01-05.md (past its TTL and review grace;"
        " 1 undecided entry never decided)"
    ) in out.output


def test_a_clock_set_years_ahead_deletes_a_week_of_notes_not_all(tmp_path: Path):
    """Far more notes due than one pass may delete (the clock jumped): the
    oldest go, the rest wait, with a warning; --force deletes them all."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    days = [f"2026-01-{d:02d}" for d in range(1, 21)]
    for day in days:
        (root / "memory" / f"{day}.md").write_text("- 09:00 event: deployed\n")
    ws, _ = Workspace.init(root, now_override="2026-01-21T09:00")
    result = at(ws, "2030-01-01T09:00").prune()
    assert list(result.plan.notes_removed) == [f"memory/{d}.md" for d in days[:7]]
    waits = [k for k in result.plan.notes_kept if k.why == "budget"]
    assert len(waits) == 13 and "--force" in waits[0].reason
    assert any("13 more notes" in w for w in result.warnings)
    assert len(at(ws, "2030-01-01T09:00").prune(force=True).plan.notes_removed) == 13


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        # a fence never closed hides the lines below it from every pass
        (
            "# Notes\n\n```\n- we prefer tabs\n- decision: **cache**: Redis\n",
            3,
            "fence",
        ),
        ("---\nagent: bob\n- decision: **database**: Postgres\n", 1, "front matter"),
        (
            "- decision: **a**: 1\n<<<<<<< HEAD\n- b\n=======\n- c\n>>>>>>> x\n",
            2,
            "conflict",
        ),
    ],
)
def test_a_note_with_unread_lines_is_kept_past_its_ttl(
    tmp_path: Path, run_cli: Callable[..., Result], text: str, line: int, said: str
):
    """Issue 14: a note whose code fence is never closed was deleted by prune,
    the durable lines inside it with it, though nothing had read them."""
    ws = new_workspace(tmp_path, "2026-09-02T10:00")
    write(ws, "2026-09-01.md", text)
    ws.record()
    at(ws, "2026-09-02T10:00").promote()
    result = run_cli("-w", str(ws.root), "prune", "--json", now="2026-12-01T09:00")
    kept = json.loads(result.output)["kept_notes"]
    assert [(k["path"], k["why"], k["lines"]) for k in kept] == [
        ("memory/2026-09-01.md", "unread", [line])
    ]
    assert said in kept[0]["reason"]
    assert (ws.root / "memory" / "2026-09-01.md").read_text() == text
    if said != "fence":
        return
    # closed, it is read again, and the reasons to keep it are the usual ones
    write(ws, "2026-09-01.md", text + "```\n")
    ws.record()
    again = at(ws, "2026-12-01T09:00").prune(dry_run=True).as_dict()
    assert [k["why"] for k in again["kept_notes"]] in ([], ["durable"])
