"""Plain git as a person runs it, and small writes, for the git package's tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gardener.git.repo import Repo

USER = ["-c", "user.name=Human", "-c", "user.email=human@example.org"]


def git(root: Path, *args: str, input: bytes | None = None) -> bytes:
    """Plain git, as a user would run it (with a user identity where needed)."""
    done = subprocess.run(
        ["git", *USER, *args], cwd=root, capture_output=True, check=True, input=input
    )
    return done.stdout


def write(repo: Repo, rel: str, text: str) -> None:
    path = repo.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode())


def head_files(repo: Repo) -> list[bytes]:
    out = git(repo.root, "ls-tree", "-r", "-z", "--name-only", "HEAD")
    return sorted(p for p in out.split(b"\0") if p)


def fmt(repo: Repo, spec: str, rev: str = "HEAD") -> str:
    return git(repo.root, "log", "-1", f"--format={spec}", rev).decode().strip()
