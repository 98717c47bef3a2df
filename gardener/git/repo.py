"""Git access: ``Repo``, commits of explicit paths as a fixed identity, and
reads of HEAD, the index and the work tree's status.

``Repo`` builds on ``git.run.Runner``, which finds the work tree (``open``,
``init``) and runs every command (literal pathspecs, hooks off, busy locks
waited for); a commit of given texts reads them from a ``git.trees``
temporary work tree. Commits carry an identity (``git.identity``) that never
depends on the machine's git config. Paths are workspace-relative POSIX
strings; file names keep their exact bytes. History reads are in ``git.log``,
history rewrites in ``git.rewrite``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from gardener.errors import GardenerError
from gardener.files.layout import is_file, is_symlink
from gardener.git.identity import GARDENER, Identity, identity_env, identity_for
from gardener.git.run import Runner, decode, relative_paths, split_z
from gardener.git.trees import freeze, new_tree, thaw

# ``gardener note`` commits through here: no pathlib (~6 ms to import),
# contextlib, shlex or unicodedata at import; paths are os.path strings inside


class Repo(Runner):
    """A git work tree (see ``Runner``: ``open``, ``init``, ``lock_timeout``)
    with commits of explicit paths and the index and status reads."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        git_dir: str | os.PathLike[str],
        lock_timeout: float = 10.0,
    ) -> None:
        super().__init__(root, git_dir, lock_timeout)
        self._has_commits: bool | None = None  # known once asked; True after a commit
        # paths known to be out of git (untracked, or missing at HEAD): a commit
        # of them must ``add`` first; any other file is committed by
        # ``commit --only`` alone, and ``add`` only if git refuses
        self._untracked: set[str] = set()

    def has_commits(self) -> bool:
        """True once HEAD points at a commit (asked once per handle)."""
        if not self._has_commits and self._loose_head() is not None:
            self._has_commits = True  # a branch's ref file names a commit
        if not self._has_commits:
            status, _ = self.run(
                "rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok=(0, 1)
            )
            self._has_commits = status == 0
        return self._has_commits

    def commit(
        self,
        paths: Sequence[str],
        message: str,
        author: Identity | None = None,
        *,
        date: datetime | None = None,
        maintain: bool = True,
        texts: Mapping[str, str] | None = None,
    ) -> str | None:
        """Commit exactly ``paths`` (added, modified or deleted files, or folders).

        Other staged or unstaged changes stay out of the commit and stay staged.
        Untracked ignored paths are skipped. ``message`` is stored verbatim (git
        adds a final newline if it lacks one), but for NUL, which git refuses in
        a message: each becomes NUL_SIGN, so a note holding one can be committed. The author is ``author`` or
        GARDENER, the committer always GARDENER; ``date`` (naive = local time)
        sets both dates, else now. Hooks do not run; commits are not signed.
        ``maintain`` False skips git's automatic housekeeping check after the
        commit (``git maintenance run --auto``, a process of its own).
        ``texts`` (path -> text, one for each of ``paths``): commit these, not
        what the files hold when git reads them, so what a writer appends
        meanwhile (unscanned for secrets) stays out of the commit; git reads
        them from a copy in a temporary work tree.

        Returns the new commit's sha, or None when the paths hold no change.
        Raises LockError when ``index.lock`` stays busy for ``lock_timeout``
        seconds, GardenerError when git fails (with the command and its stderr).
        """
        rels = relative_paths(paths)
        if texts is not None:
            if set(relative_paths(list(texts))) != set(rels):
                raise ValueError("texts must name exactly the paths committed")
            # git reads the texts from a temporary work tree, in the git
            # folder (so on the same file system); removed afterwards
            tree = new_tree(self._git_dir)
            try:
                self._tree = freeze(tree, texts)
                return self.commit(rels, message, author, date=date, maintain=maintain)
            finally:
                self._tree = self._root
                thaw(tree, texts)
        has_head = self.has_commits()
        # files that exist: two or three git commands instead of eight (``note``
        # commits on every call); an ignored one makes ``add`` fail, and the
        # long way runs
        quick = has_head and rels and all(self._plain_file(p) for p in rels)
        new = [p for p in rels if p in self._untracked]
        if quick and new and len(new) < len(rels):
            # only the new ones need ``add``: the rest are hashed once, by the commit
            added = self.run("add", "--", *new, index=True, ok=(0, 1))[0] == 0
            if added:
                self._untracked.difference_update(new)
                new = []
        if quick and not new and len(rels) > 1 and self._flagged(rels):
            new = list(rels)  # git would take a flagged file as unchanged: add
        if quick and not new:
            # tracked as far as we know: ``commit --only`` takes their
            # working-tree text itself, one git command where ``add`` first
            # would hash every file twice (a large MEMORY.md: tens of ms); if
            # git refuses (a path it does not know, skip-worktree), the long
            # way says why or copes
            try:
                sha = self._commit_only(
                    rels, message, author, date, strict=True, maintain=maintain
                )
                self._untracked.difference_update(rels)
                return sha
            except GardenerError:
                pass
        if quick and self.run("add", "--", *rels, index=True, ok=(0, 1))[0] == 0:
            sha = self._commit_only(rels, message, author, date, maintain=maintain)
            self._untracked.difference_update(rels)  # in HEAD now, or unchanged
            return sha
        targets = self._stage(rels, has_head) if rels else []
        if not targets:
            return None
        if has_head:
            args = ["diff", "--cached", "--quiet", "--no-renames", "HEAD", "--"]
            if self.run(*args, *targets, ok=(0, 1))[0] == 0:
                return None
        elif not self.ls("ls-files", "-z", "--cached", "--", *targets):
            return None
        return self._commit_only(targets, message, author, date, maintain=maintain)

    def _plain_file(self, rel: str) -> bool:
        path = os.path.join(self._tree, rel)
        return is_file(path) and not is_symlink(path)

    def _commit_only(
        self,
        targets: list[str],
        message: str,
        author: Identity | None,
        date: datetime | None,
        *,
        strict: bool = False,
        maintain: bool = True,
    ) -> str | None:
        """``git commit --only`` of staged ``targets``; None if git finds no
        change. Raises GardenerError if git fails (with ``strict``, whenever
        git exits non-zero, "nothing to commit" included)."""
        env = identity_env("AUTHOR", author or GARDENER)
        env |= identity_env("COMMITTER", GARDENER)
        if date is not None:
            moment = date if date.tzinfo else date.astimezone()
            stamp = f"@{int(moment.timestamp())} {moment.strftime('%z')}"
            env |= {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        # the message goes in on stdin, sent again if a busy lock makes git retry
        status, _ = self.run(
            # maintain=False: no `git maintenance run --auto` (one process) after it
            *(() if maintain else ("-c", "maintenance.auto=false")),
            "commit", "--only", "--quiet", "--no-verify", "--no-gpg-sign",
            "--cleanup=verbatim", "--untracked-files=no", "--file=-", "--", *targets,
            index=True, env=env, stdin=_bytes(message.replace("\x00", NUL_SIGN)), ok=(0, 1),
        )  # fmt: skip
        if status != 0 and strict:
            raise GardenerError(f"`git commit --only` of {', '.join(targets)} failed")
        if status != 0:
            same = [
                "diff",
                "--cached",
                "--quiet",
                "--no-renames",
                "HEAD",
                "--",
                *targets,
            ]
            if self.has_commits() and self.run(*same, ok=(0, 1))[0] == 0:
                return None  # "nothing to commit": the staged text equals HEAD's
            raise GardenerError(f"`git commit` of {', '.join(targets)} failed")
        self._has_commits = True
        return self._head()

    def head(self) -> str:
        """HEAD's commit id; GardenerError before the first commit."""
        return self._head()

    def _head(self) -> str:
        """HEAD's commit id: from the branch's loose ref file if there is one
        (a commit just wrote it), else from ``git rev-parse``."""
        sha = self._loose_head()
        if sha is not None:
            return sha
        _, out = self.run("rev-parse", "--verify", "HEAD")
        return decode(out).strip()

    def _loose_head(self) -> str | None:
        """The commit id in the loose ref file HEAD's branch points to; None
        when there is none (no commit yet, a packed ref, a detached HEAD).
        Reading two small files saves a git process on every ``note``."""
        try:
            head = _read_ascii(os.path.join(self._git_dir, "HEAD"))
            if head.startswith("ref: refs/heads/"):
                sha = _read_ascii(os.path.join(self._git_dir, head[5:]))
                if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):
                    return sha
        except (OSError, UnicodeDecodeError):
            pass
        return None

    def unstage(self, paths: Sequence[str]) -> None:
        """Take ``paths`` out of the index (the files are left alone)."""
        rels = relative_paths(paths)
        if rels:
            self.run(
                "rm", "--cached", "--quiet", "--ignore-unmatch", "--", *rels, index=True
            )

    def configured_identity(self) -> Identity | None:
        """``user.name`` and ``user.email`` as git is configured here; None without a name."""
        values = []
        for key in ("user.name", "user.email"):
            _, out = self.run("config", "--get", key, ok=(0, 1))
            values.append(decode(out).strip())
        who = identity_for(values[0]) if values[0] else GARDENER
        if who == GARDENER:
            return None
        email = re.sub(r"[<>\x00-\x1f\x7f]", "", values[1])
        return Identity(who.name, email or who.email)

    def changed(self, paths: Sequence[str]) -> list[str]:
        """Files under ``paths`` that differ from HEAD or are untracked (not ignored).

        Returns sorted workspace-relative POSIX paths: each is one of ``paths`` or
        a file inside one of them that is a folder. Used to detect hand edits.
        """
        rels = relative_paths(paths)
        if not rels:
            return []
        _, out = self.run(
            "--no-optional-locks", "status", "--porcelain=v1", "-z", "--no-renames",
            "--untracked-files=all", "--ignored=no", "--", *rels,
        )  # fmt: skip
        records = split_z(out)
        self._untracked.update(r[3:] for r in records if r.startswith("??"))
        return sorted({record[3:] for record in records})

    def _flagged(self, rels: Sequence[str]) -> bool:
        """Whether one of ``rels`` is out of git's index or carries its
        skip-worktree or assume-unchanged flag. ``commit --only`` takes such
        a file as unchanged; with other files changed beside it, the commit
        succeeds without it. (A commit of one path fails instead: nothing to
        commit, and the long way says why.)"""
        out = self.ls("ls-files", "-v", "-z", "--", *rels)
        tags = {entry[2:]: entry[:1] for entry in out}
        return any(tags.get(rel, "?") not in ("H", "C") for rel in rels)

    def mark_new(self, paths: Sequence[str]) -> None:
        """Say that ``paths`` are files git does not hold yet (about to be
        created): their commit adds them first instead of trying
        ``commit --only`` alone, which git refuses for a path it does not know."""
        self._untracked.update(relative_paths(paths))

    def tracked(self, paths: Sequence[str]) -> set[str]:
        """The files git's index holds under ``paths`` (workspace-relative POSIX
        paths; a symlink is listed as itself, files behind it are not)."""
        rels = relative_paths(paths)
        return (
            set(self.ls("ls-files", "-z", "--cached", "--", *rels)) if rels else set()
        )

    def committed_text(self, path: str) -> str | None:
        """The file's text at HEAD (UTF-8, bad bytes kept as surrogates); None if untracked."""
        (rel,) = relative_paths([path])
        # "HEAD:./name" is a literal path (--literal-pathspecs does not apply
        # here); without HEAD or without the file, git exits 128
        status, blob = self.run("cat-file", "blob", f"HEAD:./{rel}", ok=(0, 128))
        if status != 0:
            self._untracked.add(rel)
            return None
        return blob.decode("utf-8", "surrogateescape")

    def committed_texts(self, paths: Sequence[str]) -> dict[str, str | None]:
        """``committed_text`` of each of ``paths``, read by one ``cat-file --batch``."""
        rels = relative_paths(paths)
        if not rels or not self.has_commits():
            return dict.fromkeys(rels)
        # a name with a newline cannot go through --batch: asked one by one
        batch = [r for r in rels if "\n" not in r]
        request = "".join(f"HEAD:./{r}\n" for r in batch).encode(
            "utf-8", "surrogateescape"
        )
        _, out = self.run("cat-file", "--batch", stdin=request)
        texts: dict[str, str | None] = {}
        at = 0
        for rel in batch:
            end = out.index(b"\n", at)
            header = out[at:end].split(b" ")
            at = end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                texts[rel] = out[at : at + size].decode("utf-8", "surrogateescape")
                at += size + 1
            else:  # "<name> missing", or a tree: not a committed file
                texts[rel] = None
                self._untracked.add(rel)
        for rel in rels:
            if rel not in texts:
                texts[rel] = self.committed_text(rel)
        return texts

    def staged(
        self, index: str | None = None, only: Sequence[str] | None = None
    ) -> list[tuple[str, bytes]]:
        """(path, staged content) of each file added, copied or modified in the
        index: ``index`` (a path; default the repository's own), the one git
        names in GIT_INDEX_FILE while it runs a hook for ``commit -a``,
        ``commit <path>`` or ``commit --only``. ``only``: pathspecs (literal,
        a folder holds what is under it) limiting which paths count."""
        if only is not None and not only:
            return []
        env = {"GIT_INDEX_FILE": index} if index else None
        _, out = self.run(
            "--no-optional-locks", "diff", "--cached", "--name-only", "-z",
            "--diff-filter=ACMR", "--", *(only or ()), env=env,
        )  # fmt: skip
        files = []
        for path in split_z(out):
            _, data = self.run("cat-file", "blob", f":{path}", env=env)
            files.append((path, data))
        return files

    def top_names(self) -> list[str]:
        """The names at the top of HEAD's tree ([] before the first commit)."""
        if not self.has_commits():
            return []
        return self.ls("ls-tree", "-z", "--name-only", "HEAD")

    def commits_holding(self, blob: str) -> list[str]:
        """The commits (full shas, newest first) that add or change a file to
        the blob ``blob``, on any ref."""
        _, out = self.run("log", "--all", "--format=%H", f"--find-object={blob}")
        return decode(out).split()

    def install_hook(self, name: str, script: str) -> bool:
        """Write ``.git/hooks/NAME`` (executable) unless one exists; True if written."""
        hook = self.git_dir / "hooks" / name
        if hook.exists():
            return False
        hook.parent.mkdir(parents=True, exist_ok=True)
        hook.write_text(script, encoding="utf-8")
        hook.chmod(0o755)
        return True

    def uncommitted(self) -> list[str]:
        """Tracked files with staged or unstaged changes (untracked ones are not listed)."""
        _, out = self.run(
            "--no-optional-locks", "status", "--porcelain=v1", "-z", "--no-renames",
            "--untracked-files=no",
        )  # fmt: skip
        return sorted({record[3:] for record in split_z(out)})

    # -- internals ---------------------------------------------------------------

    def _stage(self, rels: list[str], has_head: bool) -> list[str]:
        """``git add`` those of ``rels`` that can be; returns the paths to commit.

        Untracked ignored paths are left out; deleted ones stay in (if tracked).
        """
        ignored = self.ls(
            "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
            "--directory", "--", *rels,
        )  # fmt: skip
        indexed = self.ls("ls-files", "-z", "--cached", "--", *rels)
        addable = [
            p
            for p in rels
            if not any(_under(p, i) for i in ignored)
            and (
                os.path.lexists(os.path.join(self._tree, p))
                or any(_under(i, p) for i in indexed)
            )
        ]
        if addable:
            self.run("add", "--all", "--", *addable, index=True)
        in_head: list[str] = []
        if has_head:
            in_head = self.ls("ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *rels)
        return [p for p in rels if p in addable or any(_under(h, p) for h in in_head)]


def _read_ascii(path: str) -> str:
    """A small ASCII file's text, stripped (bytes decoded: no codec to import)."""
    with open(path, "rb") as file:
        return file.read().decode("ascii").strip()


def _under(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` itself or lies inside it."""
    folder = folder.rstrip("/")
    return path == folder or path.startswith(folder + "/")


NUL_SIGN = "\u2400"  # what a NUL in a commit message becomes


def _bytes(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")
