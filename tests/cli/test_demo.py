"""``gardener demo`` replays the shipped example notes into a scratch workspace."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from gardener import Workspace
from gardener.cli.commands import main
from gardener.cli.demo import replay


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(workspace, printed output) of one ``gardener demo`` run."""
    root = tmp_path_factory.mktemp("demo") / "demo"
    result = CliRunner().invoke(main, ["demo", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root, result.output


def test_demo_replays_six_weeks(demo: tuple[Path, str]):
    root, output = demo
    lines = output.splitlines()
    assert lines[0].startswith("2026-01-05  ")
    assert f"workspace: {root}" in output
    assert "git -C" in output and "log -p MEMORY.md" in output
    ws = Workspace(root, now_override="2026-02-20T21:00")
    current = lambda key: [h.value for h in ws.recall(key=key)]  # noqa: E731
    assert current("database") == ["SQLite"]
    assert current("deploy target") == ["Fly.io"]  # changed, and changed back
    assert current("Tier 2 renewal / list price") == ["$3,600"]
    assert current("staging / host") == ["box7"]  # corrected
    assert sorted(current("Mira / spoken language")) == ["Deutsch", "Portuguese"]
    assert current("merge policy") == []  # expired
    assert [h.value for h in ws.recall(key="database", as_of_time="2026-01-11")] == [
        "MySQL"
    ]  # back-filled
    assert [
        h.value for h in ws.recall(key="deploy target", as_of_time="2026-01-10")
    ] == ["Railway"]
    assert [(p.kind, p.path) for p in ws.check()] == [("held", "memory/2026-02-06.md")]
    log = subprocess.run(
        ["git", "-C", str(ws.root), "log", "-p", "--all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Hx7-fake-Quartz-19" not in log and "mira.okafor@example.com" not in log
    assert "refused 1 line(s)" in output and "held 1" in output


def test_demo_reads_notes_written_without_the_syntax(demo: tuple[Path, str]):
    """Prose, label bullets, a key-learnings section and a German day."""
    root, out = demo
    ws = Workspace(root, now_override="2026-02-20T21:00")
    current = lambda key: [h.value for h in ws.recall(key=key)]  # noqa: E731
    as_of = lambda key, t: [h.value for h in ws.recall(key=key, as_of_time=t)]  # noqa: E731
    # "Mira switched the main database to SQLite" supersedes Postgres
    assert "database: Postgres -> SQLite" in out
    assert as_of("database", "2026-01-15") == ["Postgres"]
    # "We decided to drop the Redis cache for v1.0" ends it: nothing current
    assert "cache: Redis ended" in out and "ended 1" in out
    assert [(h.status, h.value, h.until) for h in ws.recall(key="cache")] == [
        ("ended", "Redis", "2026-02-16T11:10")
    ]
    assert as_of("cache", "2026-02-01") == ["Redis"]
    # "Mira switched to pytest: ..., and the photo tests need tmp_path"
    assert as_of("test runner", "2026-02-01") == ["pytest"]
    # a `**Deploy target:** Hetzner` bullet changes the value like a decision
    assert as_of("deploy target", "2026-02-01") == ["Hetzner"]
    # the preference is kept; its repeat a month later changes nothing
    assert current("Mira / theme") == ["dark mode"]
    assert "[current] Mira / theme: dark mode" in out
    # the German day: a label bullet, a preference in prose, a transient line
    assert current("Backup-Zeitplan") == ["nächtlich um 03:00, 14 Tage Aufbewahrung"]
    memory = (ws.root / "MEMORY.md").read_text()
    assert "Artnamen immer auf Latein und Deutsch" in memory
    assert "Upload-Formular" not in memory
    assert "Thumbnails belong in a background task" in memory  # ## Key learnings
    # "debugging a timeout ... right now" stays in its note, and recall finds it there
    assert "timeout" not in memory
    assert "debugging a timeout" in (ws.root / "memory/2026-02-11.md").read_text()
    assert "[note] 16:20 debugging a timeout" in out


def test_demo_refuses_a_folder_that_is_not_empty(tmp_path: Path, run_cli):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    out = run_cli("demo", str(tmp_path / "busy"), code=1)
    assert "not empty" in out.output
    assert (tmp_path / "busy" / "keep.txt").read_text() == "mine"


def test_replay_reports_every_day(tmp_path: Path):
    root, reports = replay(tmp_path / "d")
    assert len(reports) >= 30
    assert sum(r.refused for r in reports) == 2
    assert sum(r.pruned for r in reports) > 0
    assert (root / "MEMORY.md").exists()
