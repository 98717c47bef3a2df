"""Purge's history rewrite as steps a kill cannot spoil (see docs/design.md, Purge).

``begin`` runs before git-filter-repo: it renames the checked-out branch if
its name holds the text, gives every stash entry a ref (``gardener.git.keep``),
clears skip-worktree/assume-unchanged flags and writes the marker
``.git/gardener-purge`` (the refs as they were, the stash messages and the
flags, scrubbed). ``finish`` runs after it: the work tree is carried over to
the new HEAD without ``reset --hard`` (files that held the text are scrubbed
in place of the old ones, keeping lines others appended meanwhile; files
whose names held it are renamed; the index is reset to HEAD), the reflogs
are expired, the stash is rebuilt, the flags are put back, old objects are
pruned and the marker goes. ``resume`` is for the next run of a killed purge:
it finishes the rewrite the marker speaks of (or, if the refs never changed,
undoes ``begin``), so that run goes on as an unkilled one would.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gardener.errors import GardenerError
from gardener.files.atomic import atomic_write
from gardener.files.scrub import finish_carries, replace_carrying
from gardener.git import keep
from gardener.git import rewrite as gitrewrite
from gardener.git.run import decode
from gardener.planning.purge import REPLACEMENT, Needle, needle_regex
from gardener.store import purged

if TYPE_CHECKING:
    from gardener.git.repo import Repo

MARKER = "gardener-purge"  # in the git folder: a rewrite begun and not finished
CARRY = "gardener-carry"  # in the git folder: old files kept until carried over
MAX_FILE = 64 << 20  # work-tree files larger than this are reported, not scanned
_REF_SAFE = re.sub(r"[\[\] ]", "", REPLACEMENT)  # as the driver's ref names


def begin(repo: Repo, needle: Needle, kept: Mapping[str, Any]) -> None:
    """Prepare ``repo`` for the rewrite of ``needle`` (see the module);
    ``kept`` (JSON values, without the text) is kept in the marker for the
    rerun of a killed purge: ``kept`` reads it back."""
    keep.drop_held(repo)  # a kill before a marker was written left them
    gitrewrite.rename_checked_out(repo, _regex(needle), _REF_SAFE)
    entries = keep.stashes(repo)
    flags = keep.flags(repo)
    keep.hold_stashes(repo, entries)
    marker = {
        "refs": _refs(repo),
        "stashes": [needle.mask(message) for _, message in entries],
        "flags": {_sub_name(needle, p): f for p, f in flags.items()},
        "kept": dict(kept),
    }
    _write(repo, marker)
    keep.clear_flags(repo, list(flags))


def finish(root: Path, repo: Repo, needle: Needle, rewritten: bool) -> None:
    """After the rewrite (``rewritten``: filter-repo changed the refs; else
    only objects out of reach and work-tree files held the text)."""
    marker = _read(repo)
    if rewritten:
        _rename_names(root, repo, needle)
    scrub_work_tree(root, needle, carry_folder(repo))
    if rewritten:
        repo.run("reset", "-q", index=True)  # the index of the new HEAD
        gitrewrite.drop_named_refs(repo, _regex(needle))
    gitrewrite.scrub_git_files(repo, needle.sub)
    # the recall index and the settings cache: caches that may hold the text
    shutil.rmtree(repo.git_dir / "gardener", ignore_errors=True)
    gitrewrite.expire_reflogs(repo)
    keep.restore_stashes(repo, marker.get("stashes", []))
    keep.set_flags(repo, marker.get("flags", {}))
    gitrewrite.prune(repo)
    _write(repo, {**marker, "done": True})  # the tombstone is left: ``end``
    keep.drop_held(repo)


def resume(root: Path, repo: Repo, needle: Needle) -> bool:
    """Finish a rewrite a killed purge of ``needle`` began (its marker is
    there): True if there was one. Raises GardenerError when the marker
    belongs to a purge of another text (that one must be run again first)."""
    if not (repo.git_dir / MARKER).is_file():
        return False
    marker = _read(repo)
    if marker.get("done") and not (root / purged.PENDING).is_file():
        end(repo)  # killed after its tombstone: only the marker was left
        return False
    if not purged.pending_lines(root, needle.text):
        raise GardenerError(
            "a purge of another text was stopped half-way (.git/gardener-purge): "
            "run that purge again first, then this one"
        )
    # a kill in a carry-over: the lines that reached the old file go on
    finish_carries(carry_folder(repo), root, needle.sub)
    if marker.get("done"):
        return True  # only the tombstone was left: the purge makes it
    if _refs(repo) != marker.get("refs"):
        finish(root, repo, needle, rewritten=True)
        return True
    keep.drop_held(repo)  # the rewrite never ran: the stash's own log is intact
    keep.set_flags(repo, marker.get("flags", {}))
    (repo.git_dir / MARKER).unlink(missing_ok=True)
    return True


def hold_rebased_stashes(root: Path, repo: Repo, onto: str) -> list[str]:
    """Sync is putting HEAD on a remote's purged history (``onto``): hold
    every stash entry rebuilt on ``onto``, with the texts purged from this
    workspace taken out (``keep.rebase_stashes``), before the stale refs
    (the stash too) are dropped. Returns the messages for
    ``forget_keeping_stashes``."""
    from gardener.verbs.guard import purged_scrubber

    scrub = purged_scrubber(root)

    def sub(data: bytes) -> bytes:
        if scrub is None:
            return data
        text = data.decode("utf-8", "surrogateescape")
        return scrub(text)[0].encode("utf-8", "surrogateescape")

    keep.drop_held(repo)
    return keep.rebase_stashes(repo, onto, sub)


def forget_keeping_stashes(repo: Repo, messages: list[str]) -> None:
    """Forget the old history (``gitrewrite.forget_old_history``), then make
    the entries ``hold_rebased_stashes`` held the stash again."""
    gitrewrite.forget_old_history(repo, lambda data: data)
    keep.restore_stashes(repo, messages)
    keep.drop_held(repo)


def kept(repo: Repo) -> dict[str, Any]:
    """What ``begin`` was given to keep; {} if no marker is there."""
    got = _read(repo).get("kept")
    return got if isinstance(got, dict) else {}


def end(repo: Repo) -> None:
    """The tombstone is made: the marker goes."""
    keep.drop_held(repo)
    (repo.git_dir / MARKER).unlink(missing_ok=True)


def carry_folder(repo: Repo) -> Path:
    """Where ``replace_carrying`` keeps old files until carried over."""
    return repo.git_dir.resolve() / CARRY  # .git may be a symlink


def scrub_work_tree(root: Path, needle: Needle, hold: Path | None = None) -> list[str]:
    """Replace the text in every work-tree file that holds it, keeping lines
    appended meanwhile (``replace_carrying``, with ``hold`` as its folder
    of old files); returns their paths."""
    done = []
    for path in _scannable(work_tree_files(root)):
        if replace_carrying(path, needle.sub, root, hold) is not None:
            done.append(path.relative_to(root).as_posix())
    return done


def work_tree_files(root: Path) -> list[Path]:
    """Regular files under ``root`` (symlinks not followed, ``.git`` folders skipped)."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(names):
            path = Path(folder, name)
            if name != ".git" and path.is_file() and not path.is_symlink():
                found.append(path)
    return found


