"""The ``sync`` verb: one workspace, several machines, through a git remote
(see docs/design.md, Several machines).

``sync`` commits outside changes (``record``), fetches, merges the remote
branch (plain ``git merge``: the merge drivers ``init`` registers do the
files), lets the caller promote, and pushes (``push``). When the remote's
history was rewritten by a purge (the old upstream is not an ancestor of
the new one, and the remote's register holds purges this clone lacks),
the local history is rewritten the same way instead: local-only commits
are replayed onto the new remote head, the old refs are dropped, reflogs
expired and old objects pruned, so the purged text is in no blob, ref or
reflog here. Commits about to leave are checked against the register of
purged texts (the remote's included): one that holds a purged text stops
the sync before anything is pushed.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from gardener.errors import GardenerError, UsageError
from gardener.git import remote as gitremote
from gardener.git import rewrite as gitrewrite
from gardener.git.identity import GARDENER, identity_env
from gardener.git.run import decode
from gardener.store import purged
from gardener.verbs import follow, rewriting

if TYPE_CHECKING:
    from gardener.git.repo import Repo
    from gardener.verbs.session import Session

_SHOWN = 10  # commits listed per direction
_ENV = identity_env("AUTHOR", GARDENER) | identity_env("COMMITTER", GARDENER)


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str


@dataclass(frozen=True)
class SyncResult:
    """What ``sync`` did (or, ``dry_run``, would do).

    ``incoming``/``outgoing``: the commits that came in / went out (newest
    first); ``merge``: ``"up to date"``, ``"fast-forward"``, ``"merge"``,
    ``"rewrite"`` (the remote's history was rewritten by a purge: ``purges``
    holds its purge ids, ``replayed`` the local commits put on top of it).
    """

    remote: str
    branch: str
    dry_run: bool
    merge: str
    incoming: tuple[Commit, ...] = ()
    outgoing: tuple[Commit, ...] = ()
    recorded: str | None = None  # the commit of outside changes
    merged: str | None = None  # the merge commit, if one was made
    promoted: str | None = None  # promote's commit after the merge
    pushed: bool = False
    purges: tuple[str, ...] = ()
    replayed: int = 0
    dropped: tuple[str, ...] = ()  # refs deleted with the old history
    warnings: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, object]:
        def listed(commits: tuple[Commit, ...]) -> list[dict[str, str]]:
            return [{"sha": c.sha, "subject": c.subject} for c in commits]

        return {
            "remote": self.remote, "branch": self.branch, "dry_run": self.dry_run,
            "merge": self.merge, "incoming": listed(self.incoming),
            "outgoing": listed(self.outgoing), "recorded": self.recorded,
            "merged": self.merged, "promoted": self.promoted, "pushed": self.pushed,
            "purges": list(self.purges), "replayed": self.replayed,
            "dropped": list(self.dropped), "warnings": list(self.warnings),
        }  # fmt: skip

    def lines(self) -> list[str]:
        """The human report: what came in, what went out, what was done."""
        would = "would " if self.dry_run else ""
        out = [f"sync {self.branch} with {self.remote}"]
        if self.recorded:
            out.append(f"  recorded outside changes: {self.recorded[:8]}")
        for label, commits in (("in", self.incoming), ("out", self.outgoing)):
            out.append(f"  {label}: {len(commits)} commit(s)")
            out += [f"    {c.sha[:8]} {c.subject}" for c in commits[:_SHOWN]]
            if len(commits) > _SHOWN:
                out.append(f"    ... and {len(commits) - _SHOWN} more")
        if self.merge == "rewrite":
            out.append(
                f"  the remote's history was rewritten by a purge ({', '.join(self.purges)}): "
                f"{would}rewrite this clone's the same way, {self.replayed} local commit(s) "
                f"replayed on it, the old history dropped (no blob, ref or reflog keeps it)"
            )  # fmt: skip
            out += [f"    dropped {ref}" for ref in self.dropped]
        elif self.merge == "merge":
            done = f": {self.merged[:8]}" if self.merged else ""
            out.append(f"  {would}merge{done}")
        else:
            out.append(f"  {self.merge}")
        if self.promoted:
            out.append(f"  promoted: {self.promoted[:8]}")
        if self.outgoing:
            out.append(
                f"  {'pushed' if self.pushed else would + 'push'} to {self.remote}"
            )
        return out


def prepare(session: Session, remote: str | None, dry_run: bool) -> SyncResult:
    """Record, fetch, then merge the remote branch (or rewrite the local
    history after the remote's purge). The caller promotes, then ``push``.

    ``remote``: the remote to sync with (default: the branch's upstream, else
    the only remote). ``dry_run``: fetch into ``FETCH_HEAD`` only and say what
    would happen; no ref, file or commit changes.

    Raises UsageError when there is no remote or HEAD is on no branch;
    GardenerError when the merge or a replay conflicts (nothing changed then),
    when the remote was rewritten other than by a purge, or when a commit
    about to leave holds a purged text.
    """
    from gardener.verbs.record import record

    repo = session.repo
    branch = gitremote.current_branch(repo)
    if branch is None:
        raise UsageError("HEAD is on no branch: check one out, then sync")
    remote, target = _remote_for(repo, branch, remote)
    tracking = f"refs/remotes/{remote}/{target}"
    recorded = None if dry_run else record(session)[0]
    if not dry_run:
        _install_hooks(repo)
        _declare_drivers(session)
    old = gitremote.rev(repo, tracking)
    new = _fetch(repo, remote, target, dry_run)
    base = SyncResult(remote, target, dry_run, "up to date", recorded=recorded)
    if new is None:  # the remote has no such branch yet: push creates it
        return replace(base, merge="new branch", outgoing=_log(repo, "HEAD"))
    stale = follow.old_history(repo, new)
    if stale:
        return _rewrite(
            session, base, stale, new, follow.new_purges(repo, new, stale[0])
        )
    if old is not None and not gitremote.is_ancestor(repo, old, new):
        if _unpushed_purge(repo, new):
            raise GardenerError(
                f"sync stopped: a purge made here is not on {remote}/{target} yet, which"
                f" still holds the text; push it first (`gardener purge TEXT --yes"
                f" --push`: it erases again what this fetch brought back), then sync"
            )
        raise GardenerError(
            f"{remote}/{target} was rewritten, but not by a gardener purge: "
            f"sync does not follow it; compare `git log {tracking}` with yours and "
            f"reset or merge by hand"
        )
    result = replace(
        base,
        incoming=_log(repo, new, "^HEAD"),
        outgoing=_log(repo, "HEAD", f"^{new}"),
    )
    if not result.incoming:
        return result
    # what comes in is checked too: a clone that pushed its old history past
    # its hook (`git push --no-verify`) must not bring a purged text back here
    follow.refuse_incoming(session.root, repo, new, [new, "^HEAD"])
    if gitremote.is_ancestor(repo, "HEAD", new):
        if not dry_run:
            repo.run("merge", "--ff-only", "--quiet", new, env=_ENV)
        return replace(result, merge="fast-forward", outgoing=())
    follow.refuse_purged(session.root, repo, new, ["HEAD", f"^{new}"])
    if dry_run:
        return replace(result, merge="merge")
    return replace(result, merge="merge", merged=_merge(repo, remote, target, new))


def push(session: Session, result: SyncResult) -> SyncResult:
    """Push HEAD to the remote branch (fast-forward only) unless it is there."""
    repo = session.repo
    head = gitremote.rev(repo, "HEAD")
    tracking = gitremote.rev(repo, f"refs/remotes/{result.remote}/{result.branch}")
    if result.dry_run or head is None or head == tracking:
        return result
    outgoing = _log(repo, "HEAD", *([f"^{tracking}"] if tracking else []))
    follow.refuse_purged(
        session.root, repo, tracking, ["HEAD", *([f"^{tracking}"] if tracking else [])]
    )
    done = gitremote.push(
        repo, result.remote, f"refs/heads/{result.branch}", head, None
    )
    if not done.ok:
        warning = (
            f"{result.remote} refused the push ({done.message}): someone pushed "
            f"meanwhile; run `gardener sync` again"
        )
        return replace(result, outgoing=outgoing, warnings=(*result.warnings, warning))
    branch = gitremote.current_branch(repo)
    if (
        branch and gitremote.upstream(repo, branch)[0] is None
    ):  # so `git pull` works too
        repo.run("config", f"branch.{branch}.remote", result.remote)
        repo.run("config", f"branch.{branch}.merge", f"refs/heads/{result.branch}")
    return replace(result, outgoing=outgoing, pushed=True)


# -- the remote's history was rewritten by a purge ---------------------------------


def _rewrite(
    session: Session, result: SyncResult, stale: list[str], new: str, purges: list[str]
) -> SyncResult:
    """Put this clone's local-only commits (HEAD's, not in ``new``, not in
    the ``stale`` old history) on the rewritten ``new`` and drop the old
    history (see the module's docstring)."""
    repo, root = session.repo, session.root
    old = set(stale)
    local = [
        sha
        for sha, _ in gitremote.commits(repo, "--no-merges", "HEAD", f"^{new}")
        if sha not in old
    ]
    result = replace(
        result, merge="rewrite", purges=tuple(purges), replayed=len(local),
        incoming=_log(repo, new, "^HEAD"),
        outgoing=tuple(c for c in _log(repo, "HEAD", f"^{new}") if c.sha in local),
    )  # fmt: skip
    if result.dry_run:
        return result
    theirs = follow.purged_at(repo, new)
    register = purged.with_sealed(root, purged.read_register(root), theirs)
    follow.learn_from(root, repo, register, stale[0], new)
    branch = gitremote.current_branch(repo) or result.branch
    repo.run("checkout", "--quiet", "--detach", new)
    try:
        for sha in reversed(local):
            follow.replay(root, repo, sha)
        follow.refuse_purged(root, repo, new, ["HEAD", f"^{new}"])
    except GardenerError:
        repo.run("cherry-pick", "--abort", ok=(0, 128))
        repo.run("reset", "--quiet", "--hard", ok=(0, 128))
        repo.run("checkout", "--quiet", "--force", branch)
        raise
    replayed = gitremote.rev(repo, "HEAD") or new
    repo.run("update-ref", f"refs/heads/{branch}", replayed)
    repo.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
    stashes = rewriting.hold_rebased_stashes(root, repo, replayed)
    dropped = follow.drop_stale_refs(repo, new, old)
    rewriting.forget_keeping_stashes(repo, stashes)  # rebuilt on the new history
    # the recall index and the settings cache may hold the purged text
    shutil.rmtree(repo.git_dir / "gardener", ignore_errors=True)
    return replace(result, dropped=tuple(dropped))


# -- pieces ------------------------------------------------------------------------


def _install_hooks(repo: Repo) -> None:
    """The hooks and merge drivers ``init`` installs, where missing (a clone
    gets none): the merge sync makes needs the drivers."""
    import sys

    from gardener.git.setup import register_drivers
    from gardener.verbs.follow import PRE_PUSH
    from gardener.verbs.init import PRE_COMMIT

    repo.install_hook("pre-commit", PRE_COMMIT.format(python=sys.executable))
    repo.install_hook("pre-push", PRE_PUSH.format(python=sys.executable))
    register_drivers(repo, sys.executable)


def _unpushed_purge(repo: Repo, new: str) -> bool:
    """True if HEAD holds a purge tombstone that ``new`` (the remote's
    branch) lacks: this clone purged and has not pushed the rewrite."""
    from gardener.git.trailers import PURGE_ID

    theirs = {sha for sha, _ in gitremote.tombstones(repo, new, PURGE_ID)}
    return any(
        sha not in theirs for sha, _ in gitremote.tombstones(repo, "HEAD", PURGE_ID)
    )


def _declare_drivers(session: Session) -> None:
    """Commit the ``.gitattributes`` lines a workspace made by an older
    gardener lacks (``init.attribute_lines``: the recorded times' union
    merge, say): without them, two machines' lines of one state file
    conflict in the merge sync is about to make."""
    from gardener.files.atomic import atomic_write
    from gardener.files.read import read_text
    from gardener.git import trailers
    from gardener.verbs.init import attribute_lines, attributes_text

    path = session.root / ".gitattributes"
    old = read_text(path) if path.is_file() else ""
    new = attributes_text(old, session.config)
    if new == old:
        return
    atomic_write(path, new, root=session.root)
    added = [line for _, line in attribute_lines(session.config) if line not in old]
    message = "sync: declare the merge drivers of " + ", ".join(
        line.split()[0] for line in added
    )
    session.commit([".gitattributes"], f"{message}\n\n{trailers.action('sync')}\n")


def _remote_for(repo: Repo, branch: str, remote: str | None) -> tuple[str, str]:
    """(remote, remote branch) to sync ``branch`` with."""
    tracked, target = gitremote.upstream(repo, branch)
    names = gitrewrite.remotes(repo)
    if remote is None:
        remote = tracked or (names[0] if len(names) == 1 else None)
    if remote is None:
        raise UsageError(
            "no remote to sync with: add one (`git remote add origin URL`), or name it"
            if not names else f"several remotes ({', '.join(names)}): name the one to sync with"
        )  # fmt: skip
    if remote not in names:
        raise UsageError(
            f"no remote named {remote!r} (remotes: {', '.join(names) or 'none'})"
        )
    return remote, target if remote == tracked else branch


def _fetch(repo: Repo, remote: str, target: str, dry_run: bool) -> str | None:
    """Fetch; the remote branch's commit, None if it has none. A dry run
    fetches that branch into FETCH_HEAD only (put back after): no ref moves."""
    if not dry_run:
        gitremote.fetch(repo, remote)
        return gitremote.rev(repo, f"refs/remotes/{remote}/{target}")
    saved = repo.git_dir / "FETCH_HEAD"
    kept = saved.read_bytes() if saved.is_file() else None
    status, _, err = repo.attempt(
        "fetch", "--quiet", "--refmap=", remote, f"refs/heads/{target}"
    )
    sha = gitremote.rev(repo, "FETCH_HEAD") if status == 0 else None
    saved.unlink(missing_ok=True)
    if kept is not None:
        saved.write_bytes(kept)
    if status != 0 and "couldn't find remote ref" not in err:
        why = gitremote.error_line(err, status)
        raise GardenerError(f"git fetch {remote} failed: {why}")
    return sha


def _merge(repo: Repo, remote: str, target: str, new: str) -> str | None:
    """``git merge`` ``new``; its commit. A conflict is aborted and raised."""
    message = f"sync: merge {remote}/{target}"
    status, _ = repo.run(
        "merge", "--no-ff", "--no-edit", "-m", message, new, env=_ENV, ok=(0, 1)
    )
    if status != 0:
        _, out = repo.run("diff", "--name-only", "--diff-filter=U")
        conflicts = decode(out).split()
        repo.run("merge", "--abort", ok=(0, 128))
        raise GardenerError(
            f"sync stopped: merging {remote}/{target} conflicts in {', '.join(conflicts) or 'files'}; "
            f"nothing changed (merge by hand: `git merge {remote}/{target}`)"
        )
    return gitremote.rev(repo, "HEAD")


def _log(repo: Repo, *spec: str) -> tuple[Commit, ...]:
    _, out = repo.run("log", "--format=%H %s", *spec, "--")
    pairs = (line.split(" ", 1) for line in decode(out).splitlines() if line)
    return tuple(Commit(p[0], p[1] if len(p) > 1 else "") for p in pairs)
