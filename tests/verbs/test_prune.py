"""The prune verb: notes kept until promoted, expired entries out of current memory."""

from __future__ import annotations

from gardener import Workspace
from gardener.formats.memoryfile import parse_memory
from tests.helpers import at, git


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
    result = ws.prune().as_dict()
    assert result["expired_removed"] == 4
    facts = parse_memory((ws.root / "MEMORY.md").read_text()).facts
    assert (
        sorted(f.get("reason") or "" for f in facts if f.superseded) == ["expired"] * 4
    )
    assert [h.value for h in ws.recall(key="k1", as_of_time="2026-01-09")] == [
        "value 1"
    ]
