"""What MEMORY.md filed from the daily notes, and what it has not filed yet:
queries over the recall index's rows (``Index.filed_from_notes``, ``Index.pending``).

MEMORY.md's rows are consecutive in ``doc`` (``source.first`` to
``source.last``: it is always read whole); a note entry's ``filed_key`` is the durable key MEMORY.md
would hold it under.
"""

from __future__ import annotations

import sqlite3

from gardener.model.validtime import current_at
from gardener.recall.hits import plain_value


def filed_from_notes(
    db: sqlite3.Connection, memory_file: str, today: str
) -> set[tuple[str, str]]:
    """(note path, value) of each current MEMORY.md entry that came from
    a daily note (its ``from``); the value compared as ``hits`` compares
    values (case and runs of spaces ignored). A note line without a key,
    or of a key with many values, answers as that entry. ``today`` is a
    valid-time string (local time). Read by SQLite's JSON functions: a
    plain recall runs it over a year of facts."""
    rows = db.execute(
        "SELECT d.until, d.expires, json_extract(d.hit, '$.origin'),"
        " json_extract(d.hit, '$.value') FROM source s JOIN doc d"
        " ON d.id BETWEEN s.first AND s.last WHERE s.path = ?"
        " AND NOT d.superseded AND json_extract(d.hit, '$.origin') IS NOT NULL",
        (memory_file,),
    )
    return {
        (origin, plain_value(value))
        for until, expires, origin, value in rows
        if current_at(False, until, expires, today)
    }


def pending(
    db: sqlite3.Connection, memory_file: str, paths_from: str | None, now: str = "9999"
) -> dict[str, str]:
    """Durable keys whose newest note entry (of the notes dated
    ``paths_from`` on, or all) is newer than every value MEMORY.md holds
    for the key, whatever its status, and than the end of each: key ->
    that entry's ``since`` (as ``gardener.recall.rank.sort_key`` writes it). Promote has
    not filed it yet, so it is the key's latest word; older note entries
    of a key are not. A note entry of the same minute as what MEMORY.md
    holds is pending if its value is not one MEMORY.md holds for the key
    (an agent may note twice a minute). ``now`` (as ``since`` is written):
    entries dated later are left out."""
    # MEMORY.md's rows by their span: a file's rows are consecutive
    filed = dict(
        db.execute(
            # a value's until counts too: a correction's note is filed when
            # the wrong value ends, though the right one keeps its since
            "SELECT d.norm_key, max(max(d.since, coalesce(d.until, '')))"
            " FROM source s JOIN doc d"
            " ON d.id BETWEEN s.first AND s.last"
            " WHERE s.path = ? AND d.norm_key IS NOT NULL GROUP BY d.norm_key",
            (memory_file,),
        )
    )
    newest = db.execute(
        # an entry dated ahead of ``now`` is no word yet: it waits (promote)
        "SELECT filed_key, max(since) FROM doc WHERE day >= ? AND since <= ?"
        " AND filed_key IS NOT NULL GROUP BY filed_key",
        (paths_from or "", now),
    )
    out: dict[str, str] = {}
    for key, since in newest:
        held = filed.get(key, "")
        if since > held:
            # a repeat of the key's current value is no new word (promote
            # rejects it as the same value): the current entry answers
            if not _repeats_current(db, memory_file, paths_from, key, since):
                out[key] = since
        elif since == held and _unfiled_value(db, memory_file, paths_from, key, since):
            out[key] = since
    return out


def _more_noted_than_filed(
    db: sqlite3.Connection,
    memory_file: str,
    paths_from: str | None,
    key: str,
    since: str,
) -> bool:
    """Whether the notes hold more entries of ``key`` at ``since`` than
    MEMORY.md holds values of it with that ``since``: an agent noted twice
    in a minute and promote filed one. Else the one entry was filed, and
    a value that differs is a person's edit of MEMORY.md (edit freely)."""
    (noted,) = db.execute(
        "SELECT count(*) FROM doc WHERE day >= ? AND filed_key = ? AND since = ?",
        (paths_from or "", key, since),
    ).fetchone()
    (filed,) = db.execute(
        "SELECT count(*) FROM source s JOIN doc d ON d.id BETWEEN s.first AND s.last"
        " WHERE s.path = ? AND d.norm_key = ? AND d.since = ?",
        (memory_file, key, since),
    ).fetchone()
    return bool(noted > filed)


def _noted_values(
    db: sqlite3.Connection, paths_from: str | None, key: str, since: str
) -> set[str]:
    """The values (case aside) of the note entries of ``key`` at ``since``."""
    return {
        str(v).casefold().strip()
        for (v,) in db.execute(
            "SELECT json_extract(hit, '$.value') FROM doc WHERE day >= ?"
            " AND filed_key = ? AND since = ?",
            (paths_from or "", key, since),
        )
    }


def _repeats_current(
    db: sqlite3.Connection,
    memory_file: str,
    paths_from: str | None,
    key: str,
    since: str,
) -> bool:
    """Whether every note entry of ``key`` at ``since`` says what MEMORY.md
    holds as the key's current value (compared as text, case aside)."""
    current = {
        str(v).casefold().strip()
        for (v,) in db.execute(
            "SELECT json_extract(d.hit, '$.value') FROM source s JOIN doc d"
            " ON d.id BETWEEN s.first AND s.last WHERE s.path = ?"
            " AND d.norm_key = ? AND d.superseded = 0 AND d.until IS NULL",
            (memory_file, key),
        )
    }
    return bool(current) and _noted_values(db, paths_from, key, since) <= current


def _unfiled_value(
    db: sqlite3.Connection,
    memory_file: str,
    paths_from: str | None,
    key: str,
    since: str,
) -> bool:
    """Whether a note entry of ``key`` at ``since`` has a value MEMORY.md
    does not hold for the key (compared as text, case aside), and is not
    one MEMORY.md filed and a person then edited there."""
    if not _more_noted_than_filed(db, memory_file, paths_from, key, since):
        return False
    held = {
        str(v).casefold().strip()
        for (v,) in db.execute(
            "SELECT json_extract(d.hit, '$.value') FROM source s JOIN doc d"
            " ON d.id BETWEEN s.first AND s.last WHERE s.path = ? AND d.norm_key = ?",
            (memory_file, key),
        )
    }
    return not _noted_values(db, paths_from, key, since) <= held
