"""The temporary index and work tree a commit of given texts uses."""

from __future__ import annotations

import subprocess
import sys

from gardener.git.repo import Repo
from tests.git.helpers import git, write


def test_a_temporary_tree_a_killed_process_left_is_removed(repo: Repo) -> None:
    write(repo, "MEMORY.md", "v1\n")
    repo.commit(["MEMORY.md"], "v1")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    left = repo.git_dir / "gardener" / f"tree-{dead}-1" / "memory"
    left.mkdir(parents=True)
    (left / "2026-01-05.md").write_text("- half a note\n")
    assert repo.commit(["MEMORY.md"], "v2", texts={"MEMORY.md": "v2\n"})
    assert not any(
        p.name.startswith("tree-") for p in (repo.git_dir / "gardener").iterdir()
    )
    assert git(repo.root, "show", "HEAD:MEMORY.md") == b"v2\n"
