"""What ``check`` reports about secrets: in a file's text (what the direct
path would redact, and values refused before), in its name, purged texts come
back; in what is about to be committed (the pre-commit hook: the index git
names, only the memory files in a project's repository); in history (the
commits that hold it, and what to do: rotate, then purge)."""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from gardener.files.layout import PURGE_PENDING, SALT, STATE_DIR
from gardener.git.log import blob_paths, objects
from gardener.git.repo import Repo
from gardener.model.config import Config
from gardener.model.facts import Problem
from gardener.neverstore import decision, redact
from gardener.neverstore.decision import Spans
from gardener.planning.check import conflict_problems, secret_problems
from gardener.store import refused
from gardener.verbs.guard import QUARANTINE, REFUSED, never_store_for
from gardener.verbs.session import open_repo


def name_problems(
    path: str, config: Config, purged: Callable[[str], list[int]]
) -> list[Problem]:
    """A problem if the file name of ``path`` holds a never-store match or a
    text purged before: a path is part of every commit that holds the file."""
    name = path.rpartition("/")[2]
    rules = [f.rule for f in redact.find(name, config.never_store, config.allow)]
    if purged(name):
        rules.append("a text purged before")
    return [
        Problem(
            "secret",
            path,
            None,
            f"the file name holds {rule if ' ' in rule else repr(rule)}: rename the"
            " file (the gardener renames a new note's own before committing it)",
        )
        for rule in rules
    ]


def file_secrets(
    path: str, text: str, config: Config, remembered: Spans | None = None
) -> list[Problem]:
    """One problem per line and rule where the direct path would redact
    (``neverstore.decision``: what ``note`` refuses a line for, a label's
    value on the next line, a wrapped token), and per line holding a value
    refused before (``remembered``); never the secret itself."""
    spans = decision.found_spans(text, never_store_for(path, config), config.allow)
    starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
    seen: dict[tuple[int, str], None] = {}
    for s, _, rule in sorted(spans):
        seen[(bisect_right(starts, s), rule)] = None
    problems = [
        Problem(
            "secret",
            path,
            line,
            f"never-store rule '{rule}' matches here; remove it, then run `gardener check`",
        )  # fmt: skip
        for line, rule in seen
    ]
    lines = {
        bisect_right(starts, s) for s, _ in (remembered(text) if remembered else [])
    }
    problems += [
        Problem(
            "secret",
            path,
            line,
            "holds a value refused or redacted before as a secret; remove it,"
            " then run `gardener check`",
        )  # fmt: skip
        for line in sorted(lines)
    ]
    return problems


def purged_problems(path: str, lines: Iterable[int]) -> list[Problem]:
    return [
        Problem(
            "secret",
            path,
            line,
            "holds a text purged from this workspace (gardener purge): it must not"
            " be committed; the gardener's next record replaces it by [PURGED]",
        )
        for line in lines
    ]


def staged_problems(
    root: Path, config: Config, purged: Callable[[str], list[int]]
) -> list[Problem]:
    """Secrets and purged texts in the files staged for the next commit, and
    in their names: in the index git names in GIT_INDEX_FILE (the one a
    ``commit -a``, ``commit <path>`` or ``commit --only`` is about to commit),
    else the repository's own. In a repository that holds more than the
    workspace (``guarded``), only the memory files are read."""
    index = os.environ.get("GIT_INDEX_FILE")
    if index:  # git gives it relative to the work tree's top, the hook's folder
        index = os.path.abspath(index)
    found = []
    remembered = refused.finder(str(root))
    with open_repo(root) as repo:
        for path, data in repo.staged(index, guarded(repo, config)):
            if path in NEVER_COMMITTED:
                found.append(
                    Problem(
                        "secret", path, None,
                        "the gardener's own file, kept on this machine only (it holds"
                        " originals of secrets, or the key of their hashes): unstage"
                        f" it with `git rm --cached {path}`",
                    )
                )  # fmt: skip
                continue
            text = data.decode("utf-8", "surrogateescape")
            found += file_secrets(path, text, config, remembered)
            found += conflict_problems(path, text)
            found += purged_problems(path, purged(text))
            found += name_problems(path, config, purged)
    return found


# never committed: the originals of redacted secrets, the salt of the hashes
NEVER_COMMITTED = frozenset({QUARANTINE, SALT, PURGE_PENDING, REFUSED})


def workspace_names(config: Config) -> frozenset[str]:
    """The names at a workspace's top that are the workspace's own."""
    tops = {config.memory_file.split("/")[0], config.notes_dir.split("/")[0]}
    return frozenset(tops | {"rules.md", STATE_DIR, ".gitattributes", ".gitignore"})


def guarded(repo: Repo, config: Config) -> list[str] | None:
    """The pathspecs the hook reads: None (every file) in a repository that
    is the workspace alone; the memory files, rules.md and the gardener's
    state when HEAD's top holds other names too (a project's repository with
    a workspace in it, whose code, fixtures and package files are not the
    gardener's to judge)."""
    own = workspace_names(config)
    if all(name in own for name in repo.top_names()):
        return None
    return [config.memory_file, config.notes_dir, "rules.md", STATE_DIR]


def history_problems(root: Path, config: Config) -> list[Problem]:
    """Secrets in every blob git holds, each named by a path that held it and
    the commits that hold it, with what to do: rotate, then purge."""
    problems = []
    with open_repo(root) as repo:
        paths = blob_paths(repo)
        for sha, kind, data in objects(repo):
            if kind != "blob":
                continue
            where = f"{paths.get(sha, '?')} (history, blob {sha[:10]})"
            found = secret_problems(
                where, data.decode("utf-8", "surrogateescape"), config
            )
            if found:
                advice = _leak_advice(repo.commits_holding(sha))
                problems += [replace(p, message=p.message + advice) for p in found]
    return problems


def _leak_advice(commits: list[str]) -> str:
    """What a problem found in history adds: the commits, rotate, purge."""
    named = ", ".join(c[:10] for c in commits[:5])
    more = f" and {len(commits) - 5} more" if len(commits) > 5 else ""
    held = f"; committed in {named}{more}" if commits else "; in an unreachable object"
    return (
        f"{held}. Treat it as leaked: rotate the credential first (a push or a"
        " clone has copied it already), then erase it from every commit with"
        " `gardener purge TEXT` (lists where it is) and `gardener purge TEXT --yes`"
    )
