"""``merge-memory`` and ``merge-union``: the merge drivers git runs (see
docs/design.md, Several machines). Each reads the three versions git gives,
merges them (``gardener.planning.merge``) and writes the result over ours'
file, as a git merge driver must; no commit, no lock (git holds the index)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gardener.errors import GardenerError
from gardener.git.mergefile import merge_file
from gardener.model.config import Config, multi_valued
from gardener.planning.merge import merge_lines, merge_memory


@dataclass(frozen=True)
class MergeResult:
    """What a driver did: the path merged, its conflicts (the ids of the entries
    both sides changed differently; ``outside``: hunks outside the block)."""

    path: str
    conflicts: tuple[str, ...] = ()
    outside: int = 0
    renamed: tuple[tuple[str, str], ...] = ()  # theirs' id -> the id it took

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.outside


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape")


def _write(path: Path, text: str) -> None:
    # git's %A is a temporary file git reads back: a plain write is enough
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def _config(root: Path) -> Config:
    """The workspace's settings, or the defaults when rules.md cannot be read
    (a merge must not stop on a bad setting)."""
    from gardener.store import settings

    try:
        return settings.load(root)
    except (GardenerError, OSError):
        return settings.default_config()


def merge_memory_files(
    base: Path,
    ours: Path,
    theirs: Path,
    path: str = "MEMORY.md",
    root: Path | None = None,
) -> MergeResult:
    """Merge MEMORY.md's three versions into ``ours`` (git's ``%A``).

    ``root``: the workspace, for rules.md's ``multi_valued`` (default: here).
    Raises ParseError when a version's block cannot be read; ``ours`` is then
    left as it is, and git reports the file as conflicted.
    """
    config = _config(root or Path.cwd())
    done = merge_memory(
        _read(base), _read(ours), _read(theirs), merge_file,
        multi=lambda key: multi_valued(key, config), path=path,
    )  # fmt: skip
    _write(ours, done.text)
    conflicts = tuple(c.shown.id or c.shown.value for c in done.conflicts)
    return MergeResult(path, conflicts, done.outside_conflicts, done.renamed)


def merge_union_files(base: Path, ours: Path, theirs: Path, path: str) -> MergeResult:
    """Merge a set-like file's three versions into ``ours``: never a conflict."""
    _write(ours, merge_lines(_read(base), _read(ours), _read(theirs)))
    return MergeResult(path)
