"""Recall (docs/design.md, Recall): facts and note entries as hits and index docs; as-of,
lookup and history (pure). What a plain recall answers is chosen in
``gardener.recall.hits`` from the recall index (``gardener.recall.index``).

``rank`` (as-of with a query) orders by BM25 (SQLite FTS5, in memory) and
then recency.
Superseded, corrected, retired and expired entries never answer a plain
query; ``as_of`` answers with what was valid at a time instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from gardener.formats.entryline import no_value, too_long
from gardener.formats.retired import entry_text
from gardener.model.config import multi_valued
from gardener.model.facts import normalize_key
from gardener.model.validtime import (
    day_span,
    entry_since,
    format_instant,
    is_current,
    parse_instant,
)
from gardener.neverstore.instructions import reads_as_instruction
from gardener.planning.classify import classify
from gardener.recall.curated import curated_hits
from gardener.recall.hits import Hit
from gardener.recall.terms import index_text, match_expression

if TYPE_CHECKING:
    from gardener.model.config import Config
    from gardener.model.facts import Entry, Fact, Memory


# a status of their own; "ended": a removal ended it (gardener.planning.ending)
_REASONS = ("corrected", "retired", "expired", "ended")


def fact_hit(
    fact: Fact, memory_file: str, score: float = 0.0, status: str | None = None
) -> Hit:
    """A MEMORY.md fact as a Hit."""
    label = f"{fact.key}: {fact.value}" if fact.key else fact.value
    if fact.tail:  # the lines under it are its text too (its nested items)
        label = " ".join([label, *(line.strip() for line in fact.tail)])
    if status is None:
        reason = fact.get("reason")
        status = (
            reason
            if reason in _REASONS
            else ("superseded" if fact.superseded else "current")
        )
    return Hit(
        fact.key,
        fact.value,
        label,
        fact.kind,
        fact.since,
        fact.get("until"),
        status,
        score,
        memory_file,
        fact.line,
        fact.id,
        fact.get("from"),
    )


def entry_hit(entry: Entry, score: float = 0.0, zone: tzinfo | None = None) -> Hit:
    """A daily-note entry as a Hit."""
    text = entry_text(entry.text, entry.nested)
    return Hit(
        entry.key,
        entry.value,
        text,
        entry.kind,
        entry_since(entry, zone),
        None,
        "note",
        score,
        entry.path,
        entry.line,
    )


@dataclass(frozen=True)
class Doc:
    """One searchable line: a fact of MEMORY.md or an entry of a daily note.

    ``hit`` is what recall returns for it (score 0); ``day`` is the note's
    date (ISO) or None for MEMORY.md; ``until``/``expires`` are valid-time
    strings, kept so currency is judged at query time.
    """

    hit: Hit
    day: str | None = None
    norm_key: str | None = None
    filed_key: str | None = None
    superseded: bool = False
    until: str | None = None
    expires: str | None = None
    context: str = ""  # searched with a lower weight, never shown: curated headings


def sort_key(since: str | None) -> str:
    """``since`` as text that sorts by time (an unreadable one sorts first)."""
    try:
        return format_instant(parse_instant(since or ""))
    except ValueError:
        return ""


# the user in the languages notes are written in: a fact keyed ``user / ...``
# answers "Nutzer", "用户", "ユーザー" too (searched as context, never shown)
_USER_WORDS = (
    "user Nutzer Nutzerin Benutzer utilisateur utilisatrice usuario usuaria "
    "пользователь пользователя 用户 用戶 ユーザー"
)


def fact_docs(facts: Iterable[Fact], memory_file: str) -> list[Doc]:
    """Every fact of MEMORY.md, whatever its status, as index docs."""
    return [
        Doc(
            fact_hit(f, memory_file),
            norm_key=f.norm_key if f.key else None,
            superseded=f.superseded,
            until=f.get("until"),
            expires=f.get("expires"),
            context=_USER_WORDS if f.key and _about_user(f.norm_key) else "",
        )
        for f in facts
    ]


def _about_user(norm_key: str | None) -> bool:
    return norm_key is not None and (
        norm_key == "user" or norm_key.startswith("user /")
    )


def curated_docs(memory: Memory, memory_file: str) -> list[Doc]:
    """MEMORY.md's curated text (outside the managed block) as index docs:
    one per unit (``gardener.recall.curated``), status ``curated``, its
    headings as context. A unit's key goes in ``filed_key``, not
    ``norm_key``: the queries over what promote has filed read a MEMORY.md
    row's ``norm_key`` and a note row's ``filed_key``, so they never see it,
    and a recall still orders it after the other hits of its key."""
    return [
        Doc(hit, filed_key=normalize_key(hit.key) if hit.key else None, context=context)
        for hit, context in curated_hits(memory, memory_file)
    ]


def note_docs(entries: Iterable[Entry], config: Config) -> list[Doc]:
    """A daily note's entries as index docs, but for those that read like an
    instruction to the model (``instructions.reads_as_instruction``); ``filed_key`` is set for a durable
    keyed fact that has one value at a time (not an event, not a multi-valued
    attribute), whose key MEMORY.md may already speak for."""
    docs = []
    for entry in entries:
        if reads_as_instruction("\n".join([entry.text, *entry.nested])):
            # recall answers into a prompt: an order to the model is held for
            # review by promote, and answers from MEMORY.md once approved
            continue
        c = classify(entry, config)
        filed = None
        if (
            # a removal files no value: it answers as itself while its note lives
            not c.ends
            and c.durable
            and c.key
            and c.kind != "event"
            and not multi_valued(c.key, config)
            # what promote refuses to file is no new value of the key
            and not (no_value(c.value) and not entry.nested)
            and not too_long(entry.value)
        ):
            filed = normalize_key(c.key)
        hit = entry_hit(entry, zone=config.zone)
        docs.append(
            Doc(hit, day=entry.day.isoformat(), filed_key=filed, expires=entry.expires)
        )
    return docs


def rank(query: str, hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` matching any word of ``query``, best BM25 first, then newest first."""
    expression = match_expression(query)
    if expression is None:
        return []
    db = sqlite3.connect(":memory:")
    try:
        db.execute(
            "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='unicode61 remove_diacritics 2')"
        )
        db.executemany(
            "INSERT INTO doc(rowid, body) VALUES (?, ?)",
            ((i, index_text(h.text)) for i, h in enumerate(hits)),
        )
        rows = db.execute(
            "SELECT rowid, -bm25(doc) FROM doc WHERE doc MATCH ?", (expression,)
        ).fetchall()
    finally:
        db.close()
    scored = [(round(score, 6), hits[rowid]) for rowid, score in rows]
    scored.sort(key=lambda p: (-p[0], _recency(p[1])))
    return [h.scored(s) for s, h in scored]


