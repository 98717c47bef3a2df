"""The recall index: MEMORY.md facts and daily-note entries in SQLite FTS5.

It lives in ``.git/gardener/recall.sqlite3``: never committed, never needed
(delete it and the next recall rebuilds it), and a purge deletes it. Each
file's rows are replaced when the file's size, mtime, ctime or inode change,
so a recall parses only what changed since the last one and its cost follows
the live notes, not the length of the history. A big note that only grew
keeps its rows above where its last read stopped (``Parts``): the appended
part is read, not the note.

Deleted rows are overwritten (``secure_delete``): a secret redacted from a
note does not linger in the index's free pages after the next refresh.
When the folder cannot be written, or the file is damaged beyond a rebuild,
an in-memory index serves the one query.
"""

from __future__ import annotations

import json
import os
import sqlite3

from gardener.recall import filed as filing
from gardener.recall.hits import Match
from gardener.recall.schema import SCHEMA, prepare
from gardener.recall.stamps import stamp

# a warm recall imports this module: no typing, pathlib, dataclasses or
# contextlib (~0.7 ms) at run time
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import (
        Callable,
        Generator,
        Iterable,
        Iterator,
        Mapping,
        Sequence,
    )

    # source: path, stamp, where a read of it stopped (JSON or None)
    Row = tuple[str, str, str | None]

    from gardener.recall.rank import Doc

    # ([(relative path, absolute path)], {relative path: where its last read
    # stopped}) -> {relative path: its docs, or its Parts}; a file left out
    # (gone while read, named with a token) gets no rows
    Reader = Callable[
        [list[tuple[str, str]], Mapping[str, str]], Mapping[str, "list[Doc] | Parts"]
    ]

_BATCH = 256  # files read at once while refreshing


class Again(Exception):  # noqa: N818 (a signal, not an error)
    """Raised by ``Parts.docs``: what it read changed meanwhile; the file's
    rows are then all replaced by ``Parts.again()``."""


class Parts:
    """A big note read in parts (``gardener.recall.search``). ``docs``
    yields its docs a part at a time, in note order, and returns (as its
    StopIteration value) where the read stopped, or None: (text to keep for
    the next read of it, the 0-based line of the point: a doc of a later
    line is read again then); it raises ``Again`` to be read whole by
    ``again``. ``resumed``: the docs are those from the point the last read
    stopped at on: the file's rows from that point's first row on are
    replaced, the others kept; else all of them are."""

    def __init__(
        self,
        resumed: bool,
        docs: Generator[list[Doc], None, tuple[str, int] | None],
        again: Callable[[], list[Doc]],
    ) -> None:
        self.resumed = resumed
        self.docs = docs
        self.again = again


