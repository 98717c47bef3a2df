"""The recall index's tables, and the signature that says when to empty them."""

from __future__ import annotations

import sqlite3

SCHEMA = 7  # bump when the tables change: old indexes are then rebuilt
DDL = (
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT)",
    # first, last: the file's lowest and highest row id (MEMORY.md's rows are
    # all between: it is read whole); resume, resume_id: where a big note's
    # read stopped (``noteparts.Point``, JSON) and its first row from there on
    "CREATE TABLE IF NOT EXISTS source(path TEXT PRIMARY KEY, stamp TEXT,"
    " first INTEGER, last INTEGER, resume TEXT, resume_id INTEGER)",
    # day: the note's date (NULL for MEMORY.md); norm_key: a fact's key;
    # filed_key: a note entry's durable key (MEMORY.md speaks for it then)
    "CREATE TABLE IF NOT EXISTS doc(id INTEGER PRIMARY KEY, path TEXT, day TEXT,"
    " norm_key TEXT, filed_key TEXT, superseded INTEGER, until TEXT,"
    " expires TEXT, since TEXT, hit TEXT)",
    # a plain recall asks for the live notes' durable keys: by day, not a scan
    "CREATE INDEX IF NOT EXISTS doc_day ON doc(day, filed_key, since)",
    # a file's rows by path: a grown note's rows are in several runs of ids
    "CREATE INDEX IF NOT EXISTS doc_path ON doc(path)",
    # text: what the hit shows; context: a curated unit's headings (weighed
    # less, see Index.search); both as ``terms.index_text`` writes them
    "CREATE VIRTUAL TABLE IF NOT EXISTS body USING fts5(text, context,"
    " tokenize='porter unicode61 remove_diacritics 2')",
)


def prepare(db: sqlite3.Connection, signature: str) -> sqlite3.Connection:
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
            for table in ("source", "doc", "body"):  # their shape may have changed too
                db.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in DDL:
                db.execute(statement)
            db.execute("DELETE FROM meta")  # listings too: they name rows now gone
            db.execute("INSERT OR REPLACE INTO meta VALUES ('signature', ?)", (wanted,))
            db.execute("COMMIT")
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db
