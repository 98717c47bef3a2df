"""What a history rewrite must keep of a repository's other state, and what
makes one unsafe (purge; see docs/design.md, Purge).

Stashes: only ``refs/stash``'s newest entry is a ref; the others live in its
reflog, which a purge expires. ``hold_stashes`` gives every entry a ref of its
own under ``refs/gardener-stash/`` (so the rewrite rewrites them all) and
``restore_stashes`` rebuilds the stash from them, oldest first, after the
reflogs are expired. Index flags (skip-worktree, assume-unchanged) hide a
file from ``status``: ``flags`` lists them, ``clear_flags`` drops them for the
rewrite and ``set_flags`` puts them back. ``blocker`` says why a rewrite must
not start: another worktree (its index and files would keep the text) or a
live ``git gc``.
"""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from gardener.git.run import decode, split_z

if TYPE_CHECKING:
    from gardener.git.repo import Repo

HELD = "refs/gardener-stash/"  # one ref per stash entry while a purge runs
SKIP, ASSUME = "skip-worktree", "assume-unchanged"


def stashes(repo: Repo) -> list[tuple[str, str]]:
    """Every stash entry, oldest first: (commit, message)."""
    code, out = repo.run("log", "-g", "-z", "--format=%H %gs", "refs/stash", "--", ok=(0, 128))  # fmt: skip
    if code != 0:
        return []  # no stash
    entries = [e.split(" ", 1) for e in decode(out).split("\0") if e.strip()]
    return [(e[0].strip(), e[1] if len(e) > 1 else "") for e in reversed(entries)]


def hold_stashes(repo: Repo, entries: Sequence[tuple[str, str]]) -> None:
    """Point ``refs/gardener-stash/NNNN`` at each entry (oldest is 0000)."""
    for n, (sha, _) in enumerate(entries):
        repo.run("update-ref", f"{HELD}{n:04d}", sha)


def held(repo: Repo) -> list[str]:
    """The commits of ``hold_stashes``'s refs, oldest first (as rewritten)."""
    _, out = repo.run("for-each-ref", "--format=%(refname) %(objectname)", HELD)
    pairs = sorted(line.split() for line in decode(out).splitlines() if line)
    return [sha for _, sha in pairs]


def restore_stashes(repo: Repo, messages: Sequence[str]) -> None:
    """Rebuild ``refs/stash`` from the held refs (``messages`` in the same
    order); the refs stay (``drop_held`` deletes them), so that a rebuild
    killed half-way can be made again. Does nothing if none is held."""
    commits = held(repo)
    if not commits:
        return
    repo.run("update-ref", "-d", "refs/stash", ok=(0, 1))
    for n, sha in enumerate(commits):
        message = messages[n] if n < len(messages) else "stash kept by purge"
        repo.run("stash", "store", "-q", "-m", message, sha)


def rebase_stashes(repo: Repo, onto: str, sub: Callable[[bytes], bytes]) -> list[str]:
    """Rebuild every stash entry on commit ``onto`` and hold it
    (``hold_stashes``'s refs), for a history replaced without filter-repo
    (sync following a remote's purge: the entries' bases are the old
    history, which goes). Each entry keeps what it changed from its base
    (work tree, index and untracked parts folded into one): those files, as
    ``sub`` edits their bytes, on ``onto``'s tree; its index is that tree
    too. Returns the entries' messages, oldest first, edited by ``sub``;
    ``restore_stashes`` then makes them the stash again."""
    messages = []
    for n, (sha, message) in enumerate(stashes(repo)):
        tree = _rebased_tree(repo, sha, onto, sub)
        who = _people(repo, sha)  # the entry's own author and committer
        _, index = repo.run("commit-tree", tree, "-p", onto, "-m", "index kept by sync", env=who)  # fmt: skip
        i = decode(index).strip()
        _, out = repo.run("commit-tree", tree, "-p", onto, "-p", i, "-m", message, env=who)  # fmt: skip
        repo.run("update-ref", f"{HELD}{n:04d}", decode(out).strip())
        messages.append(decode(sub(message.encode("utf-8", "surrogateescape"))))
    return messages


