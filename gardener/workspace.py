"""The gardener's verbs as a Python API: ``Workspace(root).promote()`` and friends.

Each verb reads the files, asks a pure planner what to do, writes atomically
under the workspace lock, and makes one commit. Verbs return result values and
never print; the CLI and other adapters decide how to show them.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gardener.errors import GardenerError, LossBudgetError, ParseError, UsageError
from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import (
    STATE_DIR,
    dated_notes,
    note_date,
    note_files,
    refuse_outside,
)
from gardener.files.lock import workspace_lock
from gardener.files.read import decode_text, read_files, read_text
from gardener.model.config import Config
from gardener.model.validtime import format_instant, local_now
from gardener.store import retired as retired_notes
from gardener.store import settings as configuration
from gardener.store.ledger import FOLDER as LEDGER_FOLDER
from gardener.store.ledger import LEGACY, read_all

if TYPE_CHECKING:
    from gardener.git.repo import Identity, Repo
    from gardener.model.facts import Memory, Note, Problem
    from gardener.planning.forget import Selector
    from gardener.recall.rank import Hit
    from gardener.store.linememo import LineMemo
    from gardener.store.notescan import Scan
    from gardener.verbs.guard import Redaction
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

PRE_COMMIT = """#!/bin/sh
# memory-gardener: refuse a commit that would put a secret into history.
# (Bypass once, knowingly: git commit --no-verify)
python="{python}"
if [ ! -x "$python" ]; then
  echo "memory-gardener hook: $python is gone, secrets are not checked" >&2
  exit 0
