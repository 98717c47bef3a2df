"""``gardener demo`` replays the shipped example notes into a scratch workspace."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gardener import Workspace
from gardener.cli.demo import replay


def test_demo_replays_six_weeks(tmp_path: Path, run_cli):
    out = run_cli("demo", str(tmp_path / "demo"))
    lines = out.output.splitlines()
    assert lines[0].startswith("2026-01-05  ")
    assert f"workspace: {tmp_path / 'demo'}" in out.output
    assert "git -C" in out.output and "log -p MEMORY.md" in out.output
    ws = Workspace(tmp_path / "demo", now_override="2026-02-20T21:00")
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
    assert "refused 1 line(s)" in out.output and "held 1" in out.output


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
