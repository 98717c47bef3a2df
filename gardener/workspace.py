"""The gardener's verbs as a Python API: ``Workspace(root).promote()`` and friends.

Each method enters a ``Session`` (the workspace lock, the repository, the
clock) and runs one verb of ``gardener.verbs`` in it. Verbs return result
values and never print; the CLI and other adapters decide how to show them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.files.lock import workspace_lock
from gardener.model.config import Config
from gardener.store import settings as configuration
from gardener.verbs.clock import Clock

# Each method imports its verb's module when called: a command loads only
# the verb it runs (the planners and history reads cost tens of ms each, and
# a note or recall the fast entry could not answer comes here).
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from gardener.model.facts import Memory, Note, Problem
    from gardener.planning.judging import Judgment
    from gardener.recall.hits import Hit
    from gardener.verbs.judge import DecideResult, Review
    from gardener.verbs.note import NoteResult
    from gardener.verbs.purge import PurgeResult
    from gardener.verbs.results import (
        ForgetResult,
        InitResult,
        PromoteResult,
        PruneResult,
        RecordResult,
        WhyRecord,
    )
    from gardener.verbs.session import Session
    from gardener.verbs.show import ShowResult
    from gardener.verbs.sync import SyncResult


@dataclass
class Workspace:
    """A gardener workspace: a folder that is the root of a git repository.

    ``now`` fixes the clock (naive local time in the rules' timezone); by
    default the env ``GARDENER_NOW`` (ISO 8601) or the real clock is used.
    """

    root: Path
    now_override: str | None = None
    _config: Config | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()

    # -- reading ---------------------------------------------------------------
    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = configuration.load(self.root)
        return self._config

    @property
    def _clock(self) -> Clock:
        """The workspace's clock (see ``gardener.verbs.session.Clock``)."""
        return Clock(self.config.timezone, self.now_override)

    def now(self) -> datetime:
        """Local wall-clock time in the workspace timezone (naive)."""
        return self._clock.now()

    @property
    def memory_path(self) -> Path:
        return self.root / self.config.memory_file

    def read_memory(self) -> Memory:
        """MEMORY.md parsed; a new empty one if the file does not exist."""
        from gardener.verbs import reading

        return reading.read_memory(self.root, self.config)

    def read_notes(
        self, since: date | None = None, *, unless: frozenset[str] = frozenset()
    ) -> tuple[list[Note], list[Problem]]:
        """Every daily note (from ``since`` on, if given), and the files that
        could not be read (see ``gardener.verbs.reading.read_notes``)."""
        from gardener.verbs import reading

        return reading.read_notes(self.root, self.config, since, unless=unless)

    def read_ledger(self) -> frozenset[str]:
        """Every mark of the ledger (``gardener.store.ledger``; see
        ``gardener.model.marks.fingerprints``)."""
        from gardener.verbs import reading

        return reading.read_ledger(self.root)

    @contextmanager
    def _session(self, *, lock: bool = True) -> Iterator[Session]:
        """A session for one verb (see ``gardener.verbs.session.open_session``)."""
        from gardener.verbs.session import open_session

        with open_session(self.root, self.config, self._clock, lock=lock) as session:
            yield session

    # -- verbs -----------------------------------------------------------------
    def record(
        self, *, accept: bool = False, grace: float | None = None
    ) -> RecordResult:
        """Commit changes made outside the gardener (secrets redacted first).

        A deleted daily note is restored and a rewrite of MEMORY.md past
        ``max_loss`` held aside, each with a warning; ``accept`` (a person's
        decision) commits the held rewrite (``gardener.verbs.rewrites``).
        ``grace`` (seconds): a note's last line without a newline stays out
        of the commit until the note has been quiet that long (``watch``).
        """
        from gardener.verbs.record import record_changes

        with self._session() as session:
            return record_changes(session, accept=accept, grace=grace)

    def note(
        self,
        text: str,
        *,
        kind: str | None = None,
        key: str | None = None,
        source: str | None = None,
        by: str | None = None,
        expires: str | None = None,
        day: str | None = None,
        time: str | None = None,
    ) -> NoteResult:
        """Append one entry to a daily note (today's by default) and commit it.

        Raises RefusedError (exit 3) if a never-store rule matches; nothing is
        written then. Raises GardenerError for a bad kind, date or time. See
        ``gardener.verbs.note.write_note``.
        """
        from gardener.verbs.note import NoteSettings, write_note

        return write_note(
            self.root, NoteSettings.of(self.config), text, self.now(),
            fixed_clock=bool(self._clock.fixed),
            kind=kind, key=key, source=source, by=by, expires=expires, day=day,
            time=time,
        )  # fmt: skip

    def promote(self, dry_run: bool = False, force: bool = False) -> PromoteResult:
        """Promote durable entries of the daily notes into MEMORY.md (see docs/design.md).

        One commit for the pass, none when nothing changed. Raises
        LossBudgetError if current entries would be lost beyond ``max_loss``
        and ``force`` is not set.
        """
        from gardener.verbs.promote import promote

        with self._session() as session:
            result = promote(session, dry_run, force)
            if session.config.judge == "llm" and result.plan.pending and not dry_run:
                from gardener.verbs.judge import ask_model

                result = ask_model(session, result, force)
            return result

    def prune(self, dry_run: bool = False, force: bool = False) -> PruneResult:
        """Delete old superseded entries, expire entries, delete aged-out notes (see docs/design.md)."""
        from gardener.verbs.prune import prune

        with self._session() as session:
            return prune(session, dry_run, force)

    def forget(
        self,
        query: str | None = None,
        *,
        key: str | None = None,
        source: str | None = None,
        by: str | None = None,
        dry_run: bool = False,
        force: bool = False,
    ) -> ForgetResult:
        """Retire the current entries that match (see docs/design.md): they leave
        recall, ``why`` and ``--as-of`` still show them. One commit, none if
        nothing matched.

        MEMORY.md entries are matched by query, key, source or agent; the
        daily-note entries a plain recall answers with, by query or key (see
        ``Selector.matches_note``): those go in ``.gardener/retired``, and
        recall and promote pass over them; the note keeps them.

        Raises UsageError when nothing says what to forget, LossBudgetError when
        more than ``max_loss`` of current entries would go without ``force``.
        """
        from gardener.verbs.forget import forget, selector_of

        selector = selector_of(query, key, source, by)
        with self._session() as session:
            return forget(session, selector, dry_run=dry_run, force=force)

    def approve_held(self, held: str, approve: bool = True) -> PromoteResult | None:
        """Approve (promote it now) or reject (never promote it) a held entry.

        ``held`` is the review id that promote and check print (``h`` + 8 hex).
        Returns the promotion pass for an approval, None for a rejection.
        Raises GardenerError if no held entry has that id.
        """
        from gardener.verbs.held import review

        with workspace_lock(self.root):
            with self._session(lock=False) as session:
                review(session, held, approve)
            return self.promote() if approve else None

    def review(self, limit: int = 20, after: str | None = None) -> Review:
        """The entries waiting for the judge, oldest first (at most ``limit``,
        the texts bounded), starting after the pending id ``after`` (a page
        ends at ``Review.next_after``); nothing is written. See
        ``gardener.verbs.judge``."""
        from gardener.verbs.judge import review

        with self._session(lock=False) as session:
            return review(session, limit, after)

    def decide(
        self,
        judgments: Sequence[Judgment | Mapping[str, object]],
        by: str,
        force: bool = False,
    ) -> DecideResult:
        """Apply the judge ``by``'s answers to pending entries in one pass.

        ``judgments``: ``Judgment`` values, or the objects ``decide --json``
        reads (``{"id", "verdict", "kind"?, "key"?, "value"?, "replaces"?}``). Invalid ones
        are refused with a reason (``DecideResult.refused``); the rest are
        filed through the decision table. Raises GardenerError for a
        malformed object or no judge name, LossBudgetError as promote does.
        """
        from gardener.planning.judging import Judgment, read_judgments
        from gardener.verbs.judge import decide

        given = [j for j in judgments if isinstance(j, Judgment)]
        raw = [j for j in judgments if not isinstance(j, Judgment)]
        try:
            given += read_judgments(raw)
        except ValueError as exc:
            raise GardenerError(str(exc)) from exc
        with self._session() as session:
            return decide(session, given, by, force)

    def purge(
        self,
        text: str,
        *,
        dry_run: bool = False,
        by: str | None = None,
        ignore_case: bool = False,
        push: bool = False,
    ) -> PurgeResult:
        """Erase ``text`` from the files and every commit (see docs/design.md and
        ``gardener.verbs.purge``); ``push``: force-push the rewrite.

        The gardener's own uncommitted files are committed first; before
        that, the rewrite of a purge of ``text`` that was killed half-way is
        finished (``gardener.verbs.rewriting``).
        """
        from gardener.store.ledger import FOLDER as LEDGER_FOLDER
        from gardener.store.ledger import LEGACY
        from gardener.verbs.messages import review_marks_message
        from gardener.verbs.purge import purge_text, resume_killed
        from gardener.verbs.record import record

        with self._session() as session:
            if not dry_run:  # a killed purge's rewrite first: record would see its half
                resumed = resume_killed(self.root, session.repo, text, ignore_case)
                record(session)
                if not resumed:  # else the marks it changed go in its tombstone
                    session.commit([LEDGER_FOLDER, LEGACY], review_marks_message())
            return purge_text(
                self.root, session.repo, text, dry_run=dry_run, now=session.now(),
                commit=session.commit, by=by, ignore_case=ignore_case, push=push,
            )  # fmt: skip

    def sync(self, remote: str | None = None, dry_run: bool = False) -> SyncResult:
        """Record, fetch, merge (or follow the remote's purge), promote, push
        (see docs/design.md, Several machines, and ``gardener.verbs.sync``)."""
        from gardener.verbs.promote import promote
        from gardener.verbs.sync import prepare, push

        with self._session() as session:
            result = prepare(session, remote, dry_run)
            if not dry_run:  # this clone's own notes too, before they leave
                done = promote(session, False, False)
                if done.commit:
                    result = replace(result, promoted=done.commit)
            return push(session, result)

    def recall(
        self,
        query: str | None = None,
        *,
        key: str | None = None,
        as_of_time: str | None = None,
        limit: int | None = 10,
        everything: bool = False,
        warnings: list[str] | None = None,
    ) -> list[Hit]:
        """Ranked current facts and live note entries; or one key; or what held at a time.

        ``everything`` (``recall --all``) searches every note on disk, however
        old, and every MEMORY.md entry whatever its status. Plain queries go
        through the recall index (``gardener.recall.index``), so only files changed
        since the last recall are read. A note skipped for its name (not
        valid UTF-8) is added to ``warnings``, one line each. Raises
        UsageError for a malformed ``as_of_time``.
        """
        from gardener.verbs.recall import recall

        return recall(
            self.root, self.config, self._clock, query, key=key,
            as_of_time=as_of_time, limit=limit, everything=everything,
            warnings=warnings,
        )  # fmt: skip

    def show(self, path: str, start: int = 1, lines: int | None = None) -> ShowResult:
        """Lines ``start`` (1-based) on of MEMORY.md, rules.md or a file under
        the notes folder, secrets redacted; empty text for a missing file.
        Raises GardenerError for any other path (see ``gardener.verbs.show``)."""
        from gardener.verbs.show import show

        return show(self.root, self.config, path, start, lines)

    def why(self, key: str) -> list[WhyRecord]:
        """Every value ``key`` has had, with validity, source note and commit
        (see ``gardener.verbs.why``)."""
        from gardener.verbs.why import why

        with self._session(lock=False) as session:
            return why(session, key)

    def check(self, *, history: bool = False, staged: bool = False) -> list[Problem]:
        """Problems in the workspace: parse errors, conflicts, secrets, size budget
        (see ``gardener.verbs.check``).

        ``staged``: only secrets in the files staged for the next commit (the
        pre-commit hook). ``history``: also secrets in every blob git holds.
        """
        from gardener.verbs.check import check, rules_problem

        try:
            config = self.config
        except GardenerError as exc:
            return rules_problem(exc)
        return check(self.root, config, self.now, history=history, staged=staged)

    # -- creating --------------------------------------------------------------
    @classmethod
    def init(
        cls, root: Path, now_override: str | None = None
    ) -> tuple[Workspace, InitResult]:
        """Create a workspace in ``root``, or adopt the memory files already there.

        Nothing that exists is changed, except secrets, which are redacted
        (originals kept in ``.gardener/quarantine.jsonl``, never committed).
        The first commit records the adopted state.
        """
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        from gardener.verbs.init import init

        ws = cls(root, now_override)
        ws._config, done = init(ws.root, now_override)
        return ws, done
