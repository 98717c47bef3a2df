"""The check verb: conflicts, secrets and unreadable notes, each with its place."""

from __future__ import annotations

from gardener import Workspace
from tests.helpers import at


def test_check_reports_conflicts_secrets_and_budget(ws: Workspace):
    ws.note("SQLite", kind="decision", key="database", time="09:00")
    at(ws, "2026-01-05T18:00").promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace(
            "## Decisions\n", "## Decisions\n- **Database**: Postgres\n"
        )
    )
    (ws.root / "memory" / "2026-01-06.md").write_text(
        "# x\n\n- token: ghp_" + "a1B2c3D4e5" * 4 + "\n"
    )
    (ws.root / "memory" / "2026-01-07.md").write_bytes(b"- bad \xff byte\n")
    problems = ws.check()
    kinds = {(p.kind, p.path, p.line) for p in problems}
    assert ("conflict", "MEMORY.md", 5) in kinds
    assert ("secret", "memory/2026-01-06.md", 3) in kinds
    assert any(
        p.kind == "parse" and p.path == "memory/2026-01-07.md" and p.line == 1
        for p in problems
    )


def test_an_opposite_attitude_supersedes_so_check_is_quiet(ws: Workspace):
    ws.note("Sam loves coffee", kind="preference", time="08:00")
    ws.note("Sam hates coffee now", kind="preference", time="08:30")
    at(ws, "2026-01-05T18:00").promote()
    assert [p for p in ws.check() if p.kind == "conflict"] == []


def test_check_reports_two_current_entries_that_contradict(ws: Workspace):
    # keyed apart by hand, so promote cannot see they are about one thing
    ws.note("Sam loves coffee", kind="preference", key="mornings", time="08:00")
    ws.note("Sam hates coffee now", kind="preference", key="drinks", time="08:30")
    at(ws, "2026-01-05T18:00").promote()
    conflicts = [p for p in ws.check() if p.kind == "conflict"]
    assert len(conflicts) == 1
    assert conflicts[0].path == "MEMORY.md"
    assert "Sam hates coffee now" in conflicts[0].message


def test_check_reports_a_code_fence_a_note_never_closes(ws: Workspace):
    note = ws.root / "memory" / "2026-01-05.md"
    note.write_text(
        "# 2026-01-05\n\n- ran the build:\n\n```sh\nmake all\n```\n\n"
        "- the logs:\n  ~~~\n  error: disk full\n- 10:20 decision: **database**: SQLite\n"
    )
    problems = [p for p in ws.check() if p.path == "memory/2026-01-05.md"]
    assert [(p.kind, p.line) for p in problems] == [("parse", 10)]
    assert "never closed" in problems[0].message
    assert "the 2 line(s) after it" in problems[0].message
    assert "`  ~~~`" in problems[0].message


def test_a_note_closes_the_fence_and_check_is_quiet_again(ws: Workspace):
    note = ws.root / "memory" / "2026-01-05.md"
    note.write_text("# 2026-01-05\n\n```\nmake all\n")
    assert [p.line for p in ws.check()] == [3]
    ws.note("we use SQLite", time="08:30")
    assert ws.check() == []


def test_openclaws_own_folders_are_neither_problems_nor_promoted(ws: Workspace):
    """An OpenClaw workspace: dreaming reports, pinned notes, its hidden state."""
    notes = ws.root / "memory"
    for folder, name in [
        ("dreaming", "2026-01-04.md"),
        ("dreaming/deep", "2026-01-04.md"),
        ("important", "2026-01-03-launch.md"),
        (".dreams", "2026-01-04.json"),
    ]:
        (notes / folder).mkdir(parents=True, exist_ok=True)
        (notes / folder / name).write_text(
            "- decision: **ci**: we moved CI to Buildkite\n"
        )
    (ws.root / "DREAMS.md").write_text("# Dreams\n\n- the team dreamt of Buildkite\n")
    assert ws.check() == []
    ws.promote()
    assert "Buildkite" not in (ws.root / "MEMORY.md").read_text()


def test_check_reports_a_front_matter_a_note_never_closes(ws: Workspace):
    # a breaker's note: "---\nagent: atlas\n---" with no newline, then a line
    # appended ran into the closing one ("---- **db**: Postgres"), lost silently
    note = ws.root / "memory" / "2026-01-05.md"
    note.write_text("---\nagent: atlas\n---- **db**: Postgres\n- **cache**: Redis\n")
    problems = [p for p in ws.check() if p.path == "memory/2026-01-05.md"]
    assert [(p.kind, p.line) for p in problems] == [("parse", 1)]
    assert "front matter (---) is never closed" in problems[0].message
    note.write_text("---\nagent: atlas\n---\n- **db**: Postgres\n")
    assert not [p for p in ws.check() if p.path == "memory/2026-01-05.md"]
