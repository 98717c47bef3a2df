"""History reads for merges: the merge commits that touched a path, their
base, and a path's text at several commits in one ``git cat-file`` process."""

from __future__ import annotations

from collections.abc import Sequence

from gardener.git.run import Runner


def head(repo: Runner) -> str | None:
    """HEAD's commit id (None: no commit yet)."""
    status, out = repo.run("rev-parse", "--verify", "--quiet", "HEAD", ok=(0, 1))
    return out.decode("ascii", "replace").strip() if status == 0 else None


def merges_touching(
    repo: Runner, path: str, limit: int, since: str | None = None
) -> list[tuple[str, list[str]]]:
    """The newest ``limit`` merge commits on HEAD's history (after ``since``
    only, when that commit is known) whose ``path`` differs from a parent's,
    newest first: (commit, parents). A merge that took one parent's version
    whole is listed too (``--full-history``)."""
    args = ["log", "--full-history", "--merges", f"-n{limit}", "--format=%H %P"]
    status, out = repo.run(*args, f"{since}..HEAD" if since else "HEAD", "--", path,
                           ok=(0, 128))  # fmt: skip
    if status:  # ``since`` is gone (a purge rewrote history): all of it
        _, out = repo.run(*args, "HEAD", "--", path)
    found = []
    for line in out.decode("ascii", "replace").splitlines():
        commit, *parents = line.split()
        found.append((commit, parents))
    return found


def merge_base(repo: Runner, commits: Sequence[str]) -> str | None:
    """The best common ancestor of ``commits`` (None: they share none)."""
    status, out = repo.run("merge-base", "--octopus", *commits, ok=(0, 1))
    text = out.decode("ascii", "replace").strip()
    return text if status == 0 and text else None


def commits_since(repo: Runner, commit: str, path: str, limit: int) -> list[str]:
    """The newest ``limit`` commits after ``commit`` on HEAD's history that
    changed ``path``."""
    _, out = repo.run("log", f"-n{limit}", "--format=%H", f"{commit}..HEAD", "--", path)
    return out.decode("ascii", "replace").split()


def texts_at(repo: Runner, commits: Sequence[str], path: str) -> dict[str, str | None]:
    """``path``'s text at each of ``commits`` (None: not there), read by one
    ``git cat-file --batch``."""
    if not commits:
        return {}
    names = "".join(f"{c}:{path}\n" for c in commits).encode("utf-8", "surrogateescape")
    _, out = repo.run("cat-file", "--batch", stdin=names)
    texts: dict[str, str | None] = {}
    at = 0
    for commit in commits:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) < 3 or header[-2] != b"blob":
            texts[commit] = None  # "<name> missing", or not a file
            continue
        size = int(header[-1])
        texts[commit] = out[at : at + size].decode("utf-8", "surrogateescape")
        at += size + 1
    return texts
