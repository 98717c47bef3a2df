"""The why verb: every value a key has had, with the commit that filed or removed it."""

from __future__ import annotations

from pathlib import Path

from gardener import Workspace
from tests.helpers import at, git, new_workspace


def test_why_finds_the_commit_of_a_hand_written_entry(ws: Workspace):
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace(
            "<!-- gardener:end -->",
            "## Facts\n- **office**: Lisbon\n<!-- gardener:end -->",
        )
    )
    ws.note("we use SQLite", kind="decision", key="database", time="10:00")
    at(ws, "2026-01-05T11:00").promote()
    [record] = ws.why("office")
    assert record.commit and record.hit.value == "Lisbon"
    assert git(ws.root, "log", "-1", "--format=%s", record.commit).startswith("record:")


def test_why_counts_as_pruned_only_what_prune_deleted(tmp_path: Path):
    """A prune also rewrites lines (it drops a link to what it deletes): read
    from its diff, such a line looked deleted too, and a value later deleted
    by hand showed as pruned by that commit."""
    ws = new_workspace(tmp_path, "2026-01-01T09:00")
    for day, value in (("2026-01-01", "Postgres"), ("2026-02-01", "MySQL"),
                       ("2026-03-01", "SQLite")):  # fmt: skip
        at(ws, f"{day}T10:00").note(f"decision: **database**: {value}")
        at(ws, f"{day}T10:00").promote()
    at(ws, "2026-05-15T12:00").prune()  # Postgres goes; MySQL's line is rewritten
    story = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-05-15T12:00").why("database")
    ]
    assert story == [
        ("Postgres", "pruned"),
        ("MySQL", "superseded"),
        ("SQLite", "current"),
    ]
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        "".join(line for line in memory.read_text(encoding="utf-8").splitlines(True)
                if "MySQL" not in line),
        encoding="utf-8",
    )  # fmt: skip
    at(ws, "2026-05-16T12:00").promote()  # records the hand edit
    story = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-05-16T12:00").why("database")
    ]
    assert story == [("Postgres", "pruned"), ("SQLite", "current")]


def test_why_keeps_a_corrected_value_apart_from_one_that_held(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-01-01T09:00")
    at(ws, "2026-01-01T10:00").note("decision: **database**: Postgres")
    at(ws, "2026-01-01T10:00").promote()
    at(ws, "2026-01-05T10:00").note("correction: **database**: MySQL")
    at(ws, "2026-01-05T10:00").promote()
    before = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-01-05T10:00").why("database")
    ]
    assert ("Postgres", "corrected") in before
    assert at(ws, "2026-06-01T10:00").prune().plan.superseded_removed
    after = {r.hit.value: r for r in at(ws, "2026-06-01T10:00").why("database")}
    assert after["Postgres"].hit.status == "corrected, pruned"
    assert after["Postgres"].removed_in is not None
    assert after["MySQL"].hit.status == "current"
