"""Following a purge made on another clone, for ``sync`` (see docs/design.md,
Several machines): finding this clone's old history, replaying its own
commits on the rewritten one, dropping what still reaches the old, learning
the purged text from it; checking commits about to leave against the
register of purged texts; and the pre-push hook that refuses old history.
"""

from __future__ import annotations

import difflib
from collections import Counter
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.git import keep
from gardener.git import remote as gitremote
from gardener.git.identity import GARDENER, identity_env
from gardener.git.run import decode
from gardener.git.trailers import PURGE_ID
from gardener.planning.purge import REPLACEMENT, Register
from gardener.store import purged

if TYPE_CHECKING:
    from pathlib import Path

    from gardener.git.repo import Repo
    from gardener.verbs.guard import Scrubber


def replay(root: Path, repo: Repo, sha: str) -> None:
    """Put commit ``sha`` on HEAD (detached), keeping its author, date and
    message. The three-way merge runs from ``sha``'s parent to ``sha``, both
    with the purged texts taken out of the files it changes, as the rewrite
    took them out of HEAD (``keep.scrubbed_change``): so it applies what
    ``sha`` did and never undoes the rewrite (a union merge of a note would
    keep the rewritten lines and the old ones, whose scrubbed copies are the
    same lines twice). A purged text that still comes back is taken out of
    the files and the message, and a note line the merge wrote more often
    than HEAD or ``sha`` holds it is written once. GardenerError on a conflict."""
    from gardener.verbs.guard import purged_scrubber

    scrub = purged_scrubber(root)
    pick = sha if scrub is None else _scrubbed(repo, sha, scrub)
    status, _ = repo.run("cherry-pick", "--no-commit", pick, ok=(0, 1))
    if status != 0:
        raise GardenerError(
            f"sync stopped: replaying local commit {sha[:8]} onto the remote's rewritten "
            f"history conflicts; nothing changed"
        )
    _, out = repo.run("diff", "--cached", "--name-only", "-z", "HEAD")
    changed = [p for p in decode(out).split("\0") if p and (root / p).is_file()]
    _, meta = repo.run("log", "-1", "--format=%an%x00%ae%x00%aD%x00%B", sha)
    name, email, when, message = decode(meta).split("\0", 3)
    unions = _union_merged(repo, changed)
    for rel in changed:
        text = (root / rel).read_text(encoding="utf-8", errors="surrogateescape")
        cleaned = scrub(text)[0] if scrub is not None else text
        if rel in unions:
            cleaned = _once(
                cleaned, _blob(repo, f"HEAD:{rel}"), _blob(repo, f"{pick}:{rel}")
            )
        if cleaned != text:
            (root / rel).write_text(cleaned, encoding="utf-8", errors="surrogateescape")
            repo.run("add", "--", rel)
    if scrub is not None:
        message = scrub(message)[0]
    env = identity_env("COMMITTER", GARDENER) | {
        "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": when,
    }  # fmt: skip
    repo.run(
        "commit", "--quiet", "--allow-empty", "--no-verify", "-F", "-",
        env=env, stdin=message.encode("utf-8", "surrogateescape"),
    )  # fmt: skip


def _scrubbed(repo: Repo, sha: str, scrub: Scrubber) -> str:
    """``sha``'s change between scrubbed copies of its parent and itself
    (``keep.scrubbed_change``). Lines HEAD's copy of a file holds are known
    to hold no purged text (the remote's rewrite and check): not hashed."""

    def sub(path: str, data: bytes) -> bytes:
        text = data.decode("utf-8", "surrogateescape")
        known = set(_blob(repo, f"HEAD:{path}").split("\n"))
        return scrub(text, known)[0].encode("utf-8", "surrogateescape")

    return keep.scrubbed_change(
        repo,
        sha,
        sub,
        identity_env("AUTHOR", GARDENER) | identity_env("COMMITTER", GARDENER),
    )


def _blob(repo: Repo, spec: str) -> str:
    """The text of ``REV:PATH``, "" if there is none."""
    status, out = repo.run("cat-file", "blob", spec, ok=(0, 128))
    return out.decode("utf-8", "surrogateescape") if status == 0 else ""


def _union_merged(repo: Repo, paths: list[str]) -> set[str]:
    """The ``paths`` git merges line by line as a union (``merge=union``:
    the daily notes), whose both sides of a changed hunk are kept."""
    if not paths:
        return set()
    _, out = repo.run("check-attr", "-z", "merge", "--", *paths)
    fields = decode(out).split("\0")
    return {fields[i] for i in range(0, len(fields) - 2, 3) if fields[i + 2] == "union"}


