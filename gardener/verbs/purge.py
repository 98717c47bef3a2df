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
reflogs, gc).
"""

from __future__ import annotations

import getpass
import secrets
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.git import keep, trailers
from gardener.git import log as gitlog
from gardener.git import remote as gitremote
from gardener.git import rewrite as gitrewrite
from gardener.git.identity import Identity, identity_for
from gardener.git.log import HistoryScan, Holder
from gardener.git.remote import Pushed
from gardener.git.run import decode
from gardener.planning.purge import REPLACEMENT, Needle, check_text, needle_regex
from gardener.store import purged
from gardener.verbs import purgekeys, rewriting
from gardener.verbs.follow import new_purges
from gardener.verbs.messages import purge_message

if TYPE_CHECKING:
    from gardener.git.repo import Repo

_MAX_FILE = rewriting.MAX_FILE
_SHOWN_COMMITS = 20

Commit = Callable[[Sequence[str], str, "Identity | None"], "str | None"]


@dataclass(frozen=True)
class FileHit:
    path: str  # workspace-relative POSIX
    count: int


@dataclass(frozen=True)
class _Survey:
    files: tuple[FileHit, ...]
    history: HistoryScan
    git_files: tuple[str, ...]  # in .git, objects aside
    too_large: tuple[str, ...]

    @property
    def found(self) -> bool:
        return bool(self.files or self.history.holding or self.git_files)


@dataclass(frozen=True)
class PurgeResult:
    """What held the text (before the purge) and what the purge did.

    Never holds the text: commit subjects are shown with it masked.
    """

    found: bool
    dry_run: bool
    files: tuple[FileHit, ...]  # work-tree files that held it
    commits: tuple[Holder, ...]  # commits reachable from a ref that held it
    objects: int  # objects in the store that held it (reachable or not)
    objects_scanned: int  # in the last scan: after the purge, if one ran
    remotes: tuple[str, ...]
    purge_id: str | None = None
    commit: str | None = None  # the tombstone
    warnings: tuple[str, ...] = field(default=())
    pushed: tuple[Pushed, ...] = field(default=())  # ``--push``: each branch pushed

    def as_dict(self) -> dict[str, object]:
        return {
            "found": self.found,
            "dry_run": self.dry_run,
            "files": [{"path": f.path, "count": f.count} for f in self.files],
            "commits": [
                {
                    "sha": c.sha,
                    "time": c.time.isoformat(),
                    "subject": c.subject,
                    "in_files": c.in_files,
                    "in_commit": c.in_commit,
                }
                for c in self.commits
            ],
            "objects": self.objects,
            "objects_scanned": self.objects_scanned,
            "remotes": list(self.remotes),
            "purge_id": self.purge_id,
            "commit": self.commit,
            "warnings": list(self.warnings),
            "pushed": [
                {
                    "remote": p.remote,
                    "ref": p.ref,
                    "commit": p.new,
                    "ok": p.ok,
                    "message": p.message,
                }
                for p in self.pushed
            ],
        }

    def lines(self) -> list[str]:
        """The human report: what holds (held) the text, then what was done."""
        if not self.found and self.purge_id:
            made = (
                f"tombstone commit {self.commit[:8]}"
                if self.commit
                else "its tombstone was made already"
            )
            return [
                "not found in the work tree, any commit or the git folder: a purge of it "
                f"had stopped half-way and is finished now; {made} (purge id {self.purge_id})"
            ]  # fmt: skip
        if not self.found:
            return [
                "not found in the work tree, any commit or the git folder: nothing to do"
            ]
        out = [
            f"found in {len(self.commits)} commit(s), {len(self.files)} work-tree "
            f"file(s) and {self.objects} git object(s)"
        ]
        out += [f"  {f.path}: {f.count}" for f in self.files]
        for c in self.commits[:_SHOWN_COMMITS]:
            where = [f"{n} in {what}" for n, what in ((c.in_files, "files"), (c.in_commit, "commit")) if n]  # fmt: skip
            out.append(
                f"  {c.sha[:8]} {c.time:%Y-%m-%d} {c.subject}  ({', '.join(where)})"
            )
        if len(self.commits) > _SHOWN_COMMITS:
            out.append(f"  ... and {len(self.commits) - _SHOWN_COMMITS} more commits")
        if self.dry_run:
            out.append(
                "dry run: nothing changed; run again with --yes to erase it from the "
                "files and the whole history (irreversible)"
            )
        else:
            out.append(
                f"purged: every occurrence is now {REPLACEMENT}; {self.objects_scanned} "
                f"objects checked afterwards, none holds it; tombstone commit "
                f"{(self.commit or '')[:8]} (purge id {self.purge_id})"
            )
        for p in self.pushed:
            done = "force-pushed" if p.ok else f"NOT pushed ({p.message})"
            out.append(f"  {p.remote} {p.ref.removeprefix('refs/heads/')}: {done}")
        return out


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
        return _finish_killed(root, repo, needle, result, commit, by, now)
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
    pushed = _push_rewrite(repo, old_refs) if push else ()
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


def resume_killed(root: Path, repo: Repo, text: str, ignore_case: bool) -> bool:
    """Before anything else runs in a purge of ``text``: finish the history
    rewrite of a purge of it that was killed half-way
    (``gardener.verbs.rewriting.resume``); True if there was one."""
    check_text(text)
    return rewriting.resume(Path(root), repo, Needle(text, ignore_case))


def _push_rewrite(repo: Repo, old: dict[str, str]) -> tuple[Pushed, ...]:
    """Force-push each branch the rewrite changed to each remote whose
    tracking ref of it existed, leasing on that ref's value before the rewrite
    (filter-repo rewrote the tracking ref too), and each tag it changed that
    a remote holds as it was. ``old``: refs before. A remote on this machine
    is pruned after (``gitremote.prune_remote``)."""
    new = gitremote.refs(repo, "refs/heads")
    pushed = []
    for ref, sha in sorted(new.items()):
        if old.get(ref) == sha:
            continue  # the rewrite left this branch as it was
        branch = ref.removeprefix("refs/heads/")
        for remote in gitrewrite.remotes(repo):
            remote_name, merge = gitremote.upstream(repo, branch)
            target = merge if remote_name == remote else branch
            lease = old.get(f"refs/remotes/{remote}/{target}")
            if lease is None:
                continue
            missed = new_purges(repo, lease, sha)
            if missed:  # a force-push would put back what another clone purged
                why = (
                    f"{remote} holds purges this clone has not followed"
                    f" ({', '.join(missed)}): run `gardener sync` first"
                )
                pushed.append(
                    Pushed(remote, f"refs/heads/{target}", lease, sha, False, why)
                )
                continue
            pushed.append(
                gitremote.push(repo, remote, f"refs/heads/{target}", sha, lease)
            )
    tags = {
        ref: sha
        for ref, sha in gitremote.refs(repo, "refs/tags").items()
        if old.get(ref) not in (None, sha)
    }
    for remote in gitrewrite.remotes(repo) if tags else ():
        theirs = gitremote.remote_refs(repo, remote, "refs/tags/*")
        for ref, sha in sorted(tags.items()):
            if theirs.get(ref) == old[ref]:  # the remote holds the old tag
                pushed.append(gitremote.push(repo, remote, ref, sha, old[ref]))
    for remote in {p.remote for p in pushed if p.ok}:
        folder = gitremote.local_path(repo, remote)
        if folder is not None:  # on this machine: its old objects go now
            gitremote.prune_remote(folder)
    return tuple(pushed)


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
    who = needle.mask(by or _os_user())  # who asked may be whom it is about
    sha = commit(
        paths, _tombstone(commits, files, purge_id, who, now), identity_for(who)
    )
    (root / purged.PENDING).unlink(missing_ok=True)
    rewriting.end(repo)
    return purge_id, sha


def _finish_killed(
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
        if _tombstone_made(repo, purge_id):
            continue  # killed after its tombstone: only the pending line is left
        who = needle.mask(by or _os_user())
        paths = purgekeys.write(root, kept.get("keys") or {})
        shutil.rmtree(repo.git_dir / "gardener", ignore_errors=True)  # caches
        sha = commit(
            purged.remember(root, needle.text, line) + paths,
            _tombstone(counts[0], counts[1], purge_id, who, now), identity_for(who),
        )  # fmt: skip
    purged.end_pending(root, lines)
    rewriting.end(repo)
    return replace(
        result,
        purge_id=lines[-1].split("\t", 1)[0],
        commit=sha,
        warnings=("finished a purge of this text that was stopped half-way",),
    )


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


def _tombstone_made(repo: Repo, purge_id: str) -> bool:
    """Whether HEAD's history holds the tombstone of ``purge_id``."""
    grep = f"--grep={trailers.trailer(trailers.PURGE_ID, purge_id)}"
    _, out = repo.run("log", "-1", "--format=%H", "-F", grep)
    return bool(out.strip())


def _tombstone(commits: int, files: int, purge_id: str, who: str, now: datetime) -> str:
    return purge_message(commits, files, purge_id, who, now, purged.PURGED)


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"