def _recency(hit: Hit) -> float:
    try:
        return -parse_instant(hit.since or "1970-01-01").timestamp()
    except ValueError:
        return 0.0


def _status_then(fact: Fact, end: datetime) -> str:
    """``current`` if ``fact`` (valid some time before ``end``) still held at
    ``end``, else how it stopped (``ended`` by a removal, or ``superseded``)."""
    try:
        ends = [parse_instant(v) for v in (fact.get("until"), fact.get("expires")) if v]
    except ValueError:
        return "current"
    if not ends or min(ends) >= end:
        return "current"
    return "ended" if fact.get("reason") == "ended" else "superseded"


def valid_at(fact: Fact, start: datetime, end: datetime) -> bool:
    """True if the fact's validity ``[since, min(until, expires))`` meets ``[start, end]``.

    ``end == start`` asks about one instant. Corrected values were never valid.
    """
    if fact.get("reason") == "corrected" or not fact.since:
        return False
    try:
        since = parse_instant(fact.since)
        ends = [parse_instant(v) for v in (fact.get("until"), fact.get("expires")) if v]
    except ValueError:
        return False
    stop = min(ends) if ends else None
    if end == start:
        return since <= start and (stop is None or start < stop)
    return since < end and (stop is None or start < stop)


def as_of(
    when: str,
    facts: Iterable[Fact],
    memory_file: str = "MEMORY.md",
    key: str | None = None,
    query: str | None = None,
) -> list[Hit]:
    """Facts valid at ``when`` (a date means that whole day), newest first,
    each with its status then: ``current`` (it held then, or at the end of
    that day), or ``superseded`` / ``ended`` for a value that stopped during
    the day asked about (it held that morning, another value that evening).

    Raises ValueError if ``when`` is not a date or date-time.
    """
    start, end = day_span(when)
    chosen = [f for f in facts if valid_at(f, start, end)]
    if key is not None:
        nk = normalize_key(key)
        chosen = [f for f in chosen if f.norm_key == nk]
    # the status is the fact's at ``when``, whatever it is now
    hits = [fact_hit(f, memory_file, status=_status_then(f, end)) for f in chosen]
    if query:
        return rank(query, hits)
    return sorted(hits, key=_recency)


