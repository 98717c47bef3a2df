"""``merge-memory`` and ``merge-union``: the merge drivers git runs (see
docs/design.md, Several machines). Each reads the three versions git gives,
merges them (``gardener.planning.merge``) and writes the result over ours'
file, as a git merge driver must; no commit, no lock (git holds the index)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.atomic import atomic_write
from gardener.formats.memoryfile import NEW_FILE, parse_memory, render_memory
from gardener.git.mergefile import merge_file
from gardener.git.merges import (
    commits_since,
    head,
    merge_base,
    merges_touching,
    texts_at,
)
from gardener.git.repo import Repo
from gardener.model.config import Config, multi_valued
from gardener.model.facts import Fact, Problem
from gardener.planning.merge import lost_in_merge, restore
from gardener.planning.mergetext import merge_lines, merge_memory
from gardener.planning.notemerge import merge_note
from gardener.verbs.messages import restore_message
from gardener.verbs.session import Session


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


def merge_note_files(base: Path, ours: Path, theirs: Path, path: str) -> MergeResult:
    """Merge a daily note's three versions into ``ours``: both sides' lines
    and one front matter (``planning.notemerge``); never a conflict."""

    def union(o: str, a: str, b: str) -> str:
        return merge_file(o, a, b, union=True)[0]

    _write(ours, merge_note(_read(base), _read(ours), _read(theirs), union))
    return MergeResult(path)


def merge_union_files(base: Path, ours: Path, theirs: Path, path: str) -> MergeResult:
    """Merge a set-like file's three versions into ``ours``: never a conflict."""
    _write(ours, merge_lines(_read(base), _read(ours), _read(theirs)))
    return MergeResult(path)


# the merges looked at (newest first), and the later versions of MEMORY.md a
# lost entry is looked for in: a few git reads for a check or a pass
MERGES = 20
LATER = 50
VERIFIED = (
    "merges-verified"  # in the git folder's gardener/: HEAD, nothing lost by then
)


@dataclass(frozen=True)
class Lost:
    """An entry one side of a merge filed that the merge's result dropped
    (and no later version of MEMORY.md holds)."""

    merge: str  # the merge commit (40 hex)
    fact: Fact


def lost_entries(
    repo: Repo, memory_file: str, multi: Callable[[str], bool]
) -> list[Lost]:
    """The entries recent merges of ``memory_file`` dropped (see
    ``gardener.planning.merge.lost_in_merge``), oldest merge first.

    The git folder's ``gardener/merges-verified`` remembers the HEAD up to
    which nothing was lost, so a pass looks only at the merges made since:
    one ``git rev-parse`` when there are none.
    """
    now = head(repo)
    if now is None:
        return []
    verified_path = repo.git_dir / "gardener" / VERIFIED
    since = _verified(verified_path)
    if since == now:
        return []
    found: list[Lost] = []
    for merge, parents in reversed(merges_touching(repo, memory_file, MERGES, since)):
        found += [Lost(merge, f) for f in _lost_at(repo, memory_file, merge, parents)]
    if not found:
        verified_path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(verified_path, now + "\n")
    return found


def _verified(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _lost_at(
    repo: Repo, memory_file: str, merge: str, parents: list[str]
) -> list[Fact]:
    base = merge_base(repo, parents)
    texts = texts_at(repo, [merge, *parents, *([base] if base else [])], memory_file)
    try:
        parsed = {c: parse_memory(t or "", memory_file).facts for c, t in texts.items()}
    except ParseError:
        return []  # a side whose block cannot be read: check reports that file
    lost = lost_in_merge(
        parsed[base] if base else (), [parsed[p] for p in parents], parsed[merge]
    )
    if not lost:
        return []
    later = texts_at(repo, commits_since(repo, merge, memory_file, LATER), memory_file)
    return [f for f in lost if not any(_holds(t, f.id or "") for t in later.values())]


def _holds(text: str | None, ident: str) -> bool:
    """Whether a MEMORY.md text has an entry of id ``ident`` (a quick look)."""
    return text is not None and (f"{{#{ident} " in text or f"{{#{ident}}}" in text)


def lost_problems(lost: Sequence[Lost], memory_file: str) -> list[Problem]:
    """What ``check`` says of each lost entry."""
    return [
        Problem(
            "lost",
            memory_file,
            None,
            f"#{x.fact.id} ({_label(x.fact)}, from {x.fact.get('from') or '?'}) was"
            f" filed on one side of merge {x.merge[:8]} and is missing since; its"
            " note is marked as promoted, so run `gardener promote` to file it again",
        )
        for x in lost
    ]


def _label(fact: Fact) -> str:
    return f"{fact.key}: {fact.value}" if fact.key else fact.value


def restore_lost(s: Session) -> tuple[Lost, ...]:
    """File again, in one commit, the entries recent merges dropped (see
    ``lost_entries``); returns them. MEMORY.md changed meanwhile: nothing."""
    config = s.config
    lost = lost_entries(s.repo, config.memory_file, lambda k: multi_valued(k, config))
    if not lost:
        return ()
    before = s.memory_text()
    memory = parse_memory(before or NEW_FILE, config.memory_file)
    facts = restore(
        memory.facts, [x.fact for x in lost], lambda k: multi_valued(k, config)
    )
    text = render_memory(memory, facts)
    if text == before:
        return ()
    applied = s.apply({config.memory_file: text}, {config.memory_file: before},
                      restore_message([(x.merge, _label(x.fact)) for x in lost]))  # fmt: skip
    return () if applied.stale else tuple(lost)
