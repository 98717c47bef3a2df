"""``purge --push``: the rewrite force-pushed to the remotes (``gardener.verbs.purge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gardener.git import remote as gitremote
from gardener.git import rewrite as gitrewrite
from gardener.git.remote import Pushed
from gardener.verbs.follow import new_purges

if TYPE_CHECKING:
    from gardener.git.repo import Repo


def push_rewrite(repo: Repo, old: dict[str, str]) -> tuple[Pushed, ...]:
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
