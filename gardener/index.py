"""The recall index: MEMORY.md facts and daily-note entries in SQLite FTS5.

It lives in ``.git/gardener/recall.sqlite3``: never committed, never needed
(delete it and the next recall rebuilds it), and a purge deletes it. Each
file's rows are replaced when the file's size, mtime, ctime or inode change,
so a recall parses only what changed since the last one and its cost follows
the live notes, not the length of the history (issue 6).

Deleted rows are overwritten (``secure_delete``): a secret redacted from a
note does not linger in the index's free pages after the next refresh.
When the folder cannot be written, or the file is damaged beyond a rebuild,
an in-memory index serves the one query.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from pathlib import Path

from .errors import GardenerError
from .recall import Doc, Hit, Match

SCHEMA = 1
_DDL = (
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT)",
    "CREATE TABLE IF NOT EXISTS source(path TEXT PRIMARY KEY, stamp TEXT,"
    " first INTEGER, last INTEGER)",
    # day: the note's date (NULL for MEMORY.md); norm_key: a fact's key;
    # filed_key: a note entry's durable key (MEMORY.md speaks for it then)
    "CREATE TABLE IF NOT EXISTS doc(id INTEGER PRIMARY KEY, path TEXT, day TEXT,"
    " norm_key TEXT, filed_key TEXT, superseded INTEGER, until TEXT,"
    " expires TEXT, hit TEXT)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS body USING fts5(text,"
    " tokenize='unicode61 remove_diacritics 2')",
)


Reader = Callable[[str, Path], list[Doc]]  # (relative path, file) -> its docs


class Index:
    """An open recall index. Use as a context manager; see ``open_index``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.db.close()

    def refresh(
        self, files: Sequence[tuple[str, Path]], present: Iterable[str], read: Reader
    ) -> None:
        """Re-read each of ``files`` whose stamp changed; drop files not in ``present``.

        ``files`` are (workspace-relative path, absolute path); ``present`` is
        every file that still exists among those the index may hold. A file
        that cannot be read (``read`` raises OSError or ValueError) gets no rows.
        """
        present = set(present)
        if not self._changes(files, present):
            return
        # IMMEDIATE: the write lock before reading the spans, so two recalls
        # refreshing at once never drop each other's rows
        self.db.execute("BEGIN IMMEDIATE")
        try:
            stale, gone, known = self._changes(files, present)
            for rel in gone:
                self._drop(rel, known[rel])
            for rel, path in stale:
                if rel in known:
                    self._drop(rel, known[rel])
                stamp = _stamp(
                    path
                )  # before reading: a write during it shows next time
                try:
                    docs = read(rel, path)
                except (OSError, ValueError, GardenerError):
                    docs = []
                self._add(rel, stamp, docs)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _changes(
        self, files: Sequence[tuple[str, Path]], present: set[str]
    ) -> tuple[list[tuple[str, Path]], set[str], dict[str, tuple[int, int]]]:
        """(files whose stamp changed, indexed paths gone, path -> its row span)."""
        stamps, known = {}, {}
        for rel, stamp, first, last in self.db.execute(
            "SELECT path, stamp, first, last FROM source"
        ):
            stamps[rel], known[rel] = stamp, (first, last)
        stale = [(rel, path) for rel, path in files if stamps.get(rel) != _stamp(path)]
        return stale, set(known) - present, known

    def search(
        self, expression: str, *, paths_from: str | None = None, memory_file: str
    ) -> list[Match]:
        """Docs matching the FTS5 ``expression``, with their BM25 scores.

        ``paths_from`` (ISO date) keeps MEMORY.md and the notes of that day on.
        """
        sql = (
            "SELECT d.hit, d.day, d.norm_key, d.filed_key, d.superseded, d.until,"
            " d.expires, -bm25(body) FROM body JOIN doc d ON d.id = body.rowid"
            " WHERE body MATCH ?"
        )
        args: list[object] = [expression]
        if paths_from is not None:
            sql += " AND (d.path = ? OR d.day >= ?)"
            args += [memory_file, paths_from]
        return [
            Match(
                Doc(_hit(h), day, nk, fk, bool(sup), until, exp),
                round(score, 6),
            )
            for h, day, nk, fk, sup, until, exp, score in self.db.execute(sql, args)
        ]

    def keys(self, path: str) -> set[str]:
        """The normalized keys of the facts indexed from ``path`` (MEMORY.md)."""
        rows = self.db.execute(
            "SELECT DISTINCT norm_key FROM doc WHERE path = ? AND norm_key IS NOT NULL",
            (path,),
        )
        return {k for (k,) in rows}

    def _drop(self, rel: str, span: tuple[int, int]) -> None:
        first, last = span
        if first is not None and last is not None and first <= last:
            # by rowid range: deleting by path scans the FTS table (~40x slower)
            self.db.execute("DELETE FROM body WHERE rowid BETWEEN ? AND ?", span)
            self.db.execute("DELETE FROM doc WHERE id BETWEEN ? AND ?", span)
        self.db.execute("DELETE FROM source WHERE path = ?", (rel,))

    def _add(self, rel: str, stamp: str, docs: list[Doc]) -> None:
        (top,) = self.db.execute("SELECT coalesce(max(id), 0) FROM doc").fetchone()
        first = top + 1
        rows = [
            (
                first + i,
                rel,
                d.day,
                d.norm_key,
                d.filed_key,
                int(d.superseded),
                d.until,
                d.expires,
                json.dumps(d.hit.as_dict(), ensure_ascii=False),
            )  # fmt: skip
            for i, d in enumerate(docs)
        ]
        self.db.executemany("INSERT INTO doc VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.executemany(
            "INSERT INTO body(rowid, text) VALUES (?, ?)",
            ((first + i, d.hit.text) for i, d in enumerate(docs)),
        )
        self.db.execute(
            "INSERT INTO source VALUES (?, ?, ?, ?)",
            (rel, stamp, first, first + len(docs) - 1),
        )


