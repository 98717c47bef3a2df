"""The pre-commit hook `gardener init` installs, and `check --history`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gardener import Workspace

USER = ["-c", "user.name=Person", "-c", "user.email=person@example.org"]


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *USER, *args], capture_output=True, text=True
    )


def test_hook_refuses_a_persons_commit_that_holds_a_secret(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws", now_override="2026-03-01T09:00")
    hook = ws.root / ".git" / "hooks" / "pre-commit"
    assert hook.exists() and hook.stat().st_mode & 0o111
    (ws.root / "notes.txt").write_text(
        "deploy token: ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2" + "\n"
    )
    git(ws.root, "add", "notes.txt")
    refused = git(ws.root, "commit", "-m", "my notes")
    assert refused.returncode != 0
    assert "notes.txt:1" in refused.stdout + refused.stderr
    assert "ghp_" not in git(ws.root, "log", "-p", "--all").stdout
    (ws.root / "notes.txt").write_text("nothing secret here\n")
    git(ws.root, "add", "notes.txt")
    assert git(ws.root, "commit", "-m", "my notes").returncode == 0


def test_existing_hook_is_kept(tmp_path: Path):
    root = tmp_path / "ws"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".git" / "hooks").mkdir(parents=True, exist_ok=True)
    (root / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    Workspace.init(root, now_override="2026-03-01T09:00")
    assert (root / ".git" / "hooks" / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"


def test_check_history_finds_a_secret_committed_past_the_hook(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws", now_override="2026-03-01T09:00")
    (ws.root / "old.md").write_text("- the wifi password is Quartz-Heron-77\n")
    git(ws.root, "add", "old.md")
    assert git(ws.root, "commit", "--no-verify", "-m", "oops").returncode == 0
    (ws.root / "old.md").unlink()
    git(ws.root, "commit", "-am", "remove it")
    assert not [p for p in ws.check() if p.kind == "secret"]
    found = [p for p in ws.check(history=True) if p.kind == "secret"]
    assert [(p.path.split(" ")[0], p.line) for p in found] == [("old.md", 1)]
