"""Recall's search (DESIGN 2.4): keep the recall index fresh, then ask it.

The index (``gardener.index``) holds MEMORY.md's facts and the notes'
entries. Before a query, the files the query may answer from are checked by
their stamp; the changed ones are read, their lines that no commit holds
scanned for secrets, and their rows replaced. ``Workspace.recall`` calls
``search`` for plain and ``--all`` queries.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import GardenerError, ParseError
from .index import open_index, remove_index
from .recall import Doc, Hit, fact_docs, match_expression, note_docs, pick
from .validtime import format_instant
from .workspace import note_date, note_names, read_text

if TYPE_CHECKING:
    from .garden import Workspace


def search(
    ws: Workspace, query: str, now: datetime, limit: int | None, everything: bool
) -> list[Hit]:
    """Hits for ``query`` from the recall index, refreshed first for the files
    it needs: MEMORY.md and the live notes, or every note with ``everything``.

    ``now`` is local time in the workspace's timezone (naive); ``limit`` caps
    the hits (None: all). Raises ParseError if MEMORY.md does not parse; a
    damaged index is rebuilt, and an index in memory answers if it cannot be.
    """
    expression = match_expression(query)
    if expression is None:
        return []
    file = ws.config.memory_file
    live_from = now.date() - timedelta(days=ws.config.note_ttl_days)
    folder = ws.config.notes_dir
    since = None if everything else live_from.isoformat()
    wanted = note_names(ws.root, folder, since or "")
    base = f"{ws.root}{os.sep}{folder}{os.sep}"  # strings: 3,000 Paths cost ~30 ms
    files = [(file, str(ws.memory_path))]
    files += [(f"{folder}/{n}", base + n) for n in wanted]
    # the index looks only at rows from the floor on (and MEMORY.md's), and there
    # a row stays only for a readable note: one replaced by a folder, a dangling
    # link or a deleted file loses its rows
    present = {rel for rel, _ in files}
    today = format_instant(now)
    hits: list[Hit] = []
    git_dir = ws.root / ".git"
    # a damaged index (SQLite errors, rows that do not decode) is deleted and
    # built again; if that fails too, an index in memory answers this once
    for where, fresh in ((git_dir, False), (git_dir, True), (None, False)):
        if fresh:
            remove_index(git_dir)
        try:
            with open_index(where, _signature(ws)) as index:
                floor = f"{folder}/{since or ''}"
                read = functools.partial(_docs, ws, {})
                index.refresh(files, present, read, floor)
                known = index.keys(file)
                found = index.search(expression, paths_from=since, memory_file=file)
                hits = pick(found, today, known, limit, everything)
            break
        except (sqlite3.Error, ValueError, TypeError, KeyError):
            if where is None:
                raise
    return hits


def _docs(
    ws: Workspace, changed: dict[str, set[str]], files: list[tuple[str, str]]
) -> dict[str, list[Doc]]:
    """The recall docs of ``files`` (the index's reader): MEMORY.md's facts or
    a note's entries, per workspace-relative path. ``changed`` keeps git's
    list of changed files from one batch of a refresh to the next.

    What reached disk without ``note`` may hold a secret that no record has
    redacted yet, and recall answers into a prompt (the index is a copy):
    lines no commit holds are scanned (committed ones were, before their
    commit; a year of MEMORY.md costs ~0.3 s to scan whole). A file named
    with a token is left out until record renames it.
    """
    config = ws.config
    from . import redact  # only when a file changed: a warm recall needs neither
    from .git import Repo

    wanted = [
        (rel, where)
        for rel, where in files
        if not redact.find(Path(where).name, config.never_store, config.allow)
    ]
    committed: dict[str, str | None] = {}
    try:
        with Repo.open(ws.root) as repo:
            # a file git sees unchanged was scanned before its commit
            if "paths" not in changed:
                owned = [config.memory_file, config.notes_dir]
                changed["paths"] = set(repo.changed(owned))
            dirty = changed["paths"] & {rel for rel, _ in wanted}
            committed = repo.committed_texts(sorted(dirty))
    except GardenerError:
        dirty = {rel for rel, _ in wanted}  # no git answer: scan them all
    docs: dict[str, list[Doc]] = {}
    for rel, where in wanted:
        try:
            docs[rel] = _file_docs(
                ws, rel, Path(where), rel in dirty, committed.get(rel)
            )
        except FileNotFoundError:
            continue  # gone meanwhile: its rows go next time
    return docs


def _file_docs(
    ws: Workspace, rel: str, path: Path, dirty: bool, committed: str | None
) -> list[Doc]:
    """One file's docs; ``dirty``: it differs from HEAD (``committed``)."""
    from . import redact
    from .memoryfile import parse_memory
    from .notes import parse_note

    config = ws.config

    def clean(text: str) -> str:
        if not dirty:
            return text
        known = set(committed.split("\n")) if committed else set()
        fresh = "\n".join(line for line in text.split("\n") if line not in known)
        if not redact.find(fresh, config.never_store, config.allow):
            return text
        return redact.redact(text, config.never_store, config.allow)[0]

    if rel == config.memory_file:
        if not path.exists():
            return []
        # unreadable, it is an error (ParseError, file and line), as without
        # the index: recall must not answer as if MEMORY.md were empty
        return fact_docs(parse_memory(clean(read_text(path)), rel).facts, rel)
    day = note_date(path.name)
    try:
        text = clean(read_text(path))
    except ParseError:  # not UTF-8: `check` reports it; recall goes on
        return []
    return note_docs(parse_note(rel, day, text).entries, config) if day else []


def _signature(ws: Workspace) -> str:
    """What the index's rows depend on besides the files: the settings and
    the code that turns files into docs."""
    here = Path(__file__).parent
    modules = (
        "recall",
        "search",
        "index",
        "notes",
        "memoryfile",
        "classify",
        "model",
        "validtime",
    )
    stamps = [(here / f"{m}.py").stat() for m in modules]
    return repr(ws.config) + "".join(f"|{s.st_mtime_ns}:{s.st_size}" for s in stamps)
