"""History reads: the commits of a ``gardener.git.repo.Repo`` and its whole store.

Commit lists (``log``, ``first_commit_time``, ``first_added``, ``commits_adding``) and the
lines a kind of commit changed (``line_changes``) serve ``why`` and ``prune``
(``gardener.verbs.why``, ``gardener.verbs.prune``); reads of every object
(``objects``, ``scan_history``, ``blob_paths``) and of the git folder's own
files (``state_files_holding``) serve ``check --history`` and ``purge``.
Each function takes the ``Repo`` to read. Not on ``gardener note``'s path (it
never reads history), so not held to its import budget.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.git import trailers
from gardener.git.run import decode, relative_paths, split_z

if TYPE_CHECKING:
    from gardener.git.repo import Repo

_LOG_FORMAT = "--format=%H%x1f%an%x1f%at%x1f%s"


@dataclass(frozen=True, slots=True)
class CommitInfo:
    """One commit, as history reads return it."""

    sha: str  # full hex object id
    author: str  # author name
    time: datetime  # author time, UTC-aware
    subject: str  # first line of the message, trailing blanks trimmed (git's %s)


@dataclass(frozen=True, slots=True)
class Holder:
    """A commit reachable from a ref whose snapshot or own text holds a needle."""

    sha: str
    time: datetime  # author time, UTC-aware
    subject: str  # first line of the message
    in_files: int  # occurrences in its snapshot: file contents and file names
    in_commit: int  # occurrences in its message, author and committer


@dataclass(frozen=True, slots=True)
class HistoryScan:
    """Where a needle occurs in a repository's object store."""

    objects: int  # objects read: every one in the store, reachable or not
    holding: tuple[str, ...]  # ids of the objects whose own bytes hold it
    commits: tuple[
        Holder, ...
    ]  # commits reachable from refs that hold it, oldest first


def log(
    repo: Repo, path: str | None = None, limit: int | None = None
) -> list[CommitInfo]:
    """Commits (newest first) of HEAD, or only those that touch ``path``.

    ``limit`` caps the count; an empty repository gives [].
    """
    if not repo.has_commits():
        return []
    args = [] if limit is None else [f"--max-count={limit}"]
    if path is not None:
        args += ["--", *relative_paths([path])]
    return _log(repo, *args)


def first_commit_time(repo: Repo, path: str) -> datetime | None:
    """Author time (UTC-aware) of the first commit that added ``path``; None if none."""
    (rel,) = relative_paths([path])
    if not repo.has_commits():
        return None
    _, out = repo.run("log", "--reverse", "--diff-filter=A", "--format=%at", "--", rel)
    stamps = decode(out).split()
    return datetime.fromtimestamp(int(stamps[0]), UTC) if stamps else None


def first_added(repo: Repo, folder: str) -> dict[str, tuple[datetime, str | None]]:
    """Each file under ``folder`` a commit added -> (author time, UTC-aware, and
    the ``Gardener-Action`` of the first commit that added it, None for a
    person's own); one ``git log`` for the whole folder. Renames count as
    adds (``--no-renames``): a note moved into place was first added there."""
    (rel,) = relative_paths([folder])
    if not repo.has_commits():
        return {}
    _, out = repo.run(
        "log", "--reverse", "--diff-filter=A", "--no-renames", "--name-only", "-z",
        f"--format=%x01%at %(trailers:key={trailers.ACTION},valueonly,separator=%x2C)",
        "--", rel,
    )  # fmt: skip
    found: dict[str, tuple[datetime, str | None]] = {}
    for record in decode(out).split("\x01")[1:]:
        head, _, names = record.partition("\n")
        stamp, _, action = head.strip("\0").partition(" ")
        when = datetime.fromtimestamp(int(stamp), UTC)
        for name in names.split("\0"):
            if name and name not in found:
                found[name] = (when, action.strip() or None)
    return found


def commits_adding(repo: Repo, needle: str, path: str) -> list[CommitInfo]:
    """Commits whose change to ``path`` alters how often the literal ``needle``
    occurs in it (``git log -S``): additions and removals, oldest first."""
    (rel,) = relative_paths([path])
    if not needle or not repo.has_commits():
        return []
    return _log(repo, "--reverse", "--no-textconv", f"-S{needle}", "--", rel)


def line_changes(
    repo: Repo, path: str, action: str | None
) -> list[tuple[CommitInfo, list[str], list[str]]]:
    """(commit, lines removed from ``path``, lines added to it) for each
    commit with the trailer ``Gardener-Action: <action>`` (None: each commit
    with no such trailer, a person's own), newest first; one ``git log -p``.
    Lines come without their ``-``/``+``."""
    (rel,) = relative_paths([path])
    if not repo.has_commits():
        return []
    grep = ["--grep=" + trailers.grep_action(action)]
    if action is None:
        grep.append("--invert-grep")
    _, out = repo.run(
        "log", "-p", "-U0", "--no-ext-diff", "--no-textconv", "--no-renames",
        "--fixed-strings", *grep,
        "--format=%x00" + _LOG_FORMAT.removeprefix("--format="), "--", rel,
    )  # fmt: skip
    found = []
    for record in out.split(b"\x00")[1:]:
        head, _, diff = record.partition(b"\n")
        sha, author, stamp, subject = decode(head).split("\x1f", 3)
        when = datetime.fromtimestamp(int(stamp), UTC)
        removed: list[str] = []
        added: list[str] = []
        for line in diff.split(b"\n"):
            if line.startswith((b"--- ", b"+++ ")):
                continue  # the file names
            if line[:1] in (b"-", b"+"):
                side = removed if line[:1] == b"-" else added
                side.append(line[1:].decode("utf-8", "surrogateescape"))
        found.append((CommitInfo(sha, author, when, subject), removed, added))
    return found


