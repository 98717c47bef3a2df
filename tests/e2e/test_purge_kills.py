"""A purge killed with SIGKILL at each of its steps, then run again, ends as
an unkilled purge does (issue 20 item 7, issue 19's killed-purge rerun).

The kill is a real one: a ``git`` on PATH (written here, test-only) that, at
the N-th call of a given git command, SIGKILLs the purge's whole process
group (the gardener, filter-repo's child Python, the gits) and then runs
nothing. The rerun is a plain ``gardener purge`` with no such git.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import Workspace
from tests.verbs.test_purge import NAME, PERSON, git

_SHIM = """#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = "$KILL_WORD" ]; then
    n=$(( $(cat "$KILL_COUNT" 2>/dev/null || echo 0) + 1 ))
    echo $n > "$KILL_COUNT"
    if [ "$n" -eq "$KILL_NTH" ]; then
      kill -9 -"$(cut -d' ' -f5 /proc/$$/stat)"
      sleep 5
    fi
    break
  fi
done
exec {git} "$@"
"""
# (git command or argument, which call of it): each step of a purge
KILL_POINTS = [
    ("for-each-ref", 2),  # begin: the refs before
    ("update-index", 1),  # begin: the flags cleared
    ("fast-export", 1),  # filter-repo reading the history
    ("--no-deref", 1),  # filter-repo's ref update (one transaction)
    ("ls-files", 3),  # the work tree carried over
    ("reset", 1),  # the index reset to the new HEAD
    ("reflog", 1),  # the reflogs expired
    ("store", 1),  # the stash rebuilt
    ("gc", 1),  # old objects pruned
    ("commit", 1),  # the tombstone
]


def make_workspace(ws: Workspace) -> None:
    """Two days of notes naming NAME, promoted, a stash naming it, a skip-worktree note."""
    ws.note(f"{NAME} prefers tabs over spaces", by="atlas")
    ws.note("the CI runs on every push", by="atlas")
    ws.promote()
    ws.now_override = "2026-01-06T09:00"
    ws.note(f"{NAME} moved to the Lisbon office", by="atlas")
    ws.promote()
    memory = ws.root / "MEMORY.md"
    with memory.open("a") as out:
        out.write(f"\nscratch about {NAME}\n")
    git(ws.root, *PERSON, "stash", "push", "-q", "-m", "wip scratch")
    with memory.open("a") as out:
        out.write("\nother scratch\n")
    git(ws.root, *PERSON, "stash", "push", "-q", "-m", "wip other")
    git(ws.root, "update-index", "--skip-worktree", "memory/2026-01-05.md")


def run_purge(root: Path, env: dict[str, str] | None = None) -> int:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gardener",
            "-w",
            str(root),
            "purge",
            NAME,
            "--yes",
            "--by",
            "dpo",
        ],  # fmt: skip
        env={**os.environ, "GARDENER_NOW": "2026-01-06T10:00", **(env or {})},
        capture_output=True,
        start_new_session=True,
        timeout=300,
    )
    return done.returncode


def end_state(root: Path) -> dict[str, object]:
    """What an unkilled purge's end is judged by: the files of HEAD and the
    work tree (the register aside: its salt is random), the commit subjects,
    the stash, the flags, no half-purge left."""
    files = {
        p: git(root, "show", f"HEAD:{p}")
        for p in git(root, "ls-files").splitlines()
        if p != ".gardener/purged"
    }
    tree = {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts[:1]
        and p.name not in ("purged", "purged.local", "salt")
    }  # fmt: skip
    subjects = git(root, "log", "--format=%s").splitlines()
    return {
        "files": files,
        "tree": tree,
        "subjects": [s.split(" (purge id")[0] for s in subjects],
        "stash": git(root, "stash", "list", "--format=%gs"),
        "flags": git(root, "ls-files", "-v", "memory/"),
        "status": git(root, "status", "--porcelain"),
        "left": [
            p
            for p in (".gardener/purge-pending", ".git/gardener-purge")
            if (root / p).exists()
        ],  # fmt: skip
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    ws, _ = Workspace.init(tmp_path_factory.mktemp("ref") / "ws", now_override="2026-01-05T09:00")  # fmt: skip
    make_workspace(ws)
    assert run_purge(ws.root) == 0
    return end_state(ws.root)


@pytest.mark.parametrize(("word", "nth"), KILL_POINTS)
def test_a_purge_killed_at_any_step_reruns_to_the_same_end(
    ws: Workspace, tmp_path: Path, reference: dict[str, object], word: str, nth: int
):
    make_workspace(ws)
    shim_dir = tmp_path / "shim"
    shim_dir.mkdir()
    shim = shim_dir / "git"
    shim.write_text(_SHIM.format(git=shutil.which("git")))
    shim.chmod(0o755)
    env = {
        "PATH": f"{shim_dir}{os.pathsep}{os.environ['PATH']}",
        "KILL_WORD": word,
        "KILL_NTH": str(nth),
        "KILL_COUNT": str(tmp_path / "count"),
    }
    code = run_purge(ws.root, env)
    assert code == -9, f"the kill point {word} #{nth} was never reached"
    assert run_purge(ws.root) == 0
    assert end_state(ws.root) == reference
    assert not [p for p in ws.check() if p.kind in ("secret", "purge")]
    objects = subprocess.run(
        ["git", "-C", str(ws.root), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    assert NAME.encode() not in objects
    assert NAME not in git(ws.root, "log", "--all", "--reflog", "-p")