class Index:
    """An open recall index. Use as a context manager; see ``open_index``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.db.close()

    def refresh(
        self,
        files: Sequence[tuple[str, str]],
        present: Iterable[str],
        read: Reader,
        floor: str = "",
    ) -> None:
        """Re-read each of ``files`` whose stamp changed; drop files not in ``present``.

        ``files`` are (workspace-relative path, absolute path); ``present`` is
        every file that still exists among those the index may hold. Only
        indexed paths from ``floor`` on (and ``files``) are looked at: a plain
        recall never reads rows of notes past their TTL, so it need not check
        them. ``read`` gets the changed files in batches. A file it leaves
        out gets no rows (and is read again next time); an error it raises (MEMORY.md that does not parse) undoes
        the refresh.
        """
        present = set(present)
        stale, gone, _ = self._changes(files, present, floor)
        if not stale and not gone:
            return
        # IMMEDIATE: the write lock before reading the spans, so two recalls
        # refreshing at once never drop each other's rows
        self.db.execute("BEGIN IMMEDIATE")
        try:
            stale, gone, points = self._changes(files, present, floor)
            if stale or gone:  # rows change: no remembered listing holds now
                self._forget_listings()
            for rel in gone:
                self._drop(rel)
            # stamps before reading: a write during the read shows next time
            stamps = {rel: stamp(path, trusted=True) for rel, path in stale}
            for at in range(0, len(stale), _BATCH):  # memory follows a batch
                batch = stale[at : at + _BATCH]
                known = {rel: p for rel, _ in batch if (p := points.get(rel))}
                docs = read(batch, known)
                for rel, _ in batch:
                    got = docs.get(rel)
                    if isinstance(got, Parts):
                        self._add_parts(rel, stamps[rel], got)
                        continue
                    self._drop(rel)
                    if got is not None:  # one left out gets no row: read next time
                        self._add(rel, stamps[rel], got)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def fresh(
        self,
        files: Sequence[tuple[str, str]],
        present: Iterable[str],
        floor: str = "",
    ) -> bool:
        """True if ``refresh`` with the same arguments would change nothing:
        no file's stamp changed and no indexed path from ``floor`` on is gone."""
        stamps = {rel: held for rel, held, _ in self._indexed(files, floor)}
        if stamps.keys() - set(present):
            return False
        return all(stamps.get(rel) == stamp(path) for rel, path in files)

    def _changes(
        self, files: Sequence[tuple[str, str]], present: set[str], floor: str
    ) -> tuple[list[tuple[str, str]], set[str], dict[str, str | None]]:
        """(files whose stamp changed, indexed paths gone, path -> where its
        last read stopped)."""
        stamps: dict[str, str] = {}
        points: dict[str, str | None] = {}
        for rel, held, point in self._indexed(files, floor):
            stamps[rel] = held
            points[rel] = point
        stale = [(rel, path) for rel, path in files if stamps.get(rel) != stamp(path)]
        return stale, stamps.keys() - present, points

    def _indexed(self, files: Sequence[tuple[str, str]], floor: str) -> list[Row]:
        """(path, stamp, resume point) of each indexed path from ``floor``
        on, and of each of ``files`` below it (MEMORY.md)."""
        query = "SELECT path, stamp, resume FROM source WHERE "
        rows: list[Row] = list(self.db.execute(query + "path >= ?", (floor,)))
        for rel, _ in files:
            if rel < floor:
                rows += self.db.execute(query + "path = ?", (rel,))
        return rows

    def search(
        self,
        expression: str,
        *,
        paths_from: str | None = None,
        memory_file: str,
        limit: int | None = None,
    ) -> Iterator[Match]:
        """Docs matching the FTS5 ``expression``: best BM25 first, then newest.

        ``paths_from`` (ISO date) keeps MEMORY.md and the notes of that day on;
        ``limit`` caps the rows (SQLite then keeps only the best, not a full
        sort). Rows are read as they are consumed.
        """
        sql = (
            # a MEMORY.md row's key goes where a note row's filed key does (a
            # curated row's key is in filed_key: see rank.curated_docs); a word
            # of a curated unit's headings weighs half a word of its text
            "SELECT round(-bm25(body, 1.0, 0.5), 6) AS score, d.day,"
            " CASE WHEN d.day IS NULL THEN coalesce(d.norm_key, d.filed_key)"
            " ELSE d.filed_key END, d.superseded,"
            " d.until, d.expires, d.since, d.hit FROM body JOIN doc d"
            " ON d.id = body.rowid"
            " WHERE body MATCH ?"
        )
        args: list[object] = [expression]
        if paths_from is not None:
            sql += " AND (d.path = ? OR d.day >= ?)"
            args += [memory_file, paths_from]
        # then by file and the hit itself: ties come in one order whatever
        # order the rows were written in (a warm index and a fresh one agree)
        sql += " ORDER BY score DESC, d.since DESC, d.path, d.hit"
        if limit is not None and limit < 1 << 62:  # SQLite's integers are 64-bit
            sql += " LIMIT ?"
            args.append(limit)
        for (
            score,
            day,
            filed,
            superseded,
            until,
            expires,
            since,
            raw,
        ) in self.db.execute(sql, args):
            yield Match(score, day, filed, bool(superseded), until, expires, since, raw)

    def remember_listing(
        self, folder: str, held: str, since: str, memory_file: str, names: Sequence[str]
    ) -> None:
        """Note that a refresh just covered ``names``: every note in ``folder``
        (relative path) from ``since`` (ISO date, "" for all) on, listed when
        the folder's stamp was ``held``; with the stamps their rows hold, and
        ``memory_file``'s. While the folder keeps that stamp, ``listing`` gives
        the names without listing it, and a recall whose files still have
        those stamps knows the index is up to date without reading a row.
        Call it only after a refresh that succeeded. If a name has no rows
        (its reader left it out) nothing is remembered: it is read next time.
        """
        key = _listing_key(folder, since)
        self.db.execute("BEGIN IMMEDIATE")  # the stamps and the memo agree
        try:
            query = "SELECT path, stamp FROM source WHERE path >= ? AND path < ?"
            # "0" sorts right after "/": the rows of the folder's notes alone
            held_rows = dict(
                self.db.execute(query, (f"{folder}/{since}", f"{folder}0"))
            )
            row = self.db.execute(
                "SELECT stamp FROM source WHERE path = ?", (memory_file,)
            ).fetchone()
            stamps = [row[0] if row else None]
            stamps += [held_rows.get(f"{folder}/{name}") for name in names]
            if None in stamps:
                self.db.execute("DELETE FROM meta WHERE name = ?", (key,))
            else:
                memo = json.dumps([held, since, list(names), stamps])
                self.db.execute(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, memo)
                )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def remember_aliases(self, names: Mapping[str, Sequence[str]]) -> None:
        """Keep ``names`` (a topic's name, normalized -> its names in every
        language: ``classify.topic_aliases``) for ``aliases``, when they
        differ from those kept. The settings are in the index's signature, so
        names kept under other settings are gone with their rows."""
        memo = json.dumps({k: list(v) for k, v in sorted(names.items())},
                          ensure_ascii=False)  # fmt: skip
        row = self.db.execute(
            "SELECT value FROM meta WHERE name = 'aliases'"
        ).fetchone()
        if row is None or row[0] != memo:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('aliases', ?)", (memo,)
                )

    def aliases(self) -> dict[str, list[str]]:
        """What ``remember_aliases`` kept ({} for nothing)."""
        row = self.db.execute(
            "SELECT value FROM meta WHERE name = 'aliases'"
        ).fetchone()
        found = json.loads(row[0]) if row else {}
        return found if isinstance(found, dict) else {}

    def _forget_listings(self) -> None:
        """Drop every ``remember_listing`` memo (inside a write transaction):
        a refresh may drop rows another listing names (a recall that listed the
        folder before a note came drops that note's rows), and a memo must
        never vouch for rows that are gone. The caller remembers its own after."""
        self.db.execute("DELETE FROM meta WHERE name LIKE 'listing:%'")

    def listing(
        self, folder: str, held: str, since: str
    ) -> tuple[list[str], list[str]] | None:
        """What ``remember_listing`` kept for ``folder`` from ``since`` on, if the
        folder's stamp is still ``held`` (no note was added, removed or
        renamed since): (the notes' names, the stamps of MEMORY.md and of
        each note as their rows hold them). Else None: list the folder."""
        row = self.db.execute(
            "SELECT value FROM meta WHERE name = ?", (_listing_key(folder, since),)
        ).fetchone()
        if row is None:
            return None
        held_then, since_then, names, stamps = json.loads(row[0])
        if held_then != held or since_then != since:
            return None
        return names, stamps

    def forget(self, paths: Iterable[str]) -> None:
        """Drop the rows of ``paths`` (notes prune deleted) and merge the full-text
        index, so their words leave the file too: FTS5 keeps a deleted row's
        words in its older segments until they are merged."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self._forget_listings()
            for rel in paths:
                self._drop(rel)
            self.db.execute("INSERT INTO body(body) VALUES ('optimize')")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def filed_from_notes(self, memory_file: str, today: str) -> set[tuple[str, str]]:
        """(note path, value) of each current MEMORY.md entry that came from a
        daily note; see ``recall.filed.filed_from_notes``."""
        return filing.filed_from_notes(self.db, memory_file, today)

    def pending(
        self, memory_file: str, paths_from: str | None, now: str = "9999"
    ) -> dict[str, str]:
        """Durable keys whose newest note entry MEMORY.md has not filed yet:
        key -> that entry's ``since``; see ``recall.filed.pending``."""
        return filing.pending(self.db, memory_file, paths_from, now)

    def _drop(self, rel: str, start: int = 0) -> None:
        """Delete ``rel``'s rows (those from row id ``start`` on) and, for
        all of them, its source row."""
        # by row id: the full-text table has no path (a scan of it is ~40x slower)
        self.db.execute(
            "DELETE FROM body WHERE rowid IN"
            " (SELECT id FROM doc WHERE path = ? AND id >= ?)",
            (rel, start),
        )
        self.db.execute("DELETE FROM doc WHERE path = ? AND id >= ?", (rel, start))
        if not start:
            self.db.execute("DELETE FROM source WHERE path = ?", (rel,))

    def _add(self, rel: str, stamp: str, docs: list[Doc]) -> None:
        self._insert(rel, docs)
        self._source(rel, stamp, None, None)

    def _add_parts(self, rel: str, stamp: str, parts: Parts) -> None:
        """Replace ``rel``'s rows by what ``parts`` reads (see ``Parts``)."""
        if parts.resumed:
            row = self.db.execute(
                "SELECT resume_id FROM source WHERE path = ?", (rel,)
            ).fetchone()
            self._drop(rel, row[0] if row and row[0] else 0)
        else:
            self._drop(rel)
        first, last = 0, []  # the last part's first row id and its docs
        try:
            while True:
                docs = next(parts.docs)
                first, last = self._insert(rel, docs), docs
        except StopIteration as stop:
            end = stop.value
        except Again:
            self._drop(rel)
            first, last, end = self._insert(rel, parts.again()), [], None
        point, resume_id = None, None
        if end is not None:
            # the rows from the point's line on are read again next time: all
            # in the last part (the parts before it end above that line)
            point, index = end
            after = [i for i, d in enumerate(last) if d.hit.line > index]
            resume_id = first + (after[0] if after else len(last))
        self._source(rel, stamp, point, resume_id)

    def _insert(self, rel: str, docs: list[Doc]) -> int:
        """Add ``docs`` as ``rel``'s rows after every row there is: the first's id."""
        from gardener.recall.rank import sort_key
        from gardener.recall.terms import index_text

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
                sort_key(d.hit.since),
                json.dumps(d.hit.as_dict(), ensure_ascii=False),
            )
            for i, d in enumerate(docs)
        ]
        self.db.executemany(
            "INSERT INTO doc VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
        )
        self.db.executemany(
            "INSERT INTO body(rowid, text, context) VALUES (?, ?, ?)",
            (
                (first + i, index_text(d.hit.text), index_text(d.context))
                for i, d in enumerate(docs)
            ),
        )
        return first

    def _source(
        self, rel: str, stamp: str, point: str | None, resume_id: int | None
    ) -> None:
        """Write ``rel``'s source row: its stamp, the span of its rows, and
        where its read stopped."""
        (first, last) = self.db.execute(
            "SELECT min(id), max(id) FROM doc WHERE path = ?", (rel,)
        ).fetchone()
        if first is None:  # no rows: an empty span where the next would start
            (top,) = self.db.execute("SELECT coalesce(max(id), 0) FROM doc").fetchone()
            first, last = top + 1, top
        self.db.execute(
            "INSERT OR REPLACE INTO source VALUES (?, ?, ?, ?, ?, ?)",
            (rel, stamp, first, last, point, resume_id),
        )


