"""A prune pass leaves MEMORY.md whole: no link to an entry it deleted."""

from __future__ import annotations

from pathlib import Path

from gardener import Workspace


def test_a_routine_prune_leaves_no_broken_reference_for_check(tmp_path: Path):
    """Prune deleted a superseded entry but kept the current one's
    ``supersedes=`` naming it: ``check`` then reported a broken reference
    (exit 4) after every retention period."""
    first, _ = Workspace.init(tmp_path / "ws", now_override="2026-01-05T09:00")
    first.note("we use Postgres", kind="decision", key="database")
    first.promote()
    later = Workspace(first.root, now_override="2026-02-01T09:00")
    later.note("we use SQLite", kind="decision", key="database")
    later.promote()
    assert "supersedes=" in (first.root / "MEMORY.md").read_text(encoding="utf-8")
    months = Workspace(first.root, now_override="2026-08-01T09:00")
    assert months.prune().plan.superseded_removed
    text = (first.root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Postgres" not in text and "supersedes=" not in text
    assert [p for p in months.check() if p.kind == "reference"] == []
    assert [h.value for h in months.recall(key="database")] == ["we use SQLite"]
