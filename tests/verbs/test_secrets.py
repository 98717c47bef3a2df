"""The pre-commit hook `init` installs, run by real git: it checks the index git
is about to commit (GIT_INDEX_FILE), and in a project's repository only the
memory files; `check --history` names the commits of a leak."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gardener import RefusedError, Workspace
from tests.helpers import new_workspace

USER = ["-c", "user.name=Person", "-c", "user.email=person@example.org"]
TOKEN = (
    "github_pat_"
    + "11ABCDEFG0"
    + "x7Yq2Lm9Pz4Rt6Vw8Kd3Hs_"
    + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ9"
)
PASSWORD = "- the NAS admin password: Zq4vT9wLmX\n"


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *USER, *args], capture_output=True, text=True
    )


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    ws = new_workspace(tmp_path, "2026-03-01T09:00")
    return ws


def _history(root: Path) -> str:
    return git(root, "log", "-p", "--all").stdout


@pytest.mark.parametrize(
    "how",
    [
        ["commit", "-a", "-m", "notes"],
        ["commit", "-am", "notes"],
        ["commit", "-m", "notes", "MEMORY.md"],
        ["commit", "--only", "-m", "notes", "MEMORY.md"],
        ["commit", "-o", "MEMORY.md", "-m", "notes"],
        ["commit", "-i", "MEMORY.md", "-m", "notes"],
    ],
)
@pytest.mark.parametrize("secret", [PASSWORD, f"- deploy with {TOKEN}\n"])
def test_a_commit_of_a_tracked_file_is_checked_in_the_index_git_commits(
    ws: Workspace, how: list[str], secret: str
):
    memory = ws.root / "MEMORY.md"
    memory.write_text(memory.read_text() + secret)
    refused = git(ws.root, *how)
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "MEMORY.md" in refused.stdout + refused.stderr
    history = _history(ws.root)
    assert "Zq4vT9wLmX" not in history and TOKEN not in history


def test_a_commit_of_a_new_note_by_path_is_checked(ws: Workspace):
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text(f"# 2026-03-01\n\n- token {TOKEN}\n")
    git(ws.root, "add", "-N", str(note))  # intent to add: `commit <path>` takes it
    refused = git(ws.root, "commit", "-m", "note", str(note))
    assert refused.returncode != 0
    assert TOKEN not in _history(ws.root)


def test_a_clean_commit_a_passes(ws: Workspace):
    memory = ws.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "- the NAS lives in the attic\n")
    assert git(ws.root, "commit", "-am", "notes").returncode == 0


def test_an_index_path_relative_to_the_top_is_read_there(ws: Workspace):
    """A plain `git commit` gives GIT_INDEX_FILE as `.git/index`, relative."""
    (ws.root / "memory" / "2026-03-01.md").write_text(PASSWORD)
    git(ws.root, "add", "memory")
    sub = ws.root / "memory"
    refused = subprocess.run(
        ["git", *USER, "commit", "-m", "x"], cwd=sub, capture_output=True, text=True
    )
    assert refused.returncode != 0


def _project(ws: Workspace) -> None:
    """Make the workspace's repository a project's: code at its top."""
    (ws.root / "package.json").write_text('{"author": "Ann <ann@example.com>"}\n')
    (ws.root / "tests").mkdir()
    (ws.root / "tests" / "fixture.py").write_text('PASSWORD = "password: Hunter22x"\n')
    git(ws.root, "add", "package.json", "tests")
    assert git(ws.root, "commit", "--no-verify", "-m", "code").returncode == 0


def test_in_a_projects_repository_only_the_memory_files_are_guarded(ws: Workspace):
    _project(ws)
    (ws.root / "package.json").write_text(
        '{"author": "Ann <ann@example.com>", "version": "2"}\n'
    )
    fixture = ws.root / "tests" / "fixture.py"
    fixture.write_text(fixture.read_text() + 'TOKEN = "api_key=Xk2Jd8Lq0Pw5"\n')
    done = git(ws.root, "commit", "-am", "code")
    assert done.returncode == 0, done.stdout + done.stderr
    memory = ws.root / "MEMORY.md"
    memory.write_text(memory.read_text() + PASSWORD)
    (ws.root / "package.json").write_text('{"version": "3"}\n')
    refused = git(ws.root, "commit", "-am", "code and memory")
    assert refused.returncode != 0
    assert "MEMORY.md" in refused.stdout + refused.stderr
    assert "package.json" not in refused.stdout + refused.stderr


def test_a_new_note_in_a_projects_repository_is_guarded(ws: Workspace):
    _project(ws)
    (ws.root / "memory" / "2026-03-01.md").write_text(PASSWORD)
    git(ws.root, "add", "-A")
    assert git(ws.root, "commit", "-m", "note").returncode != 0


def test_the_gardeners_own_secrets_are_never_committed(ws: Workspace):
    """A forced add of the quarantine or the hashes' salt is refused."""
    with pytest.raises(RefusedError):
        ws.note("the vpn password is Zq4vT9wLmX")
    salt = ws.root / ".gardener" / "salt"
    assert salt.is_file()
    ignored = git(ws.root, "add", str(salt))
    assert ignored.returncode != 0  # ignored, locally
    git(ws.root, "add", "-f", str(salt))
    refused = git(ws.root, "commit", "-m", "oops")
    assert refused.returncode != 0
    assert ".gardener/salt" in refused.stdout + refused.stderr


def test_a_leak_in_history_names_its_commits_and_says_rotate_then_purge(
    ws: Workspace,
):
    (ws.root / "old.md").write_text("- the wifi password is Quartz-Heron-77\n")
    git(ws.root, "add", "old.md")
    assert git(ws.root, "commit", "--no-verify", "-m", "oops").returncode == 0
    sha = git(ws.root, "rev-parse", "HEAD").stdout.strip()
    found = [p for p in ws.check(history=True) if p.kind == "secret"]
    assert len(found) == 1
    message = found[0].message
    assert sha[:10] in message
    assert "rotate" in message and "gardener purge" in message
    assert "Quartz-Heron-77" not in message


def test_the_hook_refuses_what_the_direct_path_would_redact(ws: Workspace):
    """A YAML password whose value is on the next line is a secret to both."""
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text("- db settings\n\n```yaml\npassword:\n  Seagull2024x\n```\n")
    git(ws.root, "add", "memory")
    refused = git(ws.root, "commit", "-m", "note")
    assert refused.returncode != 0
    assert "memory/2026-03-01.md:5" in refused.stdout + refused.stderr


def test_the_hook_refuses_a_value_refused_before(ws: Workspace):
    with pytest.raises(RefusedError):
        ws.note("the NAS admin password: Zq4vT9wLmX")
    memory = ws.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "- Zq4vT9wLmX opens the NAS\n")
    refused = git(ws.root, "commit", "-am", "memory")
    assert refused.returncode != 0
    assert "refused or redacted before" in refused.stdout + refused.stderr