def open_index(git_dir: Path | None, signature: str) -> Index:
    """The index in ``git_dir/gardener/``, emptied when ``signature`` changed.

    ``signature`` names everything the rows depend on besides the files
    (settings, the gardener's version). Without a usable folder, or when the
    file is damaged and cannot be replaced, an empty in-memory index.
    """
    if git_dir is not None and git_dir.is_dir():
        path = git_dir / "gardener" / "recall.sqlite3"
        for _ in range(2):
            try:
                path.parent.mkdir(exist_ok=True)
                db = sqlite3.connect(path, timeout=10, isolation_level=None)
                return Index(_prepare(db, signature))
            except sqlite3.DatabaseError:  # damaged or not a database: rebuild
                with suppress(OSError):
                    path.unlink()
            except OSError:
                break
    return Index(_prepare(sqlite3.connect(":memory:", isolation_level=None), signature))


def _prepare(db: sqlite3.Connection, signature: str) -> sqlite3.Connection:
    """Create the tables; empty them if they were built under another signature."""
    try:
        db.execute("PRAGMA secure_delete = ON")
        wanted = f"{SCHEMA}:{signature}"
        try:
            row = db.execute(
                "SELECT value FROM meta WHERE name = 'signature'"
            ).fetchone()
        except sqlite3.OperationalError:  # no tables yet
            row = None
        if row is None or row[0] != wanted:
            db.execute("BEGIN IMMEDIATE")
            for statement in _DDL:
                db.execute(statement)
            for table in ("source", "doc", "body"):
                db.execute(f"DELETE FROM {table}")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('signature', ?)", (wanted,))
            db.execute("COMMIT")
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def _stamp(path: Path) -> str:
    """What tells a changed file: size, mtime, ctime (which no tool can set back), inode."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


def _hit(data: str) -> Hit:
    return Hit(**json.loads(data))