def objects(repo: Repo) -> Iterator[tuple[str, str, bytes]]:
    """Every object in the store, reachable or not: (id, type, raw content).

    Streamed one at a time through GitPython's persistent ``cat-file
    --batch`` process, so memory follows the largest object, not the store.
    """
    _, out = repo.run(
        "cat-file",
        "--batch-all-objects",
        "--batch-check=%(objectname)",
        "--unordered",
    )
    for sha in decode(out).split():
        yield sha, *repo.read_object(sha)


def scan_history(repo: Repo, count: Callable[[bytes], int]) -> HistoryScan:
    """Read every object and find where ``count`` (occurrences in bytes) is not 0.

    Blobs are counted whole; trees by their file names; commits and tags
    without their tree, parent and object lines (hex ids are not text).
    A commit holds the needle when its message, author, committer or any
    file (content or name) in its snapshot does.
    """
    kinds: dict[str, str] = {}
    own: dict[str, int] = {}
    entries: dict[str, list[str]] = {}  # tree -> its blobs and subtrees
    commits: dict[str, tuple[str, bytes]] = {}  # commit -> (tree, raw)
    for sha, kind, data in objects(repo):
        kinds[sha] = kind
        if kind == "blob":
            own[sha] = count(data)
        elif kind == "tree":
            names, children = _parse_tree(data)
            own[sha] = sum(count(name) for name in names)
            entries[sha] = children
        else:
            lines = data.split(b"\n")
            tree = lines[0][5:].decode() if kind == "commit" else ""
            kept = [
                line
                for line in lines
                if not line.startswith((b"tree ", b"parent ", b"object "))
            ]
            own[sha] = count(b"\n".join(kept))
            if kind == "commit":
                commits[sha] = (tree, data)
    totals: dict[str, int] = {}

    def total(tree: str) -> int:  # occurrences in a snapshot, memoized
        if tree not in totals:
            totals[tree] = own.get(tree, 0) + sum(
                total(c) if kinds.get(c) == "tree" else own.get(c, 0)
                for c in entries.get(tree, [])
            )
        return totals[tree]

    holders = []
    for sha in reachable_commits(repo):
        if sha not in commits:  # behind a shallow boundary
            continue
        tree, raw = commits[sha]
        in_files, in_commit = total(tree), own[sha]
        if in_files or in_commit:
            when, subject = _commit_time_subject(raw)
            holders.append(Holder(sha, when, subject, in_files, in_commit))
    holding = tuple(sorted(sha for sha, n in own.items() if n))
    return HistoryScan(len(kinds), holding, tuple(holders))


def reachable_commits(repo: Repo) -> list[str]:
    """Commits reachable from any ref or HEAD, oldest first."""
    head = ["HEAD"] if repo.has_commits() else []
    _, out = repo.run("rev-list", "--all", *head, "--reverse", "--date-order")
    return decode(out).split()


def blob_paths(repo: Repo) -> dict[str, str]:
    """Blob id -> a path it had in some reachable commit (for reporting)."""
    head = ["HEAD"] if repo.has_commits() else []
    _, out = repo.run("rev-list", "--all", *head, "--objects")
    paths: dict[str, str] = {}
    for line in decode(out).splitlines():
        sha, _, path = line.partition(" ")
        if path:
            paths.setdefault(sha, path)
    return paths


def state_files_holding(repo: Repo, count: Callable[[bytes], int]) -> list[str]:
    """Files in the git folder, objects aside, whose bytes hold the needle
    (git-folder-relative POSIX paths): refs, reflogs, config, saved messages."""
    git_dir = repo.git_dir
    found = []
    for folder, dirs, files in os.walk(git_dir):
        if Path(folder) == git_dir:
            dirs[:] = [d for d in dirs if d != "objects"]
        for name in files:
            path = Path(folder, name)
            if path.is_symlink():
                continue
            try:
                if count(path.read_bytes()):
                    found.append(path.relative_to(git_dir).as_posix())
            except OSError:
                continue  # gone meanwhile, or unreadable
    return sorted(found)


def _log(repo: Repo, *args: str) -> list[CommitInfo]:
    _, out = repo.run("log", "-z", _LOG_FORMAT, *args)
    commits = []
    for record in split_z(out):
        sha, author, stamp, subject = record.split("\x1f", 3)
        when = datetime.fromtimestamp(int(stamp), UTC)
        commits.append(CommitInfo(sha, author, when, subject))
    return commits


def _parse_tree(data: bytes) -> tuple[list[bytes], list[str]]:
    """A raw tree's entry names, and the ids of its blobs and subtrees (not gitlinks)."""
    names: list[bytes] = []
    children: list[str] = []
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        names.append(data[space + 1 : nul])
        if data[at:space] != b"160000":  # a submodule's commit is not in this store
            children.append(data[nul + 1 : nul + 21].hex())
        at = nul + 21
    return names, children


def _commit_time_subject(raw: bytes) -> tuple[datetime, str]:
    """A raw commit's author time (UTC) and the first line of its message."""
    head, _, message = raw.partition(b"\n\n")
    stamp = 0
    for line in head.split(b"\n"):
        if line.startswith(b"author "):
            stamp = int(line.rsplit(b" ", 2)[1])
    subject = decode(message).split("\n", 1)[0].rstrip()
    return datetime.fromtimestamp(stamp, UTC), subject
