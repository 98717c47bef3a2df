"""Recall's search (see docs/design.md): keep the recall index fresh, then ask it.

The index (``gardener.recall.index``) holds MEMORY.md's facts and the notes'
entries. Before a query, the files the query may answer from are checked by
their stamp; the changed ones are read, their lines that no commit holds
scanned for secrets, and their rows replaced. ``gardener.verbs.recall`` calls
``search`` for plain and ``--all`` queries.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from datetime import datetime, timedelta

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import inside, note_date, note_names, odd_name_warning
from gardener.model.validtime import format_instant, local_now
from gardener.recall.hits import pick
from gardener.recall.index import (
    Again,
    Index,
    Parts,
    open_built,
    open_index,
    remove_index,
)
from gardener.recall.stamps import folder_stamp, stamp
from gardener.recall.terms import match_expression
from gardener.store import settings as rulecache
from gardener.store.retired import read as read_retired

# a warm recall imports this module: no typing, pathlib or dataclasses at run time
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Mapping

    from gardener.model.config import Config
    from gardener.recall.hits import Hit
    from gardener.recall.rank import Doc

# the modules that turn files into the index's rows: a new version of one
# empties the index (see ``signature``)
_ROW_MODULES = (
    "recall/hits",
    "recall/rank",
    "recall/search",
    "recall/index",
    "recall/filed",
    "recall/stamps",
    "recall/schema",
    "recall/terms",
    "recall/curated",
    "formats/dailynote",
    "store/noteparts",  # a big note's rows, and where its read stopped
    "formats/memoryfile",
    "planning/classify",
    "planning/labels",  # ... and what it reads entries by
    "planning/headings",
    "planning/keying",
    "planning/frames",
    "lexicon/match",
    "lexicon/words",
    "lexicon/en",
    "lexicon/zh",
    "lexicon/ja",
    "lexicon/de",
    "lexicon/fr",
    "lexicon/es",
    "lexicon/ru",
    "planning/ending",  # what classify reads as a removal
    "planning/values",
    "model/facts",
    "model/validtime",
    "neverstore/redact",  # the never-store rules redact what the rows hold
    "neverstore/engine",
    "neverstore/passes",
    "neverstore/keyblocks",
    "neverstore/rules",
    "neverstore/labels",
    "neverstore/weaklabels",
    "neverstore/codes",
    "neverstore/tokens",
    "neverstore/personal",
    "neverstore/values",
    "neverstore/regex",
    "neverstore/detectors",
    "model/hit",
    "model/kinds",
    "model/config",  # which keys are multi-valued
    "neverstore/instructions",  # which note entries are instructions
    "files/layout",  # which files are notes
    "formats/retired",  # the text a note entry shows
)


_FOLDER_FLAGS = (
    os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
)


def search(
    root: str,
    config: Config,
    query: str,
    now: datetime,
    limit: int | None,
    everything: bool,
    warnings: list[str] | None = None,
) -> list[Hit]:
    """Hits for ``query`` from the recall index, refreshed first for the files
    it needs: MEMORY.md and the live notes, or every note with ``everything``.
    A note skipped for its name (not valid UTF-8) is added to ``warnings``.

    ``root`` is the workspace's resolved path, ``config`` its settings; ``now`` is local time in the workspace's timezone (naive); ``limit`` caps
    the hits (None: all). Raises ParseError if MEMORY.md does not parse; a
    damaged index is rebuilt, and an index in memory answers if it cannot be.
    """
    from gardener.model.config import as_values
    from gardener.planning.classify import topic_aliases

    if match_expression(query) is None:
        return []
    scope = Scope(root, config.memory_file, config.notes_dir,
                   config.note_ttl_days, now, everything)  # fmt: skip
    if warnings is not None:
        warnings += [odd_name_warning(config.notes_dir, n) for n in scope.odd]
    git_dir = os.path.join(scope.root, ".git")
    hits: list[Hit] = []
    # a damaged index (SQLite errors, rows that do not decode) is deleted and
    # built again; if that fails too, an index in memory answers this once
    for where, fresh in ((git_dir, False), (git_dir, True), (None, False)):
        if fresh:
            remove_index(git_dir)
        try:
            with open_index(where, signature(as_values(config))) as index:
                read = functools.partial(read_docs, root, config, {})
                index.refresh(scope.files, scope.present, read, scope.floor)
                scope.remember(index)
                index.remember_aliases(topic_aliases(config))
                hits = scope.answer(index, query, limit)
            break
        except (sqlite3.Error, ValueError, TypeError, KeyError):
            if where is None:
                raise
    return hits


def search_fresh(
    root: str, query: str, limit: int | None, everything: bool
) -> list[Hit] | None:
    """What ``Workspace(root).recall(query, limit=limit, everything=everything)``
    answers, if that needs no file read: the index was built under the cached
    settings and no file it covers changed since. Else None, and ``Workspace``
    must answer (it reads what changed, and raises what is wrong).

    ``root`` is the workspace's real path. The clock is env ``GARDENER_NOW``
    or the real one, in the rules' timezone. This path exists for speed: a
    warm ``gardener recall`` runs it without loading the rest of the gardener.
    """
    values = rulecache.read(root, rulecache.cache_key(rulecache.rules_bytes(root)))
    if values is None:
        return None
    try:
        file, folder = str(values["memory_file"]), str(values["notes_dir"])
        ttl, zone = int(values["note_ttl_days"]), str(values["timezone"])  # type: ignore[call-overload]
        if not (inside(root, file) and inside(root, folder)):
            return None  # Workspace says what is wrong with them
        now = local_now(zone, os.environ.get("GARDENER_NOW"))
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    if match_expression(query) is None:
        return []
    try:
        index = open_built(os.path.join(root, ".git"), signature(values))
        if index is None:
            return None
        with index:
            # one read transaction: the check and the answer see the same rows
            # even if another recall refreshes the index meanwhile
            index.db.execute("BEGIN")
            scope = Scope(root, file, folder, ttl, now, everything, index)
            if scope.odd:
                return None  # Workspace's recall warns about them
            known = scope.unchanged()
            if not known and not index.fresh(scope.files, scope.present, scope.floor):
                return None
            hits = scope.answer(index, query, limit)
            index.db.execute("COMMIT")
            if not known:  # the rows match the files: remember their stamps
                try:
                    index.db.execute("PRAGMA busy_timeout = 20")
                    scope.remember(index)
                except sqlite3.Error:
                    pass  # busy: it can wait for next time
            return hits
    except (sqlite3.Error, ValueError, TypeError, KeyError):
        return None  # damaged: Workspace rebuilds it


def forget_files(root: str, values: Mapping[str, object], paths: Iterable[str]) -> None:
    """Take ``paths`` (notes prune deleted) out of the recall index of the
    workspace at ``root``, their words included. ``values`` are the settings
    (``gardener.model.config.as_values``). An index built under other settings, or one that
    cannot be read, is deleted instead: the next recall builds it again.
    """
    git_dir = os.path.join(root, ".git")
    try:
        index = open_built(git_dir, signature(values))
        if index is None:
            remove_index(git_dir)  # none, or rows under other settings
            return
        with index:
            index.forget(paths)
    except sqlite3.Error:
        remove_index(git_dir)


class Scope:
    """The files a recall answers from: MEMORY.md and the notes dated from
    the TTL's start (``since``, ISO), or every note with ``everything``."""

    def __init__(
        self, root: str, memory_file: str, notes_dir: str, ttl_days: int,
        now: datetime, everything: bool, index: Index | None = None,
    ) -> None:  # fmt: skip
        """``index``: take the notes' names from its memo while the folder is
        as it was (``Index.listing``); else the folder is listed."""
        self.root = root
        self.memory_file = memory_file
        self.notes_dir = notes_dir
        self.today = format_instant(now)
        self.everything = everything
        live_from = now.date() - timedelta(days=ttl_days)
        self.since = None if everything else live_from.isoformat()
        # the folder's stamp before listing it: a change after shows in it
        self.held = folder_stamp(os.path.join(root, notes_dir))
        self.memo = None  # (names, stamps) remembered for the folder as it is
        self.odd: list[str] = []  # note names that are not valid UTF-8
        if index is not None and self.held:
            self.memo = index.listing(notes_dir, self.held, self.since or "")
        if self.memo is not None:
            self.names: list[str] = self.memo[0]
        else:
            links: list[str] = []
            self.names = note_names(
                root, notes_dir, self.since or "", links=links, odd=self.odd
            )
            # a link's target may change with the folder as it was; an odd
            # name is warned about on every recall until it is renamed
            if links or self.odd:
                self.held = ""
        self.floor = f"{notes_dir}/{self.since or ''}"

    @functools.cached_property
    def files(self) -> list[tuple[str, str]]:
        """(workspace-relative path, absolute path): MEMORY.md, then the notes."""
        notes_dir = self.notes_dir
        base = f"{self.root}{os.sep}{notes_dir}{os.sep}"  # strings: 3,000 Paths cost ~30 ms
        files = [(self.memory_file, os.path.join(self.root, self.memory_file))]
        return files + [(f"{notes_dir}/{n}", base + n) for n in self.names]

    @functools.cached_property
    def present(self) -> set[str]:
        """The files the index may hold rows of from the floor on (and MEMORY.md):
        a row stays only for a readable note, so one replaced by a folder, a
        dangling link or a deleted file loses its rows."""
        return {rel for rel, _ in self.files}

    def unchanged(self) -> bool:
        """True if the memo's stamps still hold for MEMORY.md and every note:
        the index is up to date for this scope without reading a row."""
        if self.memo is None:
            return False
        names, stamps = self.memo
        try:  # the folder is looked up once, not once per note
            fd = os.open(os.path.join(self.root, self.notes_dir), _FOLDER_FLAGS)
        except OSError:
            return False
        try:
            now = [stamp(os.path.join(self.root, self.memory_file))]
            now += [stamp(name, fd) for name in names]
        finally:
            os.close(fd)
        return now == stamps

    def remember(self, index: Index) -> None:
        """After a refresh: the rows now hold every note listed (see ``Scope``)."""
        if self.held:
            index.remember_listing(self.notes_dir, self.held, self.since or "",
                                   self.memory_file, self.names)  # fmt: skip

    def answer(self, index: Index, query: str, limit: int | None) -> list[Hit]:
        """The hits for ``query`` from an index that is up to date: any of its
        words, or another language's name of a topic it names (the index's
        ``aliases``)."""
        expression = match_expression(query, index.aliases())
        if expression is None:
            return []
        # --all keeps every match: which note entries are pending is moot
        pending = (
            {}
            if self.everything
            else index.pending(self.memory_file, self.since, self.today)
        )
        found = index.search(
            expression,
            paths_from=self.since,
            memory_file=self.memory_file,
            # every match is kept with --all: the limit can go to SQL
            limit=limit if self.everything else None,
        )
        retired = read_retired(self.root)  # forget's note entries: left out
        # note lines promote filed answer as their MEMORY.md entry
        filed = (
            ()
            if self.everything
            else index.filed_from_notes(self.memory_file, self.today)
        )
        return pick(found, self.today, pending, limit, self.everything, retired, filed)


