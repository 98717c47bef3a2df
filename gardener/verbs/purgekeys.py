"""The marks a purge's edits change, planned before its rewrite (see
docs/design.md, Purge).

A ledger mark is a digest of an entry's words, and ``forget``'s register
names entries by their words: once ``[PURGED]`` replaces the text, promote
would read the edited entries as new (filing again even ones a person had
removed from MEMORY.md) and retired entries would answer recall again.
``plan`` computes, from each note as the purge will leave it, the ledger
month files and the register to write; purge keeps the plan in its marker
(``gardener.verbs.rewriting``) so that the rerun of a killed purge writes the
same files; ``write`` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.files.atomic import atomic_write
from gardener.files.layout import note_date
from gardener.files.read import read_text
from gardener.formats.dailynote import parse_note
from gardener.model.facts import Note
from gardener.model.marks import fingerprints
from gardener.planning.purge import Needle
from gardener.store import retired
from gardener.store import times as store_times
from gardener.store.ledger import month_of, read_all

if TYPE_CHECKING:
    from gardener.git.repo import Repo


def plan(
    root: Path, repo: Repo, needle: Needle, paths: Sequence[str]
) -> dict[str, str | None]:
    """The files to write once ``paths`` (workspace-relative, those holding
    the text) are scrubbed: path -> text (None: delete). Marks waiting
    uncommitted are written into the month files (their folder goes with
    the caches)."""
    texts = {}
    for path in paths:
        try:
            old = read_text(root / path)
        except (OSError, GardenerError):
            continue
        new = needle.sub(old.encode("utf-8", "surrogateescape"))
        texts[path] = (old, new.decode("utf-8", "surrogateescape"))
    out = _ledger(root, repo, texts)
    out.update(_register(root, texts))
    out.update(_times(root, texts))
    return out


def write(root: Path, planned: Mapping[str, str | None]) -> list[str]:
    """Write ``plan``'s files; returns their paths (to commit)."""
    for rel, text in planned.items():
        target = root / rel
        if text is None:
            target.unlink(missing_ok=True)
        else:
            atomic_write(target, text, root=root)
    return list(planned)


def _note(path: str, text: str) -> Note | None:
    day = note_date(path.rpartition("/")[2])
    if day is None:
        return None
    try:
        return parse_note(path, day, text)
    except GardenerError:
        return None


def _marks(path: str, text: str) -> dict[int, str]:
    """Line -> ledger mark of each entry of the note ``text`` ({}: none)."""
    note = _note(path, text)
    return {e.line: mark for e, mark in fingerprints(note).items()} if note else {}


def _values(path: str, text: str) -> dict[int, str]:
    note = _note(path, text)
    return {e.line: e.value for e in note.entries} if note else {}


def _ledger(
    root: Path, repo: Repo, texts: Mapping[str, tuple[str, str]]
) -> dict[str, str | None]:
    book = read_all(root, repo.git_dir)
    marks = set(book.marks())
    for path, (old_text, new_text) in texts.items():
        new_marks = _marks(path, new_text)
        for line, old in _marks(path, old_text).items():
            new = new_marks.get(line)
            if new is None or new == old:
                continue
            marks |= {
                new + m[len(old) :]
                for m in marks
                if m == old or m.startswith(old + "\t")
            }
    return book.files(marks)


def _renamed(texts: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """Old ledger mark -> new, of each entry the edits change."""
    out = {}
    for path, (old_text, new_text) in texts.items():
        new_marks = _marks(path, new_text)
        for line, old in _marks(path, old_text).items():
            new = new_marks.get(line)
            if new is not None and new != old:
                out[old] = new
    return out


def _times(root: Path, texts: Mapping[str, tuple[str, str]]) -> dict[str, str | None]:
    """The recorded times' files (``store.times``) with the edited entries
    renamed, so they keep their times ({} if unchanged)."""
    renamed = _renamed(texts)
    out: dict[str, str | None] = {}
    for month in sorted({month_of(f"{p}\t") for p in texts}):
        rel = store_times.month_file(month)
        path = root / rel
        if not renamed or not path.is_file():
            continue
        old = read_text(path)
        lines = []
        for line in old.splitlines():
            mark, _, when = line.rpartition("\t")
            lines.append(f"{renamed[mark]}\t{when}" if mark in renamed else line)
        new = store_times.render(lines)
        if new != old:
            out[rel] = new
    return out


def _register(
    root: Path, texts: Mapping[str, tuple[str, str]]
) -> dict[str, str | None]:
    """``forget``'s register with the edited entries renamed ({} if unchanged)."""
    register = root / retired.REGISTER
    if not register.is_file():
        return {}
    text = register.read_text(encoding="utf-8", errors="surrogateescape")
    entries = retired.parse(text)
    listed = {m.partition("\t")[0] for m in entries}
    for path, (old_text, new_text) in texts.items():
        if path not in listed:
            continue
        new_values = _values(path, new_text)
        for line, old in _values(path, old_text).items():
            new = new_values.get(line)
            was = retired.mark(path, old)
            if new is not None and new != old and was in entries:
                entries[retired.mark(path, new)] = entries.pop(was)
    rendered = retired.render(entries)
    return {} if rendered == text else {retired.REGISTER: rendered}
