"""The rerun of a purge killed half-way (see docs/design.md, Purge).

``resume_killed`` runs first in a purge: it finishes the history rewrite the
marker ``.git/gardener-purge`` speaks of (``gardener.verbs.rewriting.resume``).
``finish_killed`` runs when the text is found nowhere: a purge of it killed
after its rewrite gets its tombstone and its hash remembered, once.
"""

from __future__ import annotations

import getpass
import shutil
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.git import trailers
from gardener.git.identity import Identity, identity_for
from gardener.planning.purge import Needle, check_text
from gardener.store import purged
from gardener.verbs import purgekeys, rewriting
from gardener.verbs.messages import purge_message
from gardener.verbs.purgeresult import PurgeResult

if TYPE_CHECKING:
    from gardener.git.repo import Repo

Commit = Callable[[Sequence[str], str, "Identity | None"], "str | None"]


def resume_killed(root: Path, repo: Repo, text: str, ignore_case: bool) -> bool:
    """Before anything else runs in a purge of ``text``: finish the history
    rewrite of a purge of it that was killed half-way
    (``gardener.verbs.rewriting.resume``); True if there was one."""
    check_text(text)
    return rewriting.resume(Path(root), repo, Needle(text, ignore_case))


def finish_killed(
    root: Path,
    repo: Repo,
    needle: Needle,
    result: PurgeResult,
    commit: Commit,
    by: str | None,
    now: datetime,
) -> PurgeResult:
    """The text is nowhere: finish any purge of it that was killed after its
    rewrite (its hash still in ``purge-pending``): remember the hash and make
    the tombstone, unless the tombstone was made already. ``result`` as is if
    there was none."""
    lines = purged.pending_lines(root, needle.text)
    if not lines:
        return result
    sha = None
    kept = rewriting.kept(repo)  # what the killed run planned (if it got so far)
    counts = kept.get("counts") or [0, 0]
    for line in lines:
        purge_id = line.split("\t", 1)[0]
        if tombstone_made(repo, purge_id):
            continue  # killed after its tombstone: only the pending line is left
        who = needle.mask(by or os_user())
        paths = purgekeys.write(root, kept.get("keys") or {})
        shutil.rmtree(repo.git_dir / "gardener", ignore_errors=True)  # caches
        sha = commit(
            purged.remember(root, needle.text, line) + paths,
            tombstone(counts[0], counts[1], purge_id, who, now), identity_for(who),
        )  # fmt: skip
    purged.end_pending(root, lines)
    rewriting.end(repo)
    return replace(
        result,
        purge_id=lines[-1].split("\t", 1)[0],
        commit=sha,
        warnings=("finished a purge of this text that was stopped half-way",),
    )


def tombstone_made(repo: Repo, purge_id: str) -> bool:
    """Whether HEAD's history holds the tombstone of ``purge_id``."""
    grep = f"--grep={trailers.trailer(trailers.PURGE_ID, purge_id)}"
    _, out = repo.run("log", "-1", "--format=%H", "-F", grep)
    return bool(out.strip())


def tombstone(commits: int, files: int, purge_id: str, who: str, now: datetime) -> str:
    return purge_message(commits, files, purge_id, who, now, purged.PURGED)


def os_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"
