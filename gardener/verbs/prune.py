"""The ``prune`` verb: delete old superseded entries, expire entries, delete
aged-out notes, in one commit (the planner: ``gardener.planning.prune``)."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from gardener.files.read import read_text
from gardener.git.log import first_added
from gardener.model.config import as_values
from gardener.model.facts import Note, Problem
from gardener.planning.check import conflict_problems, fence_problems, front_problems
from gardener.planning.prune import NOTES_ALWAYS, Dating, PrunePlan, plan_prune
from gardener.recall.search import forget_files
from gardener.store import retired as retired_notes
from gardener.store import times as store_times
from gardener.store.ledger import Ledger, read_all
from gardener.verbs.budget import check_loss
from gardener.verbs.messages import prune_message
from gardener.verbs.record import record
from gardener.verbs.results import PruneResult
from gardener.verbs.session import Session


def prune(session: Session, dry_run: bool = False, force: bool = False) -> PruneResult:
    """Delete old superseded entries, expire entries, delete aged-out notes (see docs/design.md).

    One commit, none when nothing changed. Raises LossBudgetError if current
    entries would be lost beyond ``max_loss`` and ``force`` is not set.
    """

    def attempt() -> PruneResult | None:
        if not dry_run:
            record(session)
        return _pass(session, dry_run, force)

    return session.replan(attempt)


def _pass(s: Session, dry_run: bool, force: bool) -> PruneResult | None:
    """One plan and its commit; None if a file changed since the plan."""
    now = s.now()
    before = s.memory_text()
    memory = s.read_memory()
    notes, _ = s.read_notes()
    dating = _dating(s, notes, now.date() - timedelta(days=s.config.note_ttl_days))
    book = read_all(s.root, s.repo.git_dir)
    unread = _unread(s, notes, now.date() - timedelta(days=s.config.note_ttl_days))
    plan = plan_prune(memory, notes, s.config, now, book.marks(), dating, force, unread)
    check_loss(s, memory, plan.facts, force, dry_run)
    waiting = sum(1 for k in plan.notes_kept if k.why == "budget")
    if waiting:  # said where people look, not only in the kept list
        s.warnings.append(
            f"{waiting} more notes past their TTL wait for a later pass: one pass"
            f" deletes a week of notes ({NOTES_ALWAYS}) or max_loss={s.config.max_loss}"
            " of them, whichever is more (a clock set ahead?); --force deletes them now"
        )
    done = PruneResult(plan, None, dry_run, tuple(s.warnings))
    if dry_run:
        return done
    files, expected = _changes(s, plan, book, before)
    if not files:
        return done
    applied = s.apply(files, expected, prune_message(plan))
    if applied.stale:
        return None
    book.committed()  # the pending marks went into this commit
    if plan.notes_removed:  # the recall index copies what they said
        forget_files(str(s.root), as_values(s.config), plan.notes_removed)
    return replace(done, commit=applied.commit, warnings=tuple(s.warnings))


def _unread(s: Session, notes: list[Note], cutoff: date) -> dict[str, Problem]:
    """The notes older than ``cutoff`` (those a pass may delete) holding lines
    the parser does not read, by path: the first such problem ``check``
    reports (a code fence or front matter never closed, a merge conflict)."""
    unread: dict[str, Problem] = {}
    for note in notes:
        if note.day >= cutoff:
            continue
        try:
            text = read_text(s.root / note.path)
        except OSError:
            continue  # gone since the read: nothing to delete either
        found = (
            fence_problems(note.path, text)
            + front_problems(note.path, text)
            + conflict_problems(note.path, text)
        )
        if found:
            unread[note.path] = found[0]
    return unread


def _dating(s: Session, notes: list[Note], cutoff: date) -> dict[str, Dating]:
    """What tells when each note older than ``cutoff`` was written: its first
    commit (one ``git log`` for the folder), whether that was the adoption,
    and its mtime; local dates. A note never committed is left out."""
    old = [note for note in notes if note.day < cutoff]
    if not old:
        return {}
    zone = s.config.zone
    added = first_added(s.repo, s.config.notes_dir)
    dating: dict[str, Dating] = {}
    for note in old:
        first = added.get(note.path)
        if first is None:
            continue
        try:
            stamp = os.stat(s.root / note.path).st_mtime
        except OSError:
            mtime = None
        else:
            mtime = datetime.fromtimestamp(stamp, UTC).astimezone(zone).date()
        dating[note.path] = Dating(
            first[0].astimezone(zone).date(), first[1] == "init", mtime
        )
    return dating


def _changes(
    s: Session, plan: PrunePlan, book: Ledger, before: str | None
) -> tuple[dict[str, str | None], dict[str, str | None]]:
    """The files the plan writes (None: deleted), and what each held when it
    was made (see ``Session.apply``)."""
    files: dict[str, str | None] = {}
    expected: dict[str, str | None] = {}
    if plan.changed:
        files[s.config.memory_file] = plan.text
        expected[s.config.memory_file] = before
    for rel in plan.notes_removed:
        # only what git holds is deleted: a line written since stays
        files[rel] = None
        expected[rel] = s.repo.committed_text(rel)
    if files or plan.ledger != book.marks():
        files.update(book.files(plan.ledger))
    register = retired_notes.REGISTER
    listed = s.state_text(register)
    if listed and plan.notes_removed:  # their retired entries go too
        kept = retired_notes.without_paths(listed, plan.notes_removed)
        if kept != listed:
            files[register] = kept or None
            expected[register] = listed
    if plan.notes_removed:  # and their recorded times (store.times)
        for rel, text in store_times.without(s.root, plan.notes_removed).items():
            files[rel] = text
            expected[rel] = s.state_text(rel)
    return files, expected
