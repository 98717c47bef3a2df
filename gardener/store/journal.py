"""A redo journal for the gardener's own rewrites of MEMORY.md, the ledger and notes.

Before a verb writes, it records in ``.git/gardener-pending.json`` what each
file will hold and the commit it will make; the record goes once the commit
is made. A run killed in between leaves the record, and the next run (under
the workspace lock) finishes that work and commits it as the same action,
not as a change made outside the gardener.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence

from gardener.errors import GardenerError
from gardener.files.atomic import (
    atomic_write,
    atomic_write_pieces,
    remove_stale_temps,
    replace_if_unchanged,
)
from gardener.files.layout import path_text
from gardener.git import trailers
from gardener.model.record import Record

# ``gardener note`` journals through ``begin`` and ``done``: no pathlib
# (~6 ms to import) or typing here
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Literal

    from gardener.git.repo import Identity, Repo

JOURNAL = "gardener-pending.json"  # in the git folder: never committed
RESUMED = trailers.trailer(
    trailers.RESUMED, "completed after the run that planned it was interrupted"
)

# (paths, message, author, texts to commit for them or None: the files) -> sha
Commit = Callable[
    [Sequence[str], str, "Identity | None", "Mapping[str, str] | None"], "str | None"
]


class Pending(Record):
    """The work of an interrupted run."""

    pid: int
    message: str
    author: tuple[str, str] | None  # (name, email); None: the gardener
    files: dict[str, str | None]  # workspace-relative path -> text; None: deleted


def apply(
    root: Path,
    repo: Repo,
    files: Mapping[str, str | None],
    before: Mapping[str, str | None],
    message: str,
    author: Identity | None,
    commit: Commit,
) -> str | None | Literal[False]:
    """Write ``files`` (None: delete) and commit them, journaled.

    ``before`` holds the text each rewritten file had when the plan was made
    (None: missing); a file not named there is written unconditionally.
    Returns the commit's sha (None: no change), or False if a file in
    ``before`` changed since the plan: then nothing was written and the
    caller re-plans.
    """
    begin(repo.git_dir, files, message, author)
    for rel, text in files.items():
        path = root / rel
        if not os.path.lexists(path):
            repo.mark_new([rel])  # its commit must add it first
        if rel in before:
            if not replace_if_unchanged(path, text, before[rel], root=root):
                done(repo.git_dir)
                return False
        elif text is None:
            path.unlink(missing_ok=True)
        else:
            atomic_write(path, text, root=root)
    sha = commit(list(files), message, author, _texts(files))
    done(repo.git_dir)
    return sha


def _holds(current: str | None, planned: str | None) -> bool:
    """The file (``current``) is as planned, or as planned with lines appended."""
    if current is None or planned is None:
        return current == planned
    return current.startswith(planned) and (
        len(current) == len(planned) or planned.endswith("\n") or not planned
    )


def _texts(files: Mapping[str, str | None]) -> dict[str, str] | None:
    """``files`` as texts for the commit to take instead of the files (what a
    writer adds meanwhile stays out); None if one is a deletion."""
    texts = {rel: text for rel, text in files.items() if text is not None}
    return texts if len(texts) == len(files) else None


def begin(
    git_dir: str | os.PathLike[str],
    files: Mapping[str, str | None],
    message: str,
    author: Identity | None,
) -> None:
    """Record that ``files`` will hold these texts and be committed with ``message``."""
    pending = Pending(os.getpid(), message, _pair(author), dict(files))
    # json.dumps' text, ASCII (bad bytes, as surrogates, survive), written as
    # the encoder gives it: the whole of it and its bytes beside it cost a
    # pass that rewrites a 2.4 MB MEMORY.md 11 MB of its memory peak
    pieces = json.JSONEncoder().iterencode(pending._asdict())
    atomic_write_pieces(os.path.join(git_dir, JOURNAL), pieces, root=git_dir)


def done(git_dir: str | os.PathLike[str]) -> None:
    """The recorded work is committed: forget it."""
    try:  # noqa: SIM105  # contextlib.suppress: an import a note avoids
        os.unlink(os.path.join(git_dir, JOURNAL))
    except FileNotFoundError:
        pass


def recover(
    root: Path, repo: Repo, commit: Commit, folders: Sequence[Path]
) -> list[str]:
    """Clean up after a killed run, under the workspace lock; warnings to show.

    Removes the temp files a killed write left (in ``root``, ``folders``,
    ``.gardener``, its ledger folder and the git folder), then ``resume``s the journaled work.
    """
    from gardener.store.ledger import FOLDER

    for folder in {root, root / ".gardener", root / FOLDER, repo.git_dir, *folders}:
        remove_stale_temps(folder)  # a copy of a file that is still there
    sha = resume(root, repo, commit)
    if sha is None:
        return []
    return [
        f"an interrupted gardener run left work uncommitted; it is committed now ({sha[:8]})"
    ]


def resume(root: Path, repo: Repo, commit: Commit) -> str | None:
    """Finish and commit the work an interrupted run left in the journal.

    Each file already written as planned is committed, as planned: lines a
    writer appended since stay uncommitted, to be recorded as theirs; a file
    still as it was at HEAD is written first; a file changed by someone else
    otherwise is left alone (it is then committed as an outside change). If
    the run was interrupted before it wrote anything, the record is just
    dropped. Returns the commit's sha, or None.
    """
    from gardener.git.repo import Identity

    pending = read(repo.git_dir)
    if pending is None:
        return None
    head = {rel: repo.committed_text(rel) for rel in pending.files}
    now = {rel: _current(root / rel) for rel in pending.files}
    if not any(
        _holds(now[rel], text) and text != head[rel]
        for rel, text in pending.files.items()
    ):
        done(repo.git_dir)
        return None
    paths = []
    for rel, text in pending.files.items():
        if now[rel] == head[rel] and text != head[rel]:
            if text is None:
                (root / rel).unlink(missing_ok=True)
            else:
                atomic_write(root / rel, text, root=root)
            now[rel] = text
        if _holds(now[rel], text):
            paths.append(rel)
    message = pending.message.rstrip("\n") + "\n" + RESUMED + "\n"
    author = Identity(*pending.author) if pending.author else None
    # the journaled texts, not the files: what a writer adds meanwhile is theirs
    # (and not scanned yet); a deletion has no text, so git reads the files then
    sha = commit(
        paths, message, author, _texts({rel: pending.files[rel] for rel in paths})
    )
    done(repo.git_dir)
    return sha


def clear_dead_locks(repo: Repo) -> list[str]:
    """Remove the git lock files no process holds; call when a killed gardener held
    the workspace lock (its git commands may have died with it).

    Only ``index.lock``, ``HEAD.lock`` and the current branch's ref lock; one
    held by a live process (or with git running in the work tree) stays.
    Returns a warning per lock removed.
    """
    from gardener.git.run import lock_holders

    git_dir = repo.git_dir
    locks = [git_dir / "index.lock", git_dir / "HEAD.lock"]
    head = (git_dir / "HEAD").read_text("utf-8", "replace").strip()
    if head.startswith("ref: refs/"):
        locks.append(git_dir / (head.removeprefix("ref: ") + ".lock"))
    removed = []
    for lock in locks:
        if lock.is_file() and not lock_holders(lock, repo.root):
            lock.unlink(missing_ok=True)
            removed.append(
                f"removed {lock}: the killed gardener run left it and no process holds it"
            )
    return removed


def read(git_dir: str | os.PathLike[str]) -> Pending | None:
    """The journal's record; None if there is none (or it was never completely written)."""
    path = os.path.join(git_dir, JOURNAL)
    try:
        with open(path, "rb") as file:
            data = json.loads(file.read())
        author = data["author"]
        return Pending(
            int(data["pid"]),
            str(data["message"]),
            (str(author[0]), str(author[1])) if author else None,
            {str(k): (None if v is None else str(v)) for k, v in data["files"].items()},
        )
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise GardenerError(
            f"{path_text(path)} is damaged ({exc}); delete it, then rerun"
        ) from exc


def _pair(author: Identity | None) -> tuple[str, str] | None:
    return (author.name, author.email) if author else None


def _current(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        return None