def lookup(
    key: str,
    facts: Iterable[Fact],
    now: datetime,
    memory_file: str = "MEMORY.md",
    curated: Iterable[Hit] = (),
) -> list[Hit]:
    """The current value(s) of one key, compared as keys are (case, space,
    punctuation, Unicode, a leading article; a key with no match is tried
    with its scope slash read as a space); then ``curated`` hits
    (``gardener.recall.curated``) of the key, in file order: the managed
    value is the one promote keeps current. A key whose last value a removal
    ended has none: the value(s) it ended then answer, status ``ended``,
    their ``until`` saying when."""
    nk = normalize_key(key)
    today = format_instant(now)
    facts = list(facts)
    mine = [f for f in facts if f.norm_key == nk]
    if not mine:
        # "frontend host" asks for ``Frontend / host``: a scope written as words
        flat = nk.replace(" / ", " ")
        mine = [f for f in facts if (f.norm_key or "").replace(" / ", " ") == flat]
        if mine:
            nk = mine[0].norm_key or nk
    managed = [fact_hit(f, memory_file) for f in mine if is_current(f, today)]
    if not managed:
        timeline = [f for f in mine if f.since and f.get("reason") != "corrected"]
        last = max((sort_key(f.until) for f in timeline if f.until), default=None)
        managed = [
            fact_hit(f, memory_file)
            for f in timeline
            if f.get("reason") == "ended" and f.until and sort_key(f.until) == last
        ]
    return managed + [h for h in curated if h.key and normalize_key(h.key) == nk]


def history(
    key: str,
    facts: Iterable[Fact],
    memory_file: str = "MEMORY.md",
    pruned: Iterable[Fact] = (),
) -> list[Hit]:
    """Every value a key has had, oldest first (for ``why``): those ``facts``
    (MEMORY.md's) hold, and those prune deleted (``pruned``: facts read back
    from git history). A pruned value's status is ``pruned``, or its reason
    and ``pruned`` (``corrected, pruned``: it never held). One MEMORY.md still
    holds (by id, or by value and since) and a repeat are left out."""
    nk = normalize_key(key)
    facts = list(facts)
    seen = {identity(f) for f in facts}
    hits = [fact_hit(f, memory_file) for f in facts if f.norm_key == nk]
    for fact in pruned:
        name = identity(fact)
        if fact.norm_key != nk or name in seen:
            continue
        seen.add(name)
        reason = fact.get("reason")
        status = f"{reason}, pruned" if reason in _REASONS else "pruned"
        hits.append(fact_hit(fact, memory_file, status=status))
    return sorted(hits, key=lambda h: -_recency(h))


def identity(entry: Fact | Hit) -> str:
    """What names one MEMORY.md entry across rewrites: its id, else its value
    and since (a hand-written entry has no id)."""
    return entry.id or f"{entry.value}\x00{entry.since or ''}"