def _once(merged: str, ours: str, theirs: str) -> str:
    """``merged`` (a union merge of ``ours`` and ``theirs``, scrubbed) with
    each line kept at most as many times as the side holding it most does:
    the first ones, in order. A union merge of a hunk both sides changed
    writes a line both hold twice (the rewritten line and its old form,
    scrubbed back to it); no side wrote it twice."""
    most = Counter(ours.split("\n")) | Counter(theirs.split("\n"))
    seen: Counter[str] = Counter()
    kept = []
    for line in merged.split("\n"):
        seen[line] += 1
        if seen[line] <= most[line]:
            kept.append(line)
    return "\n".join(kept)


def drop_stale_refs(repo: Repo, new: str, old: set[str]) -> list[str]:
    """Delete the branches and tags (and the stash) that still reach a
    commit of the ``old`` history."""
    dropped = []
    found = gitremote.refs(repo, "refs/heads", "refs/tags", "refs/stash")
    for ref, sha in found.items():
        if any(c in old for c, _ in gitremote.commits(repo, sha, f"^{new}", "--")):
            repo.run("update-ref", "-d", ref)
            dropped.append(ref)
    return dropped


def learn_from(root: Path, repo: Repo, register: Register, old: str, new: str) -> None:
    """Where the rewrite put ``[PURGED]`` in place of old lines, find the
    purged text in them by its sealed record and keep it fast here."""
    if not register.sealed:
        return
    _, out = repo.run("diff", "--unified=0", "--no-renames", old, new, "--")
    lines = decode(out).splitlines()
    gone = [x[1:] for x in lines if x.startswith("-") and not x.startswith("---")]
    came = [x[1:] for x in lines if x.startswith("+") and not x.startswith("+++")]
    held = [
        line
        for line in gone
        for other in difflib.get_close_matches(line, came, n=1, cutoff=0.3)
        if REPLACEMENT in other
    ]
    purged.learn(root, register.found("\n".join(held)))


def purged_at(repo: Repo, commit: str) -> str:
    status, out = repo.run("show", f"{commit}:{purged.PURGED}", ok=(0, 128))
    return decode(out) if status == 0 else ""


def new_purges(repo: Repo, new: str, old: str) -> list[str]:
    """The purge ids in ``new``'s register that ``old``'s lacks."""
    theirs = purged.purge_ids(purged_at(repo, new))
    return sorted(theirs - purged.purge_ids(purged_at(repo, old)))


def old_history(repo: Repo, new: str) -> list[str]:
    """The commits of HEAD (newest first) that a purge on the remote
    rewrote: not in ``new``, older than its newest purge tombstone, and with
    a rewritten twin in ``new`` (the same author, email and author time, which
    the rewrite keeps). [] when the remote was not rewritten under us."""
    tombs = gitremote.tombstones(repo, new, PURGE_ID)
    if not tombs:
        return []
    latest = max(when for _, when in tombs)
    if not any(when < latest for _, when in gitremote.commits(repo, "HEAD", f"^{new}")):
        return []
    theirs = _authored(repo, new)
    exact = {(who, subject) for _, who, subject in theirs}
    loose = {who for _, who, subject in theirs if REPLACEMENT in subject}
    return [
        sha
        for sha, who, subject in _authored(repo, "HEAD", f"^{new}")
        if (who, subject) in exact or who in loose
    ]


def _authored(repo: Repo, *spec: str) -> list[tuple[str, str, str]]:
    """(sha, "author-time author-email", subject) of ``git log SPEC``, newest first."""
    _, out = repo.run("log", "--format=%H%x00%at %ae%x00%s", *spec, "--")
    rows = (line.split("\0") for line in decode(out).splitlines())
    return [(r[0], r[1], r[2]) for r in rows if len(r) == 3]


def refuse_incoming(root: Path, repo: Repo, theirs: str, spec: list[str]) -> None:
    """GardenerError if a commit coming in (``spec``) adds a purged text: a
    clone pushed history from before a purge past its pre-push hook."""
    if holds_purged(root, repo, theirs, spec):
        raise GardenerError(
            "sync stopped: the remote holds a text purged from this workspace again"
            " (a clone pushed history from before the purge, past its pre-push hook);"
            " nothing was merged. Purge it again on any clone (`gardener purge TEXT"
            " --yes --push`), then sync"
        )


