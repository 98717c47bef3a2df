"""sync following a remote's purge keeps every stash, with the purged text out of it.

Real clones and a bare remote, the CLI as a child process (see test_sync.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_sync import NAME, PERSON, clone, gardener, shared_note, traces
from tests.helpers import git


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    return bare


def stash(root: Path, *args: str) -> None:
    git(root, *PERSON, "stash", "push", "-q", *args)


def test_sync_following_a_purge_keeps_every_stash(tmp_path: Path, remote: Path):
    one = shared_note(tmp_path, remote)
    two = clone(tmp_path, remote, "two", "2026-03-02T10:05")
    note = two / "memory" / "2026-03-02.md"
    with note.open("a") as f:
        f.write(f"- 10:20 a draft about {NAME} and the venue\n")
    stash(two, "-m", "the draft")
    (two / "MEMORY.md").write_text((two / "MEMORY.md").read_text() + "my own words\n")
    stash(two, "-m", "my words")
    (two / "scratch.txt").write_text("an untracked scratch file\n")
    stash(two, "-u", "-m", "scratch")
    gardener(one, "2026-03-02T11:00", "purge", NAME, "--yes", "--push")

    done = gardener(two, "2026-03-02T11:30", "sync")
    assert "rewrite" in done.stdout or "purge" in done.stdout.lower()
    listed = git(two, "stash", "list", "--format=%gs").splitlines()
    assert listed == [f"On main: {m}" for m in ("scratch", "my words", "the draft")]
    assert git(two, "show", "stash@{0}:scratch.txt") == "an untracked scratch file\n"
    assert git(two, "show", "stash@{1}:MEMORY.md").endswith("my own words\n")
    draft = git(two, "show", "stash@{2}:memory/2026-03-02.md")
    assert "a draft about [PURGED] and the venue" in draft and NAME not in draft
    assert traces(two, NAME) == []
    # each entry sits on the new history and applies there
    head = git(two, "rev-parse", "HEAD").strip()
    assert git(two, "rev-parse", "stash@{1}^1").strip() == head
    git(two, *PERSON, "stash", "apply", "-q", "stash@{1}")
    assert (two / "MEMORY.md").read_text().endswith("my own words\n")