def open_index(git_dir: str | None, signature: str) -> Index:
    """The index in ``git_dir/gardener/``, emptied when ``signature`` changed.

    ``signature`` names everything the rows depend on besides the files
    (settings, the gardener's version). Without a usable folder, or when the
    file is damaged and cannot be replaced, an empty in-memory index.
    """
    if git_dir is not None and os.path.isdir(git_dir):
        path = index_path(git_dir)
        for _ in range(2):
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                # owner-only, like the quarantine: it copies what the notes say
                os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
                os.chmod(path, 0o600)
                db = sqlite3.connect(path, timeout=10, isolation_level=None)
                return Index(prepare(db, signature))
            except sqlite3.DatabaseError:  # damaged or not a database: rebuild
                try:  # noqa: SIM105 (contextlib: see the imports)
                    os.unlink(path)
                except OSError:
                    pass
            except OSError:
                break
    return Index(prepare(sqlite3.connect(":memory:", isolation_level=None), signature))


def open_built(git_dir: str, signature: str) -> Index | None:
    """The index in ``git_dir/gardener/`` if it exists and was built under
    ``signature``; else None. Creates and changes nothing (a warm recall
    opens it this way, and leaves any rebuild to ``open_index``).

    Raises sqlite3.Error for a file SQLite cannot read.
    """
    path = index_path(git_dir)
    if not os.path.isfile(path):
        return None
    db = sqlite3.connect(f"file:{_quote(path)}?mode=rw", uri=True, timeout=10,
                         isolation_level=None)  # fmt: skip
    try:
        row = db.execute("SELECT value FROM meta WHERE name = 'signature'").fetchone()
    except sqlite3.Error:
        db.close()
        raise
    if row is None or row[0] != f"{SCHEMA}:{signature}":
        db.close()
        return None
    db.execute("PRAGMA secure_delete = ON")
    return Index(db)


def index_path(git_dir: str) -> str:
    """Where the index of the repository at ``git_dir`` lives."""
    return os.path.join(git_dir, "gardener", "recall.sqlite3")


def remove_index(git_dir: str) -> None:
    """Delete the index in ``git_dir/gardener/`` (a damaged one is rebuilt)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:  # noqa: SIM105 (contextlib: see the imports)
            os.unlink(index_path(git_dir) + suffix)
        except OSError:
            pass


def _quote(path: str) -> str:
    """``path`` for a SQLite URI: ``?`` and ``#`` would end the file name,
    and ``%`` starts an escape (urllib's quote costs ~4 ms to import)."""
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def _listing_key(folder: str, since: str) -> str:
    """The meta row of ``folder``'s listing: one for --all, one for the live notes."""
    return f"listing:{folder}:{'live' if since else 'all'}"