def _scannable(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        try:
            if path.stat().st_size < MAX_FILE:
                found.append(path)
        except OSError:
            continue  # gone meanwhile
    return found


def _rename_names(root: Path, repo: Repo, needle: Needle) -> None:
    """Rename the tracked files whose path holds the text, as the rewrite
    renamed them (a folder left empty goes)."""
    for rel in repo.ls("ls-files", "-z"):
        new = _sub_name(needle, rel)
        old_path, new_path = root / rel, root / new
        if new == rel or not os.path.lexists(old_path) or os.path.lexists(new_path):
            continue
        new_path.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old_path, new_path)
        with contextlib.suppress(OSError):  # stops at the first folder not empty
            os.removedirs(old_path.parent)


def _sub_name(needle: Needle, path: str) -> str:
    data = path.encode("utf-8", "surrogateescape")
    return needle.sub(data).decode("utf-8", "surrogateescape")


def _regex(needle: Needle) -> re.Pattern[str]:
    return re.compile(needle_regex(needle.text), re.IGNORECASE if needle.ignore_case else 0)  # fmt: skip


def _refs(repo: Repo) -> dict[str, str]:
    _, out = repo.run("for-each-ref", "--format=%(refname) %(objectname)")
    pairs = (line.rsplit(" ", 1) for line in decode(out).splitlines() if line)
    return {name: sha for name, sha in pairs}


def _write(repo: Repo, marker: dict[str, Any]) -> None:
    folder = repo.git_dir.resolve()  # .git may be a symlink
    atomic_write(folder / MARKER, json.dumps(marker, indent=1), root=folder)


def _read(repo: Repo) -> dict[str, Any]:
    try:
        data = json.loads((repo.git_dir / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