def refuse_purged(root: Path, repo: Repo, theirs: str | None, spec: list[str]) -> None:
    """GardenerError if a commit of ``spec`` adds a purged text (see ``holds_purged``)."""
    if holds_purged(root, repo, theirs, spec):
        raise GardenerError(
            "sync stopped: a local commit about to leave holds a text purged from this "
            "workspace; nothing was pushed. Purge it here too (`gardener purge TEXT`), then sync"
        )


def holds_purged(root: Path, repo: Repo, theirs: str | None, spec: list[str]) -> bool:
    """True if a line the commits of ``git log SPEC`` add, or their messages,
    hold a purged text (this clone's register and ``theirs``'s, a commit's).
    A text found by its sealed record is kept fast here (``purged.learn``)."""
    from gardener.planning.purge import scrub

    register = purged.read_register(root)
    if theirs:
        register = purged.with_sealed(root, register, purged_at(repo, theirs))
    if not register:
        return False
    # -m: a merge commit's own lines too (a text added while resolving one)
    _, out = repo.run("log", "-p", "-m", "--unified=0", "--format=", *spec, "--")
    added = [
        x[1:]
        for x in decode(out).splitlines()
        if x.startswith("+") and not x.startswith("+++")
    ]
    _, messages = repo.run("log", "--format=%B", *spec, "--")
    added += decode(messages).splitlines()
    found = register.found("\n".join(added))
    purged.learn(root, found)
    return bool(found or scrub("\n".join(added), register.knowing(found))[1])


# -- the pre-push hook ---------------------------------------------------------------

PRE_PUSH = """#!/bin/sh
# memory-gardener: refuse to push history that a purge rewrote (it would put
# the purged text back on the remote). Sync with `gardener sync` instead.
python="{python}"
if [ ! -x "$python" ]; then
  echo "memory-gardener hook: $python is gone, pushes are not checked" >&2
  exit 0
fi
exec "$python" -m gardener -w "$(git rev-parse --show-toplevel)" pre-push "$@"
"""


_FIX = "run `gardener sync`: it fetches the rewritten history, replays your own commits on it and pushes"


def stale_push(root: Path, remote: str, lines: str) -> str | None:
    """Why the push git describes in ``lines`` (the pre-push hook's stdin:
    ``LOCAL_REF LOCAL_SHA REMOTE_REF REMOTE_SHA`` a line) must not go, or None.

    A push is refused when it would overwrite remote commits this clone has
    not fetched (a stale clone's force-push), when a commit pushed adds a
    purged text (a rebase of the old history), or when it holds a commit of a
    history a purge rewrote: one older than a purge's tombstone (reachable
    from what is pushed or from the remote's branch) that is neither an
    ancestor nor a descendant of it.
    """
    from gardener.git.repo import Repo

    repo = Repo.open(root)
    try:
        for line in lines.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[1] != gitremote.ZERO:  # not a deletion
                why = _stale_ref(root, repo, parts[1], parts[3])
                if why:
                    return f"refusing to push to {remote} {parts[2]}: {why}; {_FIX}"
    finally:
        repo.close()
    return None


def _stale_ref(root: Path, repo: Repo, local: str, theirs: str) -> str | None:
    """Why pushing commit ``local`` over the remote's ``theirs`` (ZERO: a new
    ref) must not go (see ``stale_push``), or None."""
    known = theirs != gitremote.ZERO
    if known and gitremote.rev(repo, theirs) is None:
        return "the remote holds commits this clone has not fetched"
    spec = [local, *([f"^{theirs}"] if known else [])]
    pushed = gitremote.commits(repo, *spec)
    tombs = gitremote.tombstones(repo, local, PURGE_ID)
    if known:
        tombs += gitremote.tombstones(repo, theirs, PURGE_ID)
    for tomb, when in dict(tombs).items():
        older = {sha for sha, at in pushed if at < when}
        if not older:
            continue
        fine = {sha for sha, _ in gitremote.commits(repo, tomb)}
        after = gitremote.commits(repo, "--ancestry-path", f"{tomb}..{local}")
        stale = older - fine - {sha for sha, _ in after}
        if stale:
            return (
                f"it holds history from before a purge (commit {min(stale)[:8]}), "
                f"which would put the purged text back"
            )
    if holds_purged(root, repo, theirs if known else None, spec):
        return "a commit in it holds a text purged from this workspace"
    return None
