"""Purge: erase a text from the work tree and from every commit (see docs/design.md).

For a right-to-erasure request or a leaked secret. ``purge_text`` rewrites the
whole history with git-filter-repo (file contents and names, commit and tag
messages, author and committer names), replacing the text with ``[PURGED]``,
scrubs the work-tree files, expires every reflog and prunes every unreachable
object, then commits a tombstone that says a purge happened, when and by whom,
never what. A keyed hash of the text (``gardener.store.purged``) lets
``planning.purge.refused_by_purge`` refuse it if someone tries to store it again.

Matching is ``gardener.planning.purge``; git-specific work lives in
``gardener.git.log`` (object scans) and ``gardener.git.rewrite`` (filter-repo,
reflogs, gc). The steps a kill cannot spoil (the marker, the work-tree
carry-over) are ``gardener.verbs.rewriting``; the rerun of a killed purge is
``gardener.verbs.purgeresume``; ``--push`` is ``gardener.verbs.purgepush``; the
report is ``gardener.verbs.purgeresult``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.git import keep
from gardener.git import log as gitlog
from gardener.git import remote as gitremote
from gardener.git import rewrite as gitrewrite
from gardener.git.identity import identity_for
from gardener.git.log import HistoryScan
from gardener.git.run import decode
from gardener.planning.purge import REPLACEMENT, Needle, check_text, needle_regex
from gardener.store import purged
from gardener.verbs import purgekeys, rewriting
from gardener.verbs.purgepush import push_rewrite
from gardener.verbs.purgeresult import FileHit, PurgeResult
from gardener.verbs.purgeresume import (
    Commit,
    finish_killed,
    os_user,
    resume_killed,
    tombstone,
)

if TYPE_CHECKING:
    from gardener.git.repo import Repo

__all__ = ["FileHit", "PurgeResult", "purge_text", "resume_killed"]

_MAX_FILE = rewriting.MAX_FILE


@dataclass(frozen=True)
class _Survey:
    files: tuple[FileHit, ...]
    history: HistoryScan
    git_files: tuple[str, ...]  # in .git, objects aside
    too_large: tuple[str, ...]

    @property
    def found(self) -> bool:
        return bool(self.files or self.history.holding or self.git_files)


def purge_text(
    root: Path,
    repo: Repo,
    text: str,
    *,
    dry_run: bool,
    now: datetime,
    commit: Commit,
    by: str | None = None,
    ignore_case: bool = False,
    push: bool = False,
) -> PurgeResult:
    """Erase ``text`` from the work tree and the whole history of ``repo``.

    ``dry_run`` only reports where it is. ``push``: then force-push (with a
    lease on what each remote held before) every branch the rewrite changed
    to each remote that tracks it (``PurgeResult.pushed``). ``commit(paths, message, author)``
    makes the tombstone commit; ``by`` is who asked (default: the OS user);
    ``now`` (local time) goes in the tombstone. The caller holds the
    workspace lock and has committed the gardener's own changes.

    Lines appended meanwhile (an agent's ``>>``) are kept, scrubbed
    (``gardener.verbs.rewriting``), as are stashes and index flags.

    Raises UsageError for a text shorter than 4 characters, GardenerError when
    tracked files have uncommitted changes other than appended lines, git is
    mid-merge/rebase, the repository has another worktree or a live gc
    (nothing is changed then), or when an object still holds the text
    afterwards.
    """
    check_text(text)
    root = Path(root)
    needle = Needle(text, ignore_case)
    before = _survey(root, repo, needle)
    commits = tuple(replace(c, subject=needle.mask(c.subject)) for c in before.history.commits)  # fmt: skip
    remotes = tuple(gitrewrite.remotes(repo))
    warnings = [f"{p} is too large to scan ({_MAX_FILE >> 20} MiB or more): check it by hand" for p in before.too_large]  # fmt: skip
    if remotes and before.found:
        warnings.append(_remote_warning(remotes, dry_run, push))
    result = PurgeResult(
        found=before.found,
        dry_run=dry_run,
        files=before.files,
        commits=commits,
        objects=len(before.history.holding),
        objects_scanned=before.history.objects,
        remotes=remotes,
    )
    if not before.found:
        if dry_run:
            return result
        return finish_killed(root, repo, needle, result, commit, by, now)
    if dry_run:
        blocked = _blockers(root, repo)
        if blocked:
            warnings.append(f"--yes would refuse now: {blocked}")
        return replace(result, warnings=tuple(warnings))
    blocked = _blockers(root, repo)
    if blocked:
        raise GardenerError(blocked)
    old_refs = gitremote.refs(repo, "refs/heads", "refs/remotes", "refs/tags")
    purge_id, sha = _erase(root, repo, needle, before, commit, by, now)
    after = _survey(root, repo, needle)
    if after.files:  # written again while the purge ran: once more
        rewriting.scrub_work_tree(root, needle, rewriting.carry_folder(repo))
        after = _survey(root, repo, needle)
    if after.history.holding:
        where = [f"object {s}" for s in after.history.holding[:5]]
        raise GardenerError(
            f"purge incomplete: these still hold the text: {', '.join(where)}"
        )
    warnings += [
        f"{f.path} was given the text again while the purge ran: the next record "
        "takes it out before any commit (the text is refused from now on)"
        for f in after.files
    ]
    warnings += [
        f".git/{p} still holds the text (a remote URL or a setting?): edit it by hand"
        for p in after.git_files
    ]
    pushed = push_rewrite(repo, old_refs) if push else ()
    warnings += [
        f"{p.remote} {p.ref} was not pushed ({p.message}): it still holds the text"
        for p in pushed
        if not p.ok
    ]
    return replace(
        result,
        objects_scanned=after.history.objects,
        purge_id=purge_id,
        commit=sha,
        warnings=tuple(warnings),
        pushed=pushed,
    )


def _erase(
    root: Path,
    repo: Repo,
    needle: Needle,
    before: _Survey,
    commit: Commit,
    by: str | None,
    now: datetime,
) -> tuple[str, str | None]:
    """Rewrite the history, scrub the files, commit the tombstone: (purge id, its sha)."""
    purge_id = secrets.token_hex(6)
    line = purged.hash_line(root, needle.text, purge_id)
    # from here on, the text is refused, even if this is killed
    purged.begin(root, line)
    # the marks the edits change, planned now (a rerun after a kill writes the same)
    keys = purgekeys.plan(root, repo, needle, [f.path for f in before.files])
    commits, files = len(before.history.commits), len(before.files)
    # a killed run whose rewrite was finished but reached only some refs
    # (fast-import updates them one by one): its counts and marks are the true ones
    earlier = rewriting.kept(repo)
    keys = {**(earlier.get("keys") or {}), **keys}
    commits, files = earlier.get("counts") or (commits, files)
    rewriting.begin(repo, needle, {"counts": [commits, files], "keys": keys})
    if before.history.commits:
        regex = needle_regex(needle.text)
        gitrewrite.rewrite_history(repo, regex, REPLACEMENT, needle.ignore_case)
    rewriting.finish(root, repo, needle, rewritten=bool(before.history.commits))
    rekeyed = purgekeys.write(root, keys)
    paths = purged.remember(root, needle.text, line) + rekeyed
    who = needle.mask(by or os_user())  # who asked may be whom it is about
    sha = commit(
        paths, tombstone(commits, files, purge_id, who, now), identity_for(who)
    )
    (root / purged.PENDING).unlink(missing_ok=True)
    rewriting.end(repo)
    return purge_id, sha


def _survey(root: Path, repo: Repo, needle: Needle) -> _Survey:
    files: list[FileHit] = []
    too_large: list[str] = []
    for path in rewriting.work_tree_files(root):
        rel = path.relative_to(root).as_posix()
        try:
            if path.stat().st_size >= _MAX_FILE:
                too_large.append(rel)
                continue
            n = needle.count(path.read_bytes())
        except OSError:
            continue  # gone meanwhile, or unreadable
        if n:
            files.append(FileHit(rel, n))
    history = gitlog.scan_history(repo, needle.count)
    git_files = tuple(gitlog.state_files_holding(repo, needle.count))
    return _Survey(tuple(files), history, git_files, tuple(too_large))


def _blockers(root: Path, repo: Repo) -> str | None:
    """Why a history rewrite cannot run now, or None. A tracked file whose
    only change is lines appended (an agent's ``>>``) is no obstacle: the
    rewrite carries the work tree over (``gardener.verbs.rewriting``)."""
    busy = repo.in_progress()
    if busy:
        return f"git is in the middle of {busy} in {root}: finish or abort it, then purge again"
    unsafe = keep.blocker(repo)
    if unsafe:
        return unsafe
    dirty = [p for p in repo.uncommitted() if not _only_appended(root, repo, p)]
    if dirty:
        shown = ", ".join(dirty[:10]) + (" ..." if len(dirty) > 10 else "")
        return (
            f"uncommitted changes to tracked files ({shown}): purge rewrites the history and resets "
            f"the work tree to it, so they would be lost; commit them first "
            f"(`git -C {root} commit -m '...' -- <files>`) or stash them (`git -C {root} stash`), then purge again"
        )
    return None


def _only_appended(root: Path, repo: Repo, rel: str) -> bool:
    """Whether tracked ``rel`` differs from HEAD only by bytes appended in
    the work tree (the index as HEAD)."""
    code, head = repo.run("rev-parse", "-q", "--verify", f"HEAD:{rel}", ok=(0, 1, 128))
    _, staged = repo.run("ls-files", "-s", "-z", "--", rel)
    if code != 0 or decode(head).strip() not in decode(staged):
        return False  # new, deleted or staged
    try:
        data = (root / rel).read_bytes()
    except OSError:
        return False
    return data.startswith(repo.run("cat-file", "blob", decode(head).strip())[1])


def _remote_warning(remotes: Sequence[str], dry_run: bool, push: bool) -> str:
    names = ", ".join(remotes)
    clones = (
        "then run `gardener sync` in every other clone (it rewrites its history "
        "the same way; a clone that merges instead is refused when it pushes) "
        "and ask the host to drop cached views"
    )
    if push and not dry_run:
        return f"the rewrite is force-pushed to {names} (each push is listed, with whether it went): {clones}"
    verb = "will still hold" if dry_run else "still hold"
    return (
        f"this workspace has remotes ({names}): the rewrite stays local until pushed, "
        f"and they {verb} the text. After checking the result, push it "
        f"(`gardener purge --push` does; or `git push --force-with-lease --all <remote>`), "
        f"{clones}"
    )
