"""Running git in one work tree: ``Runner``, the base of ``gardener.git.repo.Repo``.

A ``Runner`` is a work tree found by ``open`` (or made by ``init``) and the
git commands run in it. Commands run as plain child processes: importing GitPython costs about 100 ms,
which would triple the cost of ``gardener note``. GitPython serves the one read
that gains from it: ``Runner.read_object`` reads through its persistent
``cat-file --batch`` process, so ``gardener.git.log.objects`` streams every object of the
store one at a time. It is imported there only. Every command runs with
literal pathspecs, hooks off, English messages, the repository's location
pinned, and an identity that never depends on the machine's git config (the
caller sets it). A command that takes ``index.lock`` waits while the lock is
busy; past ``lock_timeout`` a LockError says who holds it. Paths given to git
are workspace-relative POSIX strings (``relative_paths``); file names keep
their exact bytes (``decode``).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain, repeat

from gardener.errors import GardenerError, LockError, NotAWorkspaceError
from gardener.files.layout import absolute, git_dir_of, is_dir, is_file, path_text
from gardener.files.lock import process_ended

# ``gardener note`` runs git through here: no pathlib (~6 ms to import),
# contextlib or shlex at import; paths are os.path strings inside
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Self

# Options for every command: exact file-name bytes, UTF-8 messages, no hooks
# (a prepare-commit-msg or commit-msg hook would rewrite our messages).
_OPTIONS = (
    "--literal-pathspecs",  # a "*" or "[x]" in a file name is just that
    "-c", "core.quotepath=false",
    "-c", "core.precomposeunicode=false",
    "-c", "core.autocrlf=false",  # a file's bytes are committed as they are
    "-c", "core.fileMode=false",  # an exec bit set on a note is no change to it
    "-c", "i18n.commitEncoding=utf-8",
    "-c", "i18n.logOutputEncoding=utf-8",
    "-c", f"core.hooksPath={os.devnull}",
    "-c", "log.showSignature=false",
)  # fmt: skip
# GIT_PYTHON_GIT_EXECUTABLE is GitPython's way to name the git binary; honour it.
_GIT = os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or "git"
_C_LOCALE = {"LANGUAGE": "C", "LC_ALL": "C"}
_BUSY_LOCK = re.compile(r"Unable to create '([^']+\.lock)': File exists")


class Runner:
    """Git commands run in the work tree whose top folder is ``root`` and whose
    git folder is ``git_dir``. Use ``open`` or ``init`` (as ``Repo.open`` and
    ``Repo.init``: ``gardener.git.repo.Repo`` builds on it).

    ``lock_timeout`` is how long (seconds) a busy ``.git/index.lock`` is waited for.
    ``root`` and ``git_dir`` are Paths; inside, the folders are strings.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        git_dir: str | os.PathLike[str],
        lock_timeout: float = 10.0,
    ) -> None:
        self._root = path_text(root)
        self.lock_timeout = lock_timeout
        self._git_dir = path_text(git_dir)
        self._tree = self._root  # where git reads files (see Repo.commit's texts)
        self._reader: Any = None  # GitPython's cat-file process, for ``read_object``
        # what the user should hear of (an orphan lock removed); a session
        # points this at its own warnings
        self.notices: list[str] = []

    @classmethod
    def open(cls, root: str | os.PathLike[str], *, lock_timeout: float = 10.0) -> Self:
        """Open the work tree whose top is ``root``.

        Raises NotAWorkspaceError if ``root`` is not the top of a git work tree.
        """
        top = absolute(root)
        git_dir = git_dir_of(top)
        if git_dir is None:
            raise NotAWorkspaceError(
                f"{top} is not a git work tree's top; {_hint(top)}"
            )
        repo = cls(top, git_dir, lock_timeout)
        if is_file(os.path.join(git_dir, "HEAD")) and is_dir(os.path.join(top, ".git")):
            return repo  # root holds its own repository: it is the top
        try:
            found = decode(repo.run("rev-parse", "--show-toplevel")[1]).strip()
        except GardenerError as e:  # not a repository, or one git refuses
            raise NotAWorkspaceError(f"{top}: {e.message}; {_hint(top)}") from None
        if os.path.realpath(found) != os.path.realpath(top):
            raise NotAWorkspaceError(
                f"{top} is not a git work tree's top; {_hint(top)}"
            )
        return repo

    @classmethod
    def init(cls, root: str | os.PathLike[str], *, lock_timeout: float = 10.0) -> Self:
        """Open ``root``, or first ``git init`` it (branch ``main``, folder created)."""
        top = absolute(root)
        try:
            return cls.open(top, lock_timeout=lock_timeout)
        except NotAWorkspaceError:
            pass
        os.makedirs(top, exist_ok=True)
        cls(top, os.path.join(top, ".git")).run(
            "init", "--quiet", "--initial-branch=main"
        )
        return cls.open(top, lock_timeout=lock_timeout)

    @property
    def root(self) -> Path:
        """The work tree's top folder (absolute)."""
        from pathlib import Path

        return Path(self._root)

    @property
    def git_dir(self) -> Path:
        """The git folder (``root/.git``, or where a ``.git`` file points)."""
        from pathlib import Path

        return Path(self._git_dir)

    @property
    def git_folder(self) -> str:
        """``git_dir`` as a string, for the note path (no pathlib there)."""
        return self._git_dir

    def in_progress(self) -> str | None:
        """What git is in the middle of (``IN_PROGRESS``: a merge, a rebase...), or None."""
        for name, what in IN_PROGRESS.items():
            if os.path.lexists(os.path.join(self._git_dir, name)):
                return what
        return None

    def refuse_mid_merge(self) -> None:
        """Raise GardenerError while git is in the middle of an operation (a
        commit of some paths is refused then, and staging the gardener's files
        would mark a merge's conflicts resolved: the operation is a person's
        to finish), or when HEAD is on no branch (what a killed sync's replay
        leaves): a commit there is lost when a branch is checked out."""
        what = self.in_progress()
        if what == "a merge":
            raise GardenerError(
                "a git merge is in progress: finish it (resolve, then `git commit`)"
                " or abandon it (`git merge --abort`), then run the command again"
            )
        if what == "a cherry-pick":
            raise GardenerError(
                "a git cherry-pick is in progress (an interrupted `gardener sync`?):"
                " `git cherry-pick --abort`, check out your branch, run `gardener sync`"
            )
        if what:
            raise GardenerError(
                f"git is in the middle of {what}: finish or abandon it, then run the"
                " command again"
            )
        try:
            with open(os.path.join(self._git_dir, "HEAD"), "rb") as file:
                detached = not file.read(5).startswith(b"ref:")
        except OSError:
            return  # git says what is wrong with the repository
        if detached:
            raise GardenerError(
                "HEAD is on no branch (an interrupted `gardener sync`, or an old"
                " commit checked out): a commit here would be lost; check out your"
                " branch (`git checkout main`), then run the command again"
            )

    def close(self) -> None:
        """End GitPython's cat-file process, if ``read_object`` started one."""
        if self._reader is not None:
            self._reader.clear_cache()
            self._reader = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(
        self,
        *args: str,
        ok: tuple[int, ...] = (0,),
        index: bool = False,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> tuple[int, bytes]:
        """Run one git command in ``root``; returns (exit status, stdout bytes).

        ``index`` marks commands that take ``index.lock``: they wait for a busy
        lock and retry. Exit statuses outside ``ok`` raise GardenerError (with
        the command and its stderr); a lock still busy after ``lock_timeout``
        seconds raises LockError.
        """
        argv = [_GIT, *_OPTIONS, *args]
        # English messages (the lock-busy check reads them), as GitPython does
        full_env = os.environ | _C_LOCALE | self.location_env() | dict(env or {})
        if self._tree != self._root:  # git cannot find the repository from there
            full_env |= self._pinned_env() | {"GIT_WORK_TREE": self._tree}
        deadline = time.monotonic() + self.lock_timeout
        delays = chain((0.02, 0.05, 0.1, 0.2), repeat(0.5))  # seconds
        while True:
            if index:
                self._wait_for(
                    os.path.join(self._git_dir, "index.lock"), deadline, delays
                )
            try:
                done = subprocess.run(
                    argv, cwd=self._tree, env=full_env, capture_output=True,
                    input=stdin if stdin is not None else b"",
                )  # fmt: skip
            except FileNotFoundError as e:
                raise GardenerError(f"git is not installed or not on PATH ({e})") from e
            status, out = done.returncode, done.stdout
            if status in ok:
                return status, out
            err = done.stderr.decode("utf-8", "replace")
            busy = _BUSY_LOCK.search(err)
            if busy is None:
                import shlex  # only to say what failed

                command = shlex.join(["git", *args])
                raise GardenerError(
                    f"`{command}` failed (exit {status}): {err.strip()}"
                )
            self._wait_for(path_text(busy.group(1)), deadline, delays)

    def attempt(self, *args: str) -> tuple[int, bytes, str]:
        """Run one git command that may fail (a fetch or push over the
        network); returns (exit status, stdout bytes, stderr text). Never
        raises for git's exit status; no wait for a busy index lock."""
        argv = [_GIT, *_OPTIONS, *args]
        full_env = os.environ | _C_LOCALE | self.location_env()
        if self._tree != self._root:
            full_env |= self._pinned_env() | {"GIT_WORK_TREE": self._tree}
        try:
            done = subprocess.run(
                argv, cwd=self._tree, env=full_env, capture_output=True, input=b""
            )
        except FileNotFoundError as e:
            raise GardenerError(f"git is not installed or not on PATH ({e})") from e
        return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")

    def ls(self, *args: str) -> list[str]:
        """``run`` a listing command given ``-z``; returns its entries (``split_z``)."""
        return split_z(self.run(*args)[1])

    def read_object(self, sha: str) -> tuple[str, bytes]:
        """(type, raw content) of the object ``sha``: ``blob``, ``tree``,
        ``commit`` or ``tag``. Read through GitPython's persistent ``cat-file
        --batch`` process, started on the first call and ended by ``close``."""
        if self._reader is None:
            from git import Git

            self._reader = Git(self._root)
            self._reader.update_environment(**(_C_LOCALE | self._pinned_env()))
        _, kind, _, data = self._reader.get_object_data(sha)
        return kind.decode() if isinstance(kind, bytes) else kind, data

    def location_env(self) -> dict[str, str]:
        """GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE pinned to this repository,
        those of them set in the environment: inherited from a hook or a
        wrapper, they would point git at another repository or index."""
        pinned = self._pinned_env()
        return {key: value for key, value in pinned.items() if key in os.environ}

    def _pinned_env(self) -> dict[str, str]:
        return {
            "GIT_DIR": self._git_dir,
            "GIT_WORK_TREE": self._root,
            "GIT_INDEX_FILE": os.path.join(self._git_dir, "index"),
        }

    def _wait_for(self, lock: str, deadline: float, delays: Iterator[float]) -> None:
        """Sleep with backoff while ``lock`` exists; LockError past ``deadline``.

        A lock no live process holds (its git was killed, whatever how long
        ago) is removed after the first pause and every few seconds after,
        with a notice; a live git's lock is waited for.
        """
        pauses = 0
        while os.path.lexists(lock):
            if pauses % 5 == 1 and self._remove_orphan(lock):
                continue
            if time.monotonic() >= deadline:
                raise _lock_error(lock, self._root, self.lock_timeout)
            time.sleep(next(delays))
            pauses += 1

    def _remove_orphan(self, lock: str) -> bool:
        """Remove ``lock`` (a git lock file in this repository) if no live
        process holds it and it is still the same file after looking; True if
        it is gone."""
        folder = os.path.realpath(self._git_dir)
        if not os.path.realpath(lock).startswith(folder + os.sep):
            return False  # not this repository's to clear
        try:
            seen = os.lstat(lock)
            if lock_holders(lock, self._root):
                return False
            now = os.lstat(lock)
            if (now.st_ino, now.st_mtime_ns) != (seen.st_ino, seen.st_mtime_ns):
                return False  # a new git took it meanwhile
            os.unlink(lock)
        except FileNotFoundError:
            return True
        self.notices.append(
            f"removed {lock}: no live process holds it (a killed git command left it)"
        )
        return True


def _hint(root: str) -> str:
    import shlex  # only when there is no workspace

    return f"run `gardener init {shlex.quote(root)}` to make one"


# What git may be in the middle of: a file in the git folder -> what it is.
IN_PROGRESS = {
    "MERGE_HEAD": "a merge",
    "CHERRY_PICK_HEAD": "a cherry-pick",
    "REVERT_HEAD": "a revert",
    "rebase-merge": "a rebase",
    "rebase-apply": "a rebase or `git am`",
    "BISECT_LOG": "a bisect",
}


def lock_holders(
    lock: str | os.PathLike[str], root: str | os.PathLike[str]
) -> list[int]:
    """Pids of processes with ``lock`` open or of git running in ``root`` (Linux).

    git may close a lock file and keep it (``git commit`` while the editor is
    open), so a git process working in the repository counts as a holder.
    """
    from pathlib import Path

    if not os.path.isdir("/proc/self"):
        return _unseen_holders(lock)
    target = os.path.realpath(lock)
    top = os.path.realpath(root)
    holders = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if process_ended(int(entry.name)):  # a zombie holds no file, runs nothing
                continue
            git = (entry / "comm").read_text().startswith("git")
            try:
                cwd = os.readlink(entry / "cwd")
            except PermissionError:  # another user's: a git of theirs may hold it
                if git:
                    holders.append(int(entry.name))
                continue
            in_repo = cwd == top or cwd.startswith(top + os.sep)
            if in_repo and git:
                holders.append(int(entry.name))
                continue
            if any(os.readlink(fd) == target for fd in (entry / "fd").iterdir()):
                holders.append(int(entry.name))
        except OSError:  # the process ended, or is not ours to inspect
            continue
    return sorted(holders)


# Without /proc (Windows, macOS) who holds a file cannot be seen: a lock this
# young (seconds) counts as held by a process not named (pid 0), an older one
# as left by a killed git
UNSEEN_HELD_S = 600


def _unseen_holders(lock: str | os.PathLike[str]) -> list[int]:
    try:
        age = time.time() - os.lstat(lock).st_mtime
    except OSError:
        return []
    return [0] if age < UNSEEN_HELD_S else []


def _lock_error(
    lock: str | os.PathLike[str], root: str | os.PathLike[str], waited: float
) -> LockError:
    import shlex  # only to say how to remove it

    holders = lock_holders(lock, root)
    if holders:
        return LockError(
            f"{lock} is held by {_named(holders)} after "
            f"{waited:g} s; wait for it to finish, then run the command again"
        )
    return LockError(
        f"{lock} is still there after {waited:g} s and no process holds it: a git "
        f"command probably crashed. If no git command is running, remove it with "
        f"`rm {shlex.quote(str(lock))}` and run the command again"
    )


def _named(holders: list[int]) -> str:
    if holders == [0]:
        return "a running process (this system does not say which)"
    return f"process {', '.join(map(str, holders))}"


def relative_paths(paths: Sequence[str]) -> list[str]:
    """Check and normalize workspace-relative POSIX paths (order kept, no repeats).

    Raises TypeError for one str, GardenerError for an absolute path, one with
    a ``..`` part, or the workspace itself.
    """
    if isinstance(paths, str):
        raise TypeError("paths must be a sequence of paths, not one str")
    result: list[str] = []
    for path in paths:
        rel = path_text(path)  # as PurePosixPath spells it
        if not path or rel.startswith("/") or ".." in rel.split("/"):
            raise GardenerError(f"not a workspace-relative POSIX path: {path!r}")
        if rel == ".":
            raise GardenerError("refusing to use the whole workspace as a path")
        if rel not in result:
            result.append(rel)
    return result


def split_z(out: bytes) -> list[str]:
    """git's NUL-separated output (``-z``) as texts (``decode``), empty parts dropped."""
    return [decode(part) for part in out.split(b"\0") if part]


def decode(out: bytes) -> str:
    """git's output as text: UTF-8, bad bytes kept as surrogates (a file name
    read back encodes to its exact bytes)."""
    return out.decode("utf-8", "surrogateescape")