def _rebased_tree(
    repo: Repo, sha: str, onto: str, sub: Callable[[bytes], bytes]
) -> str:
    """``onto``'s tree with the files stash entry ``sha`` changed taken
    from it (``sub`` applied): a tree id. A temporary index, not git's."""
    _, out = repo.run("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", f"{sha}^1", sha)  # fmt: skip
    fields = split_z(out)
    changes = [(fields[i].split()[1], fields[i].split()[4], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]  # fmt: skip
    code, _ = repo.run("rev-parse", "-q", "--verify", f"{sha}^3", ok=(0, 1))
    if code == 0:  # ``stash -u``: its untracked files
        changes += [(e.split()[0], "A", e.split("\t", 1)[1]) for e in repo.ls("ls-tree", "-r", "-z", f"{sha}^3")]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        env = {"GIT_INDEX_FILE": os.path.join(folder, "index")}
        repo.run("read-tree", onto, env=env)
        for mode, status, path in changes:
            if status == "D":
                repo.run("update-index", "--force-remove", "--", path, env=env)
                continue
            source = f"{sha}^3:{path}" if status == "A" and code == 0 and not _in(repo, sha, path) else f"{sha}:{path}"  # fmt: skip
            _, data = repo.run("cat-file", "blob", source)
            _, blob = repo.run("hash-object", "-w", "--stdin", stdin=sub(data))
            info = f"{mode},{decode(blob).strip()},{path}"
            repo.run("update-index", "--add", "--cacheinfo", info, env=env)
        _, tree = repo.run("write-tree", env=env)
    return decode(tree).strip()


def scrubbed_change(
    repo: Repo, sha: str, sub: Callable[[str, bytes], bytes], env: Mapping[str, str]
) -> str:
    """A commit making the change commit ``sha`` makes, for a cherry-pick
    onto a history rewritten by ``sub``'s kind of edit (sync replaying its
    own commits on a remote's purged history): its parent is ``sha``'s
    parent and it is ``sha``, each with ``sub(path, bytes)`` applied to the
    files ``sha`` changes. A three-way merge from that base sees only what
    ``sha`` did, never the rewrite undone: a union merge of a note would
    otherwise keep the rewritten lines and the old ones (twice, once
    scrubbed). ``sha`` itself when ``sub`` changes none of them or ``sha``
    is a root commit. ``env``: the temporary commits' identity."""
    code, out = repo.run("rev-parse", "-q", "--verify", f"{sha}^1", ok=(0, 1))
    if code != 0:
        return sha
    parent = decode(out).strip()
    _, out = repo.run("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", parent, sha)  # fmt: skip
    fields = split_z(out)
    changes = [(fields[i].split(), fields[i + 1]) for i in range(0, len(fields) - 1, 2)]
    trees, edited = [], False
    for side, (mode_at, blob_at) in ((parent, (0, 2)), (sha, (1, 3))):
        with tempfile.TemporaryDirectory() as folder:
            index = {"GIT_INDEX_FILE": os.path.join(folder, "index")}
            repo.run("read-tree", side, env=index)
            for raw, path in changes:
                mode, blob = raw[mode_at].lstrip(":"), raw[blob_at]
                if set(blob) == {"0"} or mode == "160000":  # absent there; a submodule
                    continue
                _, data = repo.run("cat-file", "blob", blob)
                new = sub(path, data)
                if new == data:
                    continue
                edited = True
                _, made = repo.run("hash-object", "-w", "--stdin", stdin=new)
                info = f"{mode},{decode(made).strip()},{path}"
                repo.run("update-index", "--cacheinfo", info, env=index)
            _, tree = repo.run("write-tree", env=index)
            trees.append(decode(tree).strip())
    if not edited:
        return sha
    _, base = repo.run("commit-tree", trees[0], "-m", "replay base", env=dict(env))
    _, out = repo.run(
        "commit-tree",
        trees[1],
        "-p",
        decode(base).strip(),
        "-m",
        "replay",
        env=dict(env),
    )
    return decode(out).strip()


def _people(repo: Repo, sha: str) -> dict[str, str]:
    """The author and committer of ``sha``, as git's environment variables."""
    names = [f"GIT_{who}_{what}" for who in ("AUTHOR", "COMMITTER") for what in ("NAME", "EMAIL", "DATE")]  # fmt: skip
    _, out = repo.run("log", "-1", "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd", "--date=raw", sha)  # fmt: skip
    return dict(zip(names, decode(out).rstrip("\n").split("\0"), strict=False))


def _in(repo: Repo, sha: str, path: str) -> bool:
    code, _ = repo.run("cat-file", "-e", f"{sha}:{path}", ok=(0, 1, 128))
    return code == 0


def drop_held(repo: Repo) -> None:
    """Delete the refs of ``hold_stashes``."""
    _, out = repo.run("for-each-ref", "--format=%(refname)", HELD)
    for ref in decode(out).split():
        repo.run("update-ref", "-d", ref)


def flags(repo: Repo) -> dict[str, str]:
    """Tracked paths carrying the skip-worktree or assume-unchanged flag:
    path -> ``SKIP`` or ``ASSUME`` (skip-worktree wins when both are set)."""
    found = {}
    for entry in repo.ls("ls-files", "-v", "-z"):
        tag, path = entry[:1], entry[2:]
        if tag == "S" or (tag.islower() and tag.upper() == "S"):
            found[path] = SKIP
        elif tag.islower():
            found[path] = ASSUME
    return found


def clear_flags(repo: Repo, paths: Sequence[str]) -> None:
    """Drop both flags from ``paths`` (they are then seen like any file)."""
    if paths:
        repo.run("update-index", "--no-skip-worktree", "--no-assume-unchanged", "--", *paths, index=True)  # fmt: skip


def set_flags(repo: Repo, given: Mapping[str, str]) -> None:
    """Put ``flags``'s answer back on the paths still in the index."""
    present = set(repo.ls("ls-files", "-z", "--", *given)) if given else set()
    for flag in (SKIP, ASSUME):
        paths = [p for p, f in given.items() if f == flag and p in present]
        if paths:
            repo.run("update-index", f"--{flag}", "--", *paths, index=True)


def blocker(repo: Repo) -> str | None:
    """Why a history rewrite must not start in ``repo`` now, or None."""
    others = other_worktrees(repo)
    if others:
        return (
            f"this repository has other worktrees ({', '.join(others)}): their index and "
            "files would keep the text, one `git commit` from bringing it back; remove them "
            "(`git worktree remove <path>`, after committing or copying their changes), "
            "then purge again"
        )
    gc = live_gc(repo)
    if gc:
        return (
            f"a `git gc` is running in this repository (pid {gc}, .git/gc.pid): "
            "wait until it ends, then purge again"
        )
    return None


def other_worktrees(repo: Repo) -> list[str]:
    """The folders of the repository's worktrees other than this one. The
    first one git lists is the main worktree (named after the git folder,
    which is wrong when ``.git`` is a symlink): it is another one only when
    this is a linked worktree."""
    _, out = repo.run("worktree", "list", "--porcelain", "-z")
    trees = [f[len("worktree ") :] for f in split_z(out) if f.startswith("worktree ")]
    _, dirs = repo.run("rev-parse", "--git-dir", "--git-common-dir")
    git_dir, common = (os.path.realpath(os.path.join(repo.root, d)) for d in decode(dirs).split("\n")[:2])  # fmt: skip
    here = os.path.realpath(repo.root)
    others = [t for t in trees[1:] if os.path.realpath(t) != here]
    return trees[:1] + others if git_dir != common else others


def live_gc(repo: Repo) -> int | None:
    """The pid in ``gc.pid`` if that process is alive on this host (git's own
    rule) and a git, else None: a killed gc's file is no obstacle (``prune``
    removes it: git itself takes a zombie for a gc still running)."""
    try:
        text = (repo.git_dir / "gc.pid").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    parts = text.split()
    if not parts or not parts[0].isdigit():
        return None
    pid = int(parts[0])
    if len(parts) > 1 and parts[1] != socket.gethostname():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return None if _ended_or_other(pid) else pid


def _ended_or_other(pid: int) -> bool:
    """Whether ``pid`` is a zombie (killed, not reaped yet) or a process that
    is no git (the pid reused), where ``/proc`` can tell."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            if f.read().rpartition(")")[2].split()[:1] == ["Z"]:
                return True
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"git" not in f.read()
    except OSError:
        return False