fi
exec "$python" -m gardener -w "$(git rev-parse --show-toplevel)" check --staged
"""

REPLANS = 5  # times a pass re-plans when MEMORY.md or a note changes under it


@dataclass
class Workspace:
    """A gardener workspace: a folder that is the root of a git repository.

    ``now`` fixes the clock (naive local time in the rules' timezone); by
    default the env ``GARDENER_NOW`` (ISO 8601) or the real clock is used.
    """

    root: Path
    now_override: str | None = None
    _config: Config | None = field(default=None, repr=False)
    # what the current verb has to tell (stale lock, rewritten note...)
    _warnings: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()

    # -- reading ---------------------------------------------------------------
    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = configuration.load(self.root)
        return self._config

    def now(self) -> datetime:
        """Local wall-clock time in the workspace timezone (naive)."""
        override = self.now_override or os.environ.get("GARDENER_NOW")
        try:
            return local_now(self.config.timezone, override)
        except ValueError as exc:
            raise GardenerError(
                f"GARDENER_NOW={override!r} is not an ISO 8601 date-time"
            ) from exc

    @property
    def memory_path(self) -> Path:
        return self.root / self.config.memory_file

    def read_memory(self) -> Memory:
        """MEMORY.md parsed; a new empty one if the file does not exist."""

        from gardener.formats.memoryfile import NEW_FILE, parse_memory

        text = self._memory_text()
        return parse_memory(NEW_FILE if text is None else text, self.config.memory_file)

    def _memory_text(self) -> str | None:
        self._refuse_outside()
        if not self.memory_path.exists():
            return None
        return read_text(self.memory_path)

    def _refuse_outside(self) -> None:
        names = {self.config.memory_file: "file", self.config.notes_dir: "folder"}
        refuse_outside(self.root, names)

    def read_notes(
        self, since: date | None = None, *, unless: frozenset[str] = frozenset()
    ) -> tuple[list[Note], list[Problem]]:
        """Every daily note (from ``since`` on, if given), and the files that could not be read.

        A note whose settled line (``marks.settled_mark`` of its path and
        bytes) is in ``unless`` (a ledger) is left out unparsed: a pass has
        nothing left to do with it. Each note carries its bytes' ``digest``.
        """
        from gardener.formats.dailynote import parse_note
        from gardener.model.facts import Problem
        from gardener.model.marks import note_digest, settled_mark

        notes: list[Note] = []
        problems: list[Problem] = []
        self._refuse_outside()
        folder = self.root / self.config.notes_dir
        base = folder.relative_to(self.root).as_posix()
        days = {
            name: day
            for day, name in dated_notes(self.root, self.config.notes_dir)
            if since is None or day >= since
        }
        for name, data in read_files(folder, days):
            rel = f"{base}/{name}"
            digest = note_digest(data)
            if unless and settled_mark(rel, digest) in unless:
                continue
            day = days[name]
            try:
                text = decode_text(data, folder / name)
            except ParseError as exc:
                problems.append(Problem("parse", rel, exc.line, exc.message))
                continue
            note = replace(parse_note(rel, day, text), digest=digest)
            notes.append(note)
            problems.extend(note.problems)
        return notes, problems

    def read_ledger(self) -> frozenset[str]:
        """Every mark of the ledger (``gardener.store.ledger``; see ``gardener.model.marks``)."""
        return read_all(self.root).marks()

    # -- git -------------------------------------------------------------------
    @contextmanager
    def _repo(self) -> Iterator[Repo]:
        from gardener.git.repo import Repo

        repo = Repo.open(self.root)
        try:
            yield repo
        finally:
            repo.close()

    @contextmanager
    def _session(self) -> Iterator[Repo]:
        """The workspace lock and one repository handle, for one verb."""
        from gardener.store import journal

        with workspace_lock(self.root) as stale, self._repo() as repo:
            self._warnings = [stale] if stale else []
            if stale:  # its git commands may have been killed with it
                self._warnings += journal.clear_dead_locks(repo)
            yield repo

    def _is_note(self, rel: str) -> bool:
        """A daily note: directly in the notes folder (not archive/), with a dated name."""
        path = Path(rel)
        return (
            path.parent.as_posix() == self.config.notes_dir
            and note_date(path.name) is not None
        )

    def _owned_paths(self) -> list[str]:
        return [self.config.memory_file, self.config.notes_dir, "rules.md"]

    def _commit(
        self,
        repo: Repo,
        paths: Sequence[str],
        message: str,
        author: Identity | None = None,
        texts: Mapping[str, str] | None = None,
    ) -> str | None:
        """Commit ``paths`` (``texts``: as ``Repo.commit`` takes them); with a
        fixed clock (GARDENER_NOW), dated at that time. git's housekeeping
        check runs after it once every few hours (``noting.maintenance_due``)."""
        from gardener.verbs.note import maintenance_due

        override = self.now_override or os.environ.get("GARDENER_NOW")
        when = self.now().replace(tzinfo=self.config.zone) if override else None
        return repo.commit(paths, message, author, date=when, texts=texts,
                           maintain=maintenance_due(repo.git_folder))  # fmt: skip

    def _record_outside_changes(self, repo: Repo) -> tuple[str | None, list[Redaction]]:
        """Commit what changed outside the gardener (see ``recording.record``)."""
        from gardener.verbs.record import record

        return record(self, repo)

    def record(self) -> RecordResult:
        """Commit changes made outside the gardener (secrets redacted first); None if none."""
        from gardener.verbs.results import RecordResult

        with self._session() as repo:
            sha, redacted = self._record_outside_changes(repo)
        return RecordResult(sha, tuple(redacted), tuple(self._warnings))

    # -- verbs -----------------------------------------------------------------
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
        ``noting.write_note``.
        """
        from gardener.verbs.note import NoteSettings, write_note

        now = self.now()
        return write_note(
            self.root, NoteSettings.of(self.config), text, now,
            fixed_clock=bool(self.now_override or os.environ.get("GARDENER_NOW")),
            kind=kind, key=key, source=source, by=by, expires=expires, day=day,
            time=time,
        )  # fmt: skip

    def promote(self, dry_run: bool = False, force: bool = False) -> PromoteResult:
        """Promote durable entries of the daily notes into MEMORY.md (DESIGN 2.1).

        One commit for the pass, none when nothing changed. Raises
        LossBudgetError if current entries would be lost beyond ``max_loss``
        and ``force`` is not set.
        """
        from gardener.formats.memoryfile import NEW_FILE, parse_memory
        from gardener.planning.promote import plan_promotion
        from gardener.store import linememo
        from gardener.verbs.results import (
            PromoteResult,
            ledger_message,
            promote_author,
            promote_message,
        )

        with self._session() as repo, _collector_paused():
            redacted: list[Redaction] = []
            memo = linememo.load(repo.git_dir)
            for _ in range(REPLANS):
                if not dry_run:
                    redacted += self._record_outside_changes(repo)[1]
                before = self._memory_text()
                memory = parse_memory(
                    NEW_FILE if before is None else before,
                    self.config.memory_file,
                    memo,
                )
                found = self._scan(repo)  # settled notes stay unread
                self._warn_unread(found)
                plan = plan_promotion(
                    found.notes, memory, self.config, self.now(),
                    found.ledger.marks(), memo, retired_notes.read(self.root),
                )  # fmt: skip
                self._check_loss(memory, plan.facts, force, dry_run)
                done = PromoteResult(
                    plan, None, dry_run, tuple(redacted), tuple(self._warnings)
                )
                ledger = found.ledger.files(plan.ledger)
                if dry_run or (not plan.changed and not ledger):
                    self._learned(repo, found, {}, memo)
                    return done
                if not plan.changed:
                    # only the ledger changed (chatter, known values): committed
                    # too, so the work tree stays clean and git says why
                    message = ledger_message(plan, LEGACY in ledger)
                    sha = self._apply(repo, ledger, {}, message, promote_author(plan))
                    self._learned(repo, found, ledger, memo)
                    return replace(
                        done, commit=sha or None, warnings=tuple(self._warnings)
                    )
                # MEMORY.md first: if it changed since the plan, nothing is written
                files = {self.config.memory_file: plan.text, **ledger}
                sha = self._apply(
                    repo, files, {self.config.memory_file: before},
                    promote_message(plan), promote_author(plan),
                )  # fmt: skip
                if sha is not False:
                    self._learned(repo, found, files, memo)
                    return replace(done, commit=sha, warnings=tuple(self._warnings))
            raise self._kept_changing()

    def _warn_unread(self, found: Scan) -> None:
        """Warn of each note the pass could not read (not UTF-8): its entries
        wait until it is fixed, and a pass that says nothing would look done."""
        read = {note.path for note in found.notes}
        for p in found.problems:
            if p.path in read:
                continue  # read despite it (front matter that is not YAML)
            where = f"{p.path}:{p.line}" if p.line else p.path
            warning = (
                f"{where}: {p.message}; its entries are not promoted until it is fixed"
            )
            if warning not in self._warnings:
                self._warnings.append(warning)

    def _scan(self, repo: Repo) -> Scan:
        """The notes a promote pass must read (see ``gardener.store.notescan``)."""
        from gardener.store.notescan import scan

        self._refuse_outside()
        return scan(self.root, self.config.notes_dir, repo.git_dir)

    def _learned(
        self,
        repo: Repo,
        found: Scan,
        written: Mapping[str, str | None],
        memo: LineMemo,
    ) -> None:
        """Save what the pass learned about files (``written``: what it wrote)
        and MEMORY.md's lines."""
        from gardener.store.linememo import save as save_lines
        from gardener.store.statcache import save

        save_lines(repo.git_dir, memo)
        months = {
            rel.removeprefix(LEDGER_FOLDER + "/")
            for rel in written
            if rel.startswith(LEDGER_FOLDER + "/")
        }
        save(repo.git_dir, found.learned(months))

    def prune(self, dry_run: bool = False, force: bool = False) -> PruneResult:
        """Delete old superseded entries, expire entries, delete aged-out notes (DESIGN 2.2)."""
        from gardener.git.log import first_commit_time
        from gardener.planning.prune import plan_prune
        from gardener.verbs.results import PruneResult, prune_message

        with self._session() as repo:
            for _ in range(REPLANS):
                if not dry_run:
                    self._record_outside_changes(repo)
                now = self.now()
                before = self._memory_text()
                memory = self.read_memory()
                notes, _ = self.read_notes()
                cutoff = now.date() - timedelta(days=self.config.note_ttl_days)
                first: dict[str, date | None] = {}
                for note in notes:
                    if note.day < cutoff:
                        stamp = first_commit_time(repo, note.path)
                        first[note.path] = (
                            stamp.astimezone(self.config.zone).date() if stamp else None
                        )
                book = read_all(self.root)
                plan = plan_prune(memory, notes, self.config, now, book.marks(), first)
                self._check_loss(memory, plan.facts, force, dry_run)
                done = PruneResult(plan, None, dry_run, tuple(self._warnings))
                if dry_run:
                    return done
                files: dict[str, str | None] = {}
                expected: dict[str, str | None] = {}
                if plan.changed:
                    files[self.config.memory_file] = plan.text
                    expected[self.config.memory_file] = before
                for rel in plan.notes_removed:
                    # only what git holds is deleted: a line written since stays
                    files[rel] = None
                    expected[rel] = repo.committed_text(rel)
                if files or plan.ledger != book.marks():
                    files.update(book.files(plan.ledger))
                register = retired_notes.REGISTER
                listed = self._state_text(register)
                if listed and plan.notes_removed:  # their retired entries go too
                    kept = retired_notes.without_paths(listed, plan.notes_removed)
                    if kept != listed:
                        files[register] = kept or None
                        expected[register] = listed
                if not files:
                    return done
                sha = self._apply(repo, files, expected, prune_message(plan), None)
                if sha is not False:
                    if plan.notes_removed:  # the recall index copies what they said
                        from gardener.model.config import as_values
                        from gardener.recall.search import forget_files

                        forget_files(str(self.root), as_values(self.config),
                                     plan.notes_removed)  # fmt: skip
                    return replace(done, commit=sha, warnings=tuple(self._warnings))
            raise self._kept_changing()

    def _apply(
        self,
        repo: Repo,
        files: Mapping[str, str | None],
        before: Mapping[str, str | None],
        message: str,
        author: Identity | None,
    ) -> str | None | Literal[False]:
        """Write and commit ``files``, journaled (see ``gardener.store.journal.apply``).

        False if a file in ``before`` changed since the plan (nothing written).
        """
        from gardener.store import journal

        if any(rel.startswith(STATE_DIR + "/") for rel in files):
            ensure_state_dir(self.root)
        commit = functools.partial(self._commit, repo)
        return journal.apply(self.root, repo, files, before, message, author, commit)

    def _kept_changing(self) -> GardenerError:
        return GardenerError(
            f"{self.config.memory_file} or a note kept changing while the gardener planned ({REPLANS} tries); nothing was written: run the command again once the edits stop"
        )

    def _check_loss(
        self, memory: Memory, after: Sequence[object], force: bool, dry_run: bool
    ) -> None:
        """Raise LossBudgetError if the pass would take more than ``max_loss``
        of the current entries out of current memory, unless ``force``. A dry
        run raises nothing; it warns that the real run would need ``--force``."""
        from gardener.model.validtime import is_current
        from gardener.planning.prune import loss_allowed, lost_current

        today = format_instant(self.now())
        current = [f for f in memory.facts if is_current(f, today)]
        if not current or force:  # nothing to lose, or allowed to
            return
        lost = lost_current(current, after, today)  # type: ignore[arg-type]
        if not lost or loss_allowed(len(lost), len(current), self.config.max_loss):
            return
        names = ", ".join(f.key or f.value[:30] for f in lost[:10])
        why = (
            f"this pass would remove {len(lost)} of {len(current)} current entries"
            f" ({names}), over max_loss={self.config.max_loss}"
        )
        if dry_run:
            self._warnings.append(f"{why}: the real run needs --force")
            return
        raise LossBudgetError(f"{why}; rerun with --force if that is intended")

    def _check_note_loss(self, count: int, force: bool, dry_run: bool) -> None:
        """Raise LossBudgetError if a forget would retire more than
        ``NOTE_LOSS_LIMIT`` daily-note entries, unless ``force`` (a broad
        query, "the", matches hundreds); a dry run warns instead."""
        from gardener.planning.forget import NOTE_LOSS_LIMIT

        if force or count <= NOTE_LOSS_LIMIT:
            return
        why = (
            f"this forget would retire {count} daily-note entries, over"
            f" {NOTE_LOSS_LIMIT} (a narrower QUERY, or --dry-run to list them)"
        )
        if dry_run:
            self._warnings.append(f"{why}: the real run needs --force")
            return
        raise LossBudgetError(f"{why}; rerun with --force if that is intended")

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
        """Retire the current entries that match (DESIGN 2.3): they leave recall,
        ``why`` and ``--as-of`` still show them. One commit, none if nothing matched.

        MEMORY.md entries are matched by query, key, source or agent; the
        daily-note entries a plain recall answers with, by query or key (see
        ``Selector.matches_note``): those go in ``.gardener/retired``, and
        recall and promote pass over them; the note keeps them.

        Raises UsageError when nothing says what to forget, LossBudgetError when
        more than ``max_loss`` of current entries would go without ``force``.
        """
        from gardener.planning.forget import Selector, describe, plan_forget
        from gardener.verbs.results import ForgetResult

        selector = Selector(key, query, source, by)
        if selector.empty():
            raise UsageError("say what to forget: a QUERY, --key, --source or --by")
        register = retired_notes.REGISTER
        sha: str | None | bool = None
        with self._session() as repo:
            for _ in range(REPLANS):
                if not dry_run:
                    self._record_outside_changes(repo)
                before = self._memory_text()
                listed = self._state_text(register)
                memory = self.read_memory()
                plan = plan_forget(
                    memory,
                    selector,
                    self.now(),
                    notes=self._note_hits(selector),
                    register=listed or "",
                )
                self._check_loss(memory, plan.facts, force, dry_run)
                self._check_note_loss(len(plan.notes), force, dry_run)
                if dry_run or not plan.changed:
                    break
                keys = sorted({f.key for f in plan.retired if f.key})
                n = len(plan.retired) + len(plan.notes)
                lines = [
                    f"forget: retired {n} entr{'y' if n == 1 else 'ies'}",
                    "",
                    *describe(plan.retired, plan.notes, texts=False),
                    "",
                    "Gardener-Action: forget",
                ]
                if keys:
                    lines.append("Gardener-Keys: " + "; ".join(keys))
                file = self.config.memory_file
                files: dict[str, str | None] = {}
                if plan.text != memory.text:
                    files[file] = plan.text
                if plan.notes:
                    files[register] = plan.register
                message = "\n".join(lines) + "\n"
                sha = self._apply(
                    repo, files, {file: before, register: listed}, message, None
                )
                if sha is not False:
                    break
            else:
                raise self._kept_changing()
        commit = sha if isinstance(sha, str) else None
        return ForgetResult(plan, commit, dry_run, tuple(self._warnings))

    def _note_hits(self, selector: Selector) -> list[Hit]:
        """The daily-note entries on disk that hold the selector's query, or
        its key's words, and are not retired yet: also those a plain recall
        passes over now (a key's older note, a line MEMORY.md speaks for),
        which would answer again once the MEMORY.md entry is retired, or be
        filed by promote."""
        words = selector.query or selector.key
        if not words:
            return []
        file = self.config.memory_file
        hits = self.recall(words, limit=None, everything=True)
        return [h for h in hits if h.path != file and h.status == "note"]

    def _state_text(self, rel: str) -> str | None:
        """The text of the workspace file ``rel`` (UTF-8, line ends as they
        are), None if there is none. Raises GardenerError if it cannot be read."""
        try:
            with open(self.root / rel, encoding="utf-8", errors="surrogateescape",
                      newline="") as file:  # fmt: skip
                return file.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise GardenerError(f"{rel} cannot be read: {exc.strerror}") from None

    def review(self, held: str, approve: bool) -> PromoteResult | None:
        """Approve (promote it now) or reject (never promote it) a held entry.

        ``held`` is the review id that promote and check print (``h`` + 8 hex).
        Returns the promotion pass for an approval, None for a rejection.
        Raises GardenerError if no held entry has that id.
        """

        from gardener.model.marks import APPROVED, HELD, review_id

        with workspace_lock(self.root):
            book = read_all(self.root)
            ledger = set(book.marks())
            matches = [
                m for m in ledger if m.endswith(HELD) and review_id(m) == held.strip()
            ]
            if not matches:
                done = [m for m in ledger if "\t" in m and review_id(m) == held.strip()]
                if done:  # its plain mark: approved and filed, or rejected
                    raise GardenerError(
                        f"{held} was reviewed already (`git log --grep {held}`"
                        " shows the decision)"
                    )
                raise GardenerError(
                    f"no held entry has the id {held!r}; `gardener check` lists them"
                )
            mark = matches[0][: -len(HELD)]
            ledger.discard(matches[0])
            ledger.add(mark + APPROVED if approve else mark)
            files = book.files(ledger)
            verb = "approve" if approve else "reject"
            outcome = "is promoted" if approve else "is never promoted"
            with self._repo() as repo:
                # the person's decision is a commit of its own, theirs: the
                # promote that files the entry is authored by its writer
                who = repo.configured_identity()
                message = (
                    f"{verb}: held entry {held} {outcome}\n\n"
                    f"Gardener-Action: {verb}\nGardener-Review: {held}\n"
                )
                self._apply(repo, files, {}, message, who)
            return self.promote() if approve else None

    def purge(
        self,
        text: str,
        *,
        dry_run: bool = False,
        by: str | None = None,
        ignore_case: bool = False,
    ) -> PurgeResult:
        """Erase ``text`` from the files and every commit (DESIGN 2.3); see ``gardener.verbs.purge``.

        The rewrite resets the work tree, so the gardener's own uncommitted
        files are committed first.
        """
        from gardener.verbs.purge import purge_text

        with self._session() as repo:
            if not dry_run:
                self._record_outside_changes(repo)
                self._commit(
                    repo,
                    [LEDGER_FOLDER, LEGACY],
                    "record: promote's review marks\n\nGardener-Action: record\n",
                )
            return purge_text(
                self.root,
                repo,
                text,
                dry_run=dry_run,
                now=self.now(),
                commit=functools.partial(self._commit, repo),
                by=by,
                ignore_case=ignore_case,
            )

    def recall(
        self,
        query: str | None = None,
        *,
        key: str | None = None,
        as_of_time: str | None = None,
        limit: int | None = 10,
        everything: bool = False,
    ) -> list[Hit]:
        """Ranked current facts and live note entries; or one key; or what held at a time.

        ``everything`` (``recall --all``) searches every note on disk, however
        old, and every MEMORY.md entry whatever its status. Plain queries go
        through the recall index (``gardener.recall.index``), so only files changed
        since the last recall are read. Raises UsageError for a malformed
        ``as_of_time``.
        """
        from gardener.recall.rank import as_of, lookup

        self._refuse_outside()
        file = self.config.memory_file
        if as_of_time or key is not None:
            memory = self.read_memory()
        if as_of_time:
            try:
                hits = as_of(as_of_time, memory.facts, file, key=key, query=query)
            except ValueError as exc:
                raise UsageError(
                    f"--as-of {as_of_time!r} is not YYYY-MM-DD or YYYY-MM-DDTHH:MM"
                ) from exc
            return hits[:limit] if limit else hits
        now = self.now()
        if key is not None:
            hits = lookup(key, memory.facts, now, file)
            if query:
                hits = [h for h in hits if query.casefold() in h.text.casefold()]
            return hits[:limit] if limit else hits
        from gardener.recall.search import search

        return search(self, query or "", now, limit, everything)

    def why(self, key: str) -> list[WhyRecord]:
        """Every value ``key`` has had, with validity, source note and commit
        (see ``audit.why``)."""
        from gardener.verbs.audit import why

        return why(self, key)

    def check(self, *, history: bool = False, staged: bool = False) -> list[Problem]:
        """Problems in the workspace: parse errors, conflicts, secrets, size budget
        (see ``audit.check``).

        ``staged``: only secrets in the files staged for the next commit (the
        pre-commit hook). ``history``: also secrets in every blob git holds.
        """
        from gardener.verbs.audit import check

        return check(self, history=history, staged=staged)

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
        from gardener.formats.memoryfile import NEW_FILE
        from gardener.git.repo import Repo
        from gardener.verbs.guard import (
            redact_files,
            remove_purged,
            rename_secret_names,
        )
        from gardener.verbs.results import InitResult

        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        ws = cls(root, now_override)
        adopted = (ws.root / "MEMORY.md").exists() or (ws.root / "memory").is_dir()
        created: list[str] = []
        repo = Repo.init(ws.root)
        try:
            with workspace_lock(ws.root):
                if not (ws.root / "rules.md").exists():
                    atomic_write(
                        ws.root / "rules.md",
                        read_text(configuration.packaged("rules.md")),
                    )
                    created.append("rules.md")
                ws._config = None
                config = ws.config
                if not ws.memory_path.exists():
                    atomic_write(ws.memory_path, NEW_FILE)
                    created.append(config.memory_file)
                notes_dir = ws.root / config.notes_dir
                if not notes_dir.exists():
                    notes_dir.mkdir(parents=True)
                attributes = ws.root / ".gitattributes"
                line = f"{config.notes_dir}/*.md merge=union"
                if not attributes.exists():
                    atomic_write(
                        attributes,
                        "# daily notes are append-only: merge them by keeping both sides\n"
                        + line
                        + "\n",
                    )
                    created.append(".gitattributes")
                ensure_state_dir(ws.root)
                paths = [
                    config.memory_file,
                    "rules.md",
                    ".gitattributes",
                    f"{STATE_DIR}/.gitignore",
                ]
                notes = [
                    p.relative_to(ws.root).as_posix()
                    for p in note_files(ws.root, config.notes_dir)
                ]
                renamed, redacted = rename_secret_names(
                    ws.root, notes, config, ws.now(),
                    is_new=lambda p: repo.committed_text(p) is None,
                )  # fmt: skip
                paths += [renamed.get(p, p) for p in notes]
                redacted += remove_purged(ws.root, paths)
                redacted += redact_files(ws.root, paths, config, ws.now())
                what = (
                    "adopt existing memory files"
                    if adopted
                    else "create a memory workspace"
                )
                body = "\n".join(f"- {r.summary()}" for r in redacted)
                message = f"init: {what}\n\n{body + chr(10) + chr(10) if body else ''}Gardener-Action: init\n"
                sha = ws._commit(repo, paths, message)
                repo.install_hook(
                    "pre-commit", PRE_COMMIT.format(python=sys.executable)
                )
        finally:
            repo.close()
        return ws, InitResult(
            str(ws.root), adopted, tuple(created), tuple(redacted), sha
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one pass, then restore it.

    A pass over many notes allocates a few hundred thousand objects that live
    until it ends and hold no cycles; the collector would walk them again and
    again (about a tenth of a large pass) and free nothing.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
