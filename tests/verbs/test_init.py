"""init: a new or adopted workspace, the pre-commit hook it installs, and `check --history`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gardener import Workspace
from tests.helpers import commits, git, new_workspace

USER = ["-c", "user.name=Person", "-c", "user.email=person@example.org"]


def git_as_person(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *USER, *args], capture_output=True, text=True
    )


def test_hook_refuses_a_persons_commit_that_holds_a_secret(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-03-01T09:00")
    hook = ws.root / ".git" / "hooks" / "pre-commit"
    assert hook.exists() and hook.stat().st_mode & 0o111
    (ws.root / "notes.txt").write_text(
        "deploy token: ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2" + "\n"
    )
    git_as_person(ws.root, "add", "notes.txt")
    refused = git_as_person(ws.root, "commit", "-m", "my notes")
    assert refused.returncode != 0
    assert "notes.txt:1" in refused.stdout + refused.stderr
    assert "ghp_" not in git_as_person(ws.root, "log", "-p", "--all").stdout
    (ws.root / "notes.txt").write_text("nothing secret here\n")
    git_as_person(ws.root, "add", "notes.txt")
    assert git_as_person(ws.root, "commit", "-m", "my notes").returncode == 0


def test_existing_hook_is_kept(tmp_path: Path):
    root = tmp_path / "ws"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".git" / "hooks").mkdir(parents=True, exist_ok=True)
    (root / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    Workspace.init(root, now_override="2026-03-01T09:00")
    assert (root / ".git" / "hooks" / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"


def test_check_history_finds_a_secret_committed_past_the_hook(tmp_path: Path):
    ws = new_workspace(tmp_path, "2026-03-01T09:00")
    (ws.root / "old.md").write_text("- the wifi password is Quartz-Heron-77\n")
    git_as_person(ws.root, "add", "old.md")
    assert git_as_person(ws.root, "commit", "--no-verify", "-m", "oops").returncode == 0
    (ws.root / "old.md").unlink()
    git_as_person(ws.root, "commit", "-am", "remove it")
    assert not [p for p in ws.check() if p.kind == "secret"]
    found = [p for p in ws.check(history=True) if p.kind == "secret"]
    assert [(p.path.split(" ")[0], p.line) for p in found] == [("old.md", 1)]


def test_init_creates_a_workspace(ws: Workspace):
    for name in (
        "MEMORY.md",
        "rules.md",
        ".gitattributes",
        "memory",
        ".gardener/.gitignore",
    ):
        assert (ws.root / name).exists(), name
    assert "memory/*.md merge=union" in (ws.root / ".gitattributes").read_text()
    assert commits(ws.root) == 1
    assert git(ws.root, "status", "--porcelain") == ""


def test_init_adopts_in_place_and_redacts_secrets(tmp_path: Path):
    root = tmp_path / "agent"
    (root / "memory" / "archive").mkdir(parents=True)
    memory = "\ufeff# What I know\r\n\r\n- the user likes tea\r\n- wifi password: Sunflower-88-fake\r\n"
    (root / "MEMORY.md").write_bytes(memory.encode())
    note = (
        "- 10:00 decided: we use SQLite\n- long line " + "x" * 5000
    )  # no final newline
    (root / "memory" / "2026-01-05.md").write_text(note)
    (root / "memory" / "state.json").write_text("{}")
    (root / "memory" / "archive" / "2025-01-01.md").write_text("- old\n")
    _, result = Workspace.init(root, now_override="2026-01-06T09:00")
    assert result.adopted
    assert (root / "memory" / "2026-01-05.md").read_text() == note
    after = (root / "MEMORY.md").read_bytes().decode()
    assert after == memory.replace("Sunflower-88-fake", "[REDACTED:password]")
    assert [r.rule for r in result.redacted] == ["password"]
    assert "Sunflower-88-fake" not in git(root, "log", "-p", "--all")
    assert "Sunflower-88-fake" in (root / ".gardener" / "quarantine.jsonl").read_text()
    assert (
        oct((root / ".gardener" / "quarantine.jsonl").stat().st_mode & 0o777) == "0o600"
    )
    tracked = git(root, "ls-files").split()
    assert (
        "memory/state.json" not in tracked
        and "memory/archive/2025-01-01.md" not in tracked
    )


def test_init_again_adds_the_merge_lines_an_older_workspace_lacks(ws: Workspace):
    attributes = ws.root / ".gitattributes"
    attributes.write_text("# mine\nmemory/*.md merge=union\n")
    git_as_person(ws.root, "commit", "-qm", "an older workspace", ".gitattributes")
    Workspace.init(ws.root, now_override="2026-03-01T09:00")
    text = attributes.read_text()
    assert text.startswith("# mine\nmemory/*.md merge=union\n")
    assert "MEMORY.md merge=gardener-memory\n" in text
    assert text.count("merge=gardener-union") == 4  # ledger, times, retired, purged
    assert git(ws.root, "status", "--porcelain").strip() == ""  # committed
    Workspace.init(ws.root, now_override="2026-03-01T09:00")
    assert attributes.read_text() == text


def test_hook_and_check_refuse_unresolved_conflict_markers(tmp_path: Path):
    """Breaker (two clones): a hand merge left <<<<<<< ... >>>>>>> in MEMORY.md,
    the hook let it through, sync pushed it and both values read as current."""
    ws = new_workspace(tmp_path, "2026-03-01T09:00")
    memory = ws.root / "MEMORY.md"
    text = memory.read_text()
    memory.write_text(
        text + "<<<<<<< ours\n- cache: Redis cluster\n=======\n"
        "- cache: Redis sentinel\n>>>>>>> theirs\n"
    )
    line = text.count("\n") + 1
    problems = [p for p in ws.check() if p.kind == "conflict"]
    assert [(p.path, p.line) for p in problems] == [("MEMORY.md", line)]
    git_as_person(ws.root, "add", "MEMORY.md")
    refused = git_as_person(ws.root, "commit", "-m", "merge")
    assert (
        refused.returncode != 0
        and f"MEMORY.md:{line}" in refused.stdout + refused.stderr
    )
    # a Markdown heading underlined with ======= is no conflict
    memory.write_text(text + "Title\n=======\n")
    assert not [p for p in ws.check() if p.kind == "conflict"]