def signature(values: Mapping[str, object]) -> str:
    """What the index's rows depend on besides the files: the settings
    (``gardener.model.config.as_values``) and the version of the code that turns files into
    rows, by the stat of its modules."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamps = [os.stat(os.path.join(here, f"{m}.py")) for m in _ROW_MODULES]
    # derived for note only (gardener.store.settings): not a setting of its own
    values = {k: v for k, v in values.items() if k != "note_headings"}
    return rulecache.canonical(values) + "".join(
        f"|{s.st_mtime_ns}:{s.st_size}" for s in stamps
    )


def read_docs(
    root: str,
    config: Config,
    git: dict[str, set[str]],
    files: list[tuple[str, str]],
    known: Mapping[str, str] | None = None,
) -> dict[str, list[Doc] | Parts]:
    """The recall docs of ``files`` (the index's reader) in the workspace at
    ``root``: MEMORY.md's facts or a note's entries, per workspace-relative path. ``git`` keeps git's lists
    of changed and tracked files from one batch of a refresh to the next.
    A note of ``noteparts.BIG`` bytes or more is read in parts (``Parts``),
    from where its last read stopped (``known``: path -> that point's text)
    if it only grew since.

    What reached disk without ``note`` may hold a secret that no record has
    redacted yet, and recall answers into a prompt (the index is a copy). A
    file is taken as scanned only if git tracks it, sees it unchanged, and
    it did not change while it was read; of any other file, the lines no
    commit holds are scanned (``redact.unscanned``; a year of MEMORY.md costs
    ~0.3 s to scan whole), or all of it if no commit holds it (untracked,
    ignored, behind a symlink). A file named with a token is left out (no
    rows) until record renames it.
    """
    from gardener.git.repo import Repo
    from gardener.neverstore import (
        redact,  # only when a file changed: a warm recall needs neither
    )

    wanted = [
        (rel, where)
        for rel, where in files
        if not redact.find(os.path.basename(where), config.never_store, config.allow)
    ]
    # stamps before asking git: a write after git's answer shows in them
    before = {rel: stamp(where) for rel, where in wanted}
    committed: dict[str, str | None] = {}
    try:
        with Repo.open(root) as repo:
            if not git:
                owned = [config.memory_file, config.notes_dir]
                git["changed"] = set(repo.changed(owned))
                git["tracked"] = repo.tracked(owned)
            dirty = {
                rel
                for rel, where in wanted
                if rel in git["changed"]
                or rel not in git["tracked"]
                or os.path.islink(where)  # git sees the link, not what it points to
            }
            committed = repo.committed_texts(sorted(dirty))
    except GardenerError:
        dirty = {rel for rel, _ in wanted}  # no git answer: scan them all
    docs: dict[str, list[Doc] | Parts] = {}
    for rel, where in wanted:
        try:
            if rel != config.memory_file and _big(where):
                docs[rel] = _note_parts(config, rel, where, rel in dirty,
                                        committed.get(rel), before[rel],
                                        (known or {}).get(rel))  # fmt: skip
                continue
            docs[rel] = _file_docs(config, rel, where, rel in dirty, committed.get(rel),
                                   before[rel])  # fmt: skip
        except FileNotFoundError:
            continue  # gone meanwhile: no rows, read again next time
    return docs


def _big(where: str) -> bool:
    """Whether the file at ``where`` is a note to read in parts."""
    from gardener.store.noteparts import BIG

    try:
        return os.stat(where).st_size >= BIG
    except OSError:
        return False


def _note_parts(
    config: Config,
    rel: str,
    where: str,
    dirty: bool,
    committed: str | None,
    before: str,
    known: str | None,
) -> list[Doc] | Parts:
    """A big note's docs as ``Parts`` (see ``read_docs``), or as a list when
    it is read whole: it holds a secret no commit holds (the whole note is
    redacted then, as ``_file_docs`` does), or is not a dated note."""
    from gardener.files.read import read_text
    from gardener.neverstore import redact
    from gardener.recall.rank import note_docs
    from gardener.store import noteparts

    def whole() -> list[Doc]:
        return _file_docs(config, rel, where, dirty, committed, before)

    day = note_date(os.path.basename(where))
    if day is None:
        return []
    if dirty:  # the lines no commit holds are scanned first, as _file_docs does
        try:
            text = read_text(where)
        except ParseError:
            return []
        fresh = redact.unscanned(text, committed)
        del text
        if fresh and redact.find(fresh, config.never_store, config.allow):
            return whole()
    point = noteparts.Point.loads(known)
    try:
        reading = noteparts.start(rel, day, where, point)
    except ValueError:  # not a plain file: as the whole read says
        return whole()

    def docs() -> Generator[list[Doc], None, tuple[str, int] | None]:
        parts = reading.parts
        while True:
            try:
                part = next(parts)
            except StopIteration as stop:
                end = stop.value
                break
            except noteparts.NotParts:
                raise Again from None
            yield note_docs(part, config)
        if stamp(where) != before:  # written while read: read whole, scanned
            raise Again
        return end.dumps(), end.index

    return Parts(reading.resumed, docs(), whole)


def _file_docs(
    config: Config,
    rel: str,
    where: str,
    dirty: bool,
    committed: str | None,
    before: str,
) -> list[Doc]:
    """One file's docs (``where``: its path). ``dirty``: git does not hold it
    as it is (``committed``: its text at HEAD); ``before``: its stamp before
    git was asked."""
    from pathlib import Path

    from gardener.files.read import read_text
    from gardener.formats.dailynote import parse_note
    from gardener.formats.memoryfile import parse_memory
    from gardener.neverstore import redact
    from gardener.recall.rank import curated_docs, fact_docs, note_docs

    path = Path(where)

    def clean(text: str) -> str:
        if dirty or stamp(where) != before:  # changed after git answered: all of it
            fresh = redact.unscanned(text, committed if dirty else None)
            if fresh and redact.find(fresh, config.never_store, config.allow):
                return redact.redact(text, config.never_store, config.allow)[0]
        return text

    if rel == config.memory_file:
        if not path.exists():
            return []
        # unreadable, it is an error (ParseError, file and line), as without
        # the index: recall must not answer as if MEMORY.md were empty
        memory = parse_memory(clean(read_text(path)), rel)
        return fact_docs(memory.facts, rel) + curated_docs(memory, rel)
    day = note_date(path.name)
    try:
        text = clean(read_text(path))
    except ParseError:  # not UTF-8: `check` reports it; recall goes on
        return []
    return note_docs(parse_note(rel, day, text).entries, config) if day else []
