"""Remotes, for ``sync`` and ``purge --push``: refs, fetches, pushes, ancestry.

Every function takes the ``gardener.git.repo.Repo`` to work on. Ref names
are full (``refs/heads/main``); shas are full hex strings. Pushes and
fetches run with hooks off, as every command of ``gardener.git.run``.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.git.run import decode

if TYPE_CHECKING:
    from gardener.git.repo import Repo

ZERO = "0" * 40


@dataclass(frozen=True)
class Pushed:
    """One ref pushed (or refused): ``remote`` ``ref``, from ``old`` to ``new``."""

    remote: str
    ref: str
    old: str | None
    new: str
    ok: bool
    message: str = ""


def refs(repo: Repo, *prefixes: str) -> dict[str, str]:
    """Ref name -> the commit it points at, for refs under ``prefixes``."""
    _, out = repo.run("for-each-ref", "--format=%(refname) %(objectname)", *prefixes)
    pairs = (line.split(" ", 1) for line in decode(out).splitlines() if line)
    return {name: sha for name, sha in pairs}


def current_branch(repo: Repo) -> str | None:
    """The branch HEAD is on (``main``), or None when detached."""
    status, out = repo.run("symbolic-ref", "--quiet", "--short", "HEAD", ok=(0, 1))
    return decode(out).strip() or None if status == 0 else None


def upstream(repo: Repo, branch: str) -> tuple[str | None, str]:
    """The remote and remote branch ``branch`` tracks: (``origin``, ``main``);
    the remote is None when it tracks none (the branch name is kept then)."""
    _, remote = repo.run("config", "--get", f"branch.{branch}.remote", ok=(0, 1))
    _, merge = repo.run("config", "--get", f"branch.{branch}.merge", ok=(0, 1))
    name = decode(merge).strip().removeprefix("refs/heads/") or branch
    return decode(remote).strip() or None, name


def rev(repo: Repo, name: str) -> str | None:
    """The commit ``name`` names, or None if it names none."""
    status, out = repo.run(
        "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}", ok=(0, 1)
    )
    return decode(out).strip() if status == 0 else None


def is_ancestor(repo: Repo, old: str, new: str) -> bool:
    """True if commit ``old`` is ``new`` or an ancestor of it."""
    status, _ = repo.run("merge-base", "--is-ancestor", old, new, ok=(0, 1, 128))
    return status == 0


def commits(repo: Repo, *spec: str) -> list[tuple[str, int]]:
    """(sha, committer time in Unix seconds) of ``git rev-list SPEC``, newest first."""
    _, out = repo.run("rev-list", "--format=%H %ct", "--no-commit-header", *spec)
    return [
        (sha, int(when))
        for sha, when in (line.split() for line in decode(out).splitlines() if line)
    ]


def remote_refs(repo: Repo, remote: str, pattern: str) -> dict[str, str]:
    """Ref name -> sha of the refs ``remote`` holds matching ``pattern``
    (``git ls-remote``; peeled ``^{}`` lines left out); {} if unreachable."""
    status, out = repo.run("ls-remote", remote, pattern, ok=tuple(range(256)))
    pairs = (line.split("\t", 1) for line in decode(out).splitlines() if "\t" in line)
    found = {name: sha for sha, name in pairs if not name.endswith("^{}")}
    return found if status == 0 else {}


def fetch(repo: Repo, remote: str) -> None:
    """``git fetch --prune REMOTE`` (remote-tracking refs follow a rewrite)."""
    status, _, err = repo.attempt("fetch", "--prune", "--quiet", remote)
    if status != 0:
        raise GardenerError(f"git fetch {remote} failed: {error_line(err, status)}")


def error_line(stderr: str, status: int) -> str:
    """The line of git's ``stderr`` that says why it failed (its first
    ``fatal:`` or ``error:`` line, else its last line), or ``exit STATUS``."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = [x for x in lines if x.startswith(("fatal:", "error:"))]
    return (said or lines[-1:] or [f"exit {status}"])[0]


def push(repo: Repo, remote: str, ref: str, new: str, lease: str | None) -> Pushed:
    """Push commit ``new`` to ``ref`` on ``remote``; with ``lease`` (the sha
    the remote is believed to hold, ZERO for none) it may rewrite it
    (``--force-with-lease``), else only fast-forward. Never raises for a
    refusal: ``Pushed.ok`` says, ``message`` says why."""
    args = ["push", "--porcelain"]
    if lease is not None:
        args.append(f"--force-with-lease={ref}:{'' if lease == ZERO else lease}")
    status, out, err = repo.attempt(*args, remote, f"{new}:{ref}")
    lines = [line for line in decode(out).splitlines() if line.count("\t") >= 2]
    ok = status == 0
    why = (
        "" if ok else (lines[-1].split("\t")[-1] if lines else error_line(err, status))
    )
    return Pushed(remote, ref, lease, new, ok, why)


def tombstones(repo: Repo, tip: str, trailer: str) -> list[tuple[str, int]]:
    """(sha, committer time) of the commits reachable from ``tip`` whose
    message holds ``trailer`` (``Gardener-Purge-Id``), newest first."""
    _, out = repo.run(
        "log", "--format=%H %ct", "-F", f"--grep={trailer}: ", tip, ok=(0, 128)
    )
    return [
        (sha, int(when))
        for sha, when in (line.split() for line in decode(out).splitlines() if line)
    ]


def local_path(repo: Repo, remote: str) -> str | None:
    """The folder of ``remote`` when it is a bare repository on this machine
    (a path or ``file://`` URL), else None (a host: its own housekeeping)."""
    status, out = repo.run("remote", "get-url", remote, ok=(0, 2, 128))
    url = decode(out).strip() if status == 0 else ""
    url = url.removeprefix("file://")
    if (
        not url
        or "://" in url
        or (":" in url.split("/", 1)[0] and not os.path.isdir(url))
    ):
        return None
    path = url if os.path.isabs(url) else os.path.join(repo.root, url)
    bare = subprocess.run(
        ["git", "-C", path, "rev-parse", "--is-bare-repository"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return path if bare.returncode == 0 and bare.stdout.strip() == "true" else None


def prune_remote(path: str) -> None:
    """In the bare repository at ``path``: expire every reflog and prune every
    unreachable object, so a history a force-push replaced is gone there too."""
    for args in (
        ("reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"),
        ("gc", "--prune=now", "--quiet"),
    ):
        subprocess.run(["git", "-C", path, *args], capture_output=True, check=False)
