"""What a clone lacks (hook, merge drivers), said in one line; the drivers registered."""

from __future__ import annotations

import sys
from pathlib import Path

from gardener.git.repo import Repo
from gardener.git.setup import missing, register_drivers, warning
from tests.git.helpers import git


def test_a_new_repository_lacks_the_hook_and_the_drivers(repo: Repo):
    assert missing(str(repo.git_dir)) == ["pre-commit hook", "merge drivers"]
    assert warning(str(repo.root)) is None  # no .gardener/: not a workspace
    (repo.root / ".gardener").mkdir()
    said = warning(str(repo.root))
    assert said is not None and "\n" not in said and "gardener init ." in said


def test_registered_drivers_and_a_hook_are_enough(repo: Repo):
    assert register_drivers(repo, sys.executable) == [
        "gardener-memory",
        "gardener-note",
        "gardener-union",
    ]
    assert register_drivers(repo, sys.executable) == []  # already there
    assert missing(str(repo.git_dir)) == ["pre-commit hook"]
    repo.install_hook("pre-commit", "#!/bin/sh\n")
    assert missing(str(repo.git_dir)) == []
    driver = git(repo.root, "config", "--get", "merge.gardener-memory.driver").decode()
    assert driver.endswith("-m gardener merge-memory %O %A %B %P\n")


def test_a_linked_worktree_reads_the_repositorys_own_config(repo: Repo, tmp_path: Path):
    (repo.root / "a").write_text("a\n")
    git(repo.root, "add", "a")
    git(repo.root, "commit", "-qm", "a")
    register_drivers(repo, sys.executable)
    repo.install_hook("pre-commit", "#!/bin/sh\n")
    git(repo.root, "worktree", "add", "-q", str(tmp_path / "other"))
    with Repo.open(tmp_path / "other") as other:
        assert missing(str(other.git_dir)) == []
