"""Daily notes are append-only: a committed note found rewritten keeps both versions.

An agent that overwrites the day's note instead of appending to it would
drop what was committed. The gardener puts the committed text back, and
keeps what the rewrite brought below a marker line, so nothing of either
version is lost (the rewrite's lines that the committed text already holds
are not repeated).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.files import flock
from gardener.files.atomic import atomic_write
from gardener.verbs.grown import Memo, grown

if TYPE_CHECKING:
    from gardener.git.repo import Repo

MARKER = "<!-- gardener: lines below were rewritten on {when}; the committed text above is kept -->"


def merge_rewrite(committed: str, current: str, when: str) -> str | None:
    """The note to keep when ``current`` no longer starts with ``committed``; else None.

    That is the committed text, then (if the rewrite brought any) the marker
    line and the lines of ``current`` that the committed text does not hold
    (compared without line ending and BOM; blank lines left out), in their
    order, in the committed text's line-ending style.
    """
    if current.startswith(committed):
        return None
    first = committed.find("\n")
    newline = "\r\n" if first > 0 and committed[first - 1] == "\r" else "\n"
    have = Counter(_lines(committed))
    new = []
    for line in _lines(current):
        if have[line] > 0:
            have[line] -= 1
        elif line.strip():
            new.append(line)
    if not new:
        return committed
    head = (
        committed if not committed or committed.endswith("\n") else committed + newline
    )
    body = [MARKER.format(when=when), *new]
    return head + newline.join(body) + newline


def restore_rewritten(root: Path, rel: str, committed: str, when: str) -> str | None:
    """Apply ``merge_rewrite`` to the note ``rel`` on disk; a warning if it was rewritten.

    Holds the file's flock (``gardener note`` waits) and replaces the file
    atomically; lines appended to the old file meanwhile are carried over.
    Returns None if the note only grew (or is missing, or a symlink).
    """
    target = root / rel
    if target.is_symlink() or not target.is_file():
        return None
    fd = os.open(target, os.O_RDONLY | flock.OPEN_FLAGS)
    try:
        flock.lock(fd)
        current = _read_rest(fd).decode("utf-8", "surrogateescape")
        merged = merge_rewrite(committed, current, when)
        if merged is None:
            return None
        atomic_write(target, merged, root=root)
        while late := _read_rest(fd):  # appended to the old file after we read it
            with open(target, "ab") as out:
                out.write(late)
    finally:
        flock.close(fd)
    kept = len(merged) - len(committed)
    if not kept:
        return f"{rel} was rewritten, not appended to: its committed text is restored (the rewrite only took lines out)"
    return f"{rel} was rewritten, not appended to: its committed text is restored and the rewrite's new lines are kept below a marker line"


def restore_notes(
    root: Path,
    repo: Repo,
    rels: Sequence[str],
    now: datetime,
    warnings: list[str],
    memo: Memo | None = None,
) -> list[str]:
    """``restore_rewritten`` for each committed note of ``rels``; the ones restored.

    A warning for each is added to ``warnings``. ``memo``: see ``grown.grown``.
    """
    kept = []
    only_grew = grown(repo, root, rels, memo)  # a big note: no copy through git
    for rel in rels:
        if rel in only_grew:
            continue
        committed = repo.committed_text(rel)
        warning = committed and restore_rewritten(
            root, rel, committed, now.strftime("%Y-%m-%dT%H:%M")
        )
        if warning:
            warnings.append(warning)
            kept.append(rel)
    return kept


def restore_deleted(
    root: Path, repo: Repo, rels: Sequence[str], warnings: list[str]
) -> list[str]:
    """Put back each committed note of ``rels`` deleted outside the gardener
    (only prune deletes a note, in its own commit); the ones restored.

    The file and its index entry get HEAD's text back (a ``git rm`` is
    undone too). A note moved, not deleted (a new note of ``rels``, or a
    file of its name under its folder, as ``archive/``, starts with its
    committed text), is left to be recorded as a move. A warning
    for each restored note is added to ``warnings``.
    """
    gone = [r for r in rels if not os.path.lexists(root / r)]
    if not gone:
        return []
    committed = repo.committed_texts([*rels])
    new = [root / r for r in rels if committed.get(r) is None and (root / r).is_file()]
    restored = []
    for rel in gone:
        text = committed.get(rel)
        if text is None or _moved(root / rel, text, new):
            continue
        repo.run("checkout", "HEAD", "--", rel, index=True)
        restored.append(rel)
        warnings.append(
            f"{rel} was deleted outside the gardener (only prune deletes a daily"
            " note): restored from the last commit"
        )
    return restored


def _moved(path: Path, text: str, new: Sequence[Path]) -> bool:
    """True if the note that was at ``path`` (its committed ``text``) was
    moved: a new note of ``new`` starts with it, or a file of its name
    elsewhere under its folder (``memory/archive/``) does."""
    same = [p for p in path.parent.rglob(path.name) if p != path]
    for candidate in [*new, *same]:
        try:
            data = candidate.read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            continue
        if text and data.startswith(text):
            return True
    return False


def _lines(text: str) -> list[str]:
    body = text[1:] if text.startswith("\ufeff") else text
    return [line.removesuffix("\r") for line in body.split("\n")]


def _read_rest(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)
