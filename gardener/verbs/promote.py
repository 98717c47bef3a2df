"""The ``promote`` verb: file the durable entries of the daily notes into MEMORY.md.

The planner (``gardener.planning.promote``) decides; this applies its plan
in one commit, and remembers what the pass learned about the files so the
next pass reads only what changed.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import replace

from gardener.formats.dailynote import Keeping, forget_parsed
from gardener.formats.memoryfile import NEW_FILE, parse_memory
from gardener.git.repo import Identity, identity_for
from gardener.model.config import Config
from gardener.model.facts import Memory
from gardener.model.marks import SETTLED
from gardener.model.markset import Marks
from gardener.neverstore import redact
from gardener.planning.classify import Classified
from gardener.planning.promote import PromotionPlan, plan_promotion
from gardener.store import linememo, notetail, statcache, tailstore
from gardener.store import retired as retired_notes
from gardener.store.ledger import FOLDER as LEDGER_FOLDER
from gardener.store.ledger import LEGACY, Ledger, month_file
from gardener.store.linememo import LineMemo
from gardener.store.notescan import Scan, scan
from gardener.store.notetail import Tail
from gardener.store.tailstore import ledger_state
from gardener.store.times import read as recorded_times
from gardener.verbs.budget import check_loss
from gardener.verbs.guard import Redaction
from gardener.verbs.merge import restore_lost
from gardener.verbs.messages import decide_message, ledger_message, promote_message
from gardener.verbs.record import record
from gardener.verbs.results import PromoteResult
from gardener.verbs.session import Session

# ``gardener decide``'s step inside a pass: the rules' plan in, the judge's
# readings of pending entries (by ledger mark) and the judge's name out
Judging = Callable[[PromotionPlan], tuple[Mapping[str, Classified], str]]


def promote(
    session: Session,
    dry_run: bool = False,
    force: bool = False,
    judging: Judging | None = None,
) -> PromoteResult:
    """Promote durable entries of the daily notes into MEMORY.md (see docs/design.md).

    One commit for the pass, none when no belief changed (the ledger marks
    of such a pass wait for the next commit). Raises
    LossBudgetError if current entries would be lost beyond ``max_loss``
    and ``force`` is not set. With ``judging`` (``gardener decide``), the
    judge's readings replace the rules' for the pending entries it names,
    and the pass commits even when only ledger marks changed: a judgment is
    on record.
    """
    with _collector_paused():
        redacted: list[Redaction] = []
        memo = linememo.load(session.repo.git_dir)

        def attempt() -> PromoteResult | None:
            # the notes record parses are parsed once: the scan takes them
            # (``dailynote.Keeping``, dropped once the scan has them)
            with Keeping():
                if not dry_run:
                    redacted.extend(record(session)[1])
                    for lost in restore_lost(session):  # a merge that took one side
                        session.warn(
                            f"filed again #{lost.fact.id}, dropped by merge {lost.merge[:8]}"
                        )
                return _pass(session, memo, redacted, dry_run, force, judging)

        return session.replan(attempt)


def scrubbed(plan: PromotionPlan, config: Config) -> PromotionPlan:
    """``plan`` with every secret the never-store rules find in its decisions'
    and entries' texts, keys and values replaced by ``[REDACTED:<rule>]``."""
    texts = {t for d in plan.decisions for t in (d.value, d.key) if t} | {
        t for o in plan.entries for t in (o.text, o.value, o.key) if t
    }
    rules = (config.never_store, config.allow)
    scrub = scrubbed_texts(texts, *rules)

    def clean(text: str | None) -> str | None:
        if not text:
            return text
        got = scrub.get(text)
        return got if got is not None else redact.redact(text, *rules)[0]

    decisions = tuple(
        replace(d, value=clean(d.value) or "", key=clean(d.key)) for d in plan.decisions
    )
    entries = tuple(
        replace(
            o, text=clean(o.text) or "", value=clean(o.value) or "", key=clean(o.key)
        )
        for o in plan.entries
    )
    return replace(
        plan, decisions=decisions, entries=entries, text=clean(plan.text) or ""
    )


def _pass(
    s: Session,
    memo: LineMemo,
    redacted: list[Redaction],
    dry_run: bool,
    force: bool,
    judging: Judging | None = None,
) -> PromoteResult | None:
    """One plan and its commit; None if MEMORY.md changed since the plan."""
    before = s.memory_text()
    memory = parse_memory(
        NEW_FILE if before is None else before, s.config.memory_file, memo
    )
    found = scan_notes(s)  # settled notes stay unread
    _warn_unread(s, found)
    plan = plan_now(s, memory, found, memo, dry_run)
    judge = ""
    if judging is not None:
        judged, judge = judging(plan)
        if not judged:  # nothing valid to apply: decide writes nothing at all
            return PromoteResult(plan, None, True, tuple(redacted), tuple(s.warnings))
        plan = plan_now(s, memory, found, memo, dry_run, judged)
    check_loss(s, memory, plan.facts, force, dry_run)
    done = PromoteResult(plan, None, dry_run, tuple(redacted), tuple(s.warnings))
    ledger = found.ledger.files(plan.ledger)
    if dry_run:
        _learned(s, found, {}, memo, found.ledger.marks())
        # a dry run redacts nothing on disk, so what it prints is redacted here:
        # an agent's transcript must not carry a secret the real pass removes
        return replace(done, plan=scrubbed(plan, s.config))
    if not plan.changed and LEGACY not in ledger and not judge:
        # no belief changed (chatter, known values, a hold): no commit of its
        # own; the marks wait for the next commit (docs/internals.md,
        # Pending ledger marks)
        waiting = found.ledger.stash(plan.ledger)
        _learned(
            s, found, {month_file(m): None for m in waiting}, memo,
            found.ledger.marks(),
        )  # fmt: skip
        return done
    if not plan.changed:  # a judgment on record, or the old ledger split into months
        message = decide_message(plan, judge) if judge else ledger_message(plan, True)
        applied = s.apply(ledger, {}, message, promote_author(plan))
        found.ledger.committed()
        _learned(s, found, ledger, memo, plan.ledger)
        return replace(done, commit=applied.commit, warnings=tuple(s.warnings))
    # MEMORY.md first: if it changed since the plan, nothing is written
    files = {s.config.memory_file: plan.text, **ledger}
    message = decide_message(plan, judge) if judge else promote_message(plan)
    applied = s.apply(
        files, {s.config.memory_file: before}, message, promote_author(plan)
    )
    if applied.stale:
        return None
    found.ledger.committed()
    _learned(s, found, files, memo, plan.ledger)
    return replace(done, commit=applied.commit, warnings=tuple(s.warnings))


def plan_now(
    s: Session,
    memory: Memory,
    found: Scan,
    memo: LineMemo | None,
    explain: bool = False,
    judged: Mapping[str, Classified] | None = None,
) -> PromotionPlan:
    """The pass ``plan_promotion`` makes now over the notes ``found`` (a
    ``Scan``) and ``memory``; nothing is written."""
    return plan_promotion(
        found.notes, memory, s.config, s.now(), found.ledger.marks(), memo,
        retired_notes.read(s.root), explain=explain, judged=judged,
        recorded=recorded_times(s.root, [n.path for n in found.notes]),
    )  # fmt: skip


def promote_author(plan: PromotionPlan) -> Identity | None:
    """The promoted content's writer when there is one, else None (the gardener)."""
    writers = {
        d.by
        for d in plan.decisions
        if d.action in ("add", "history", "supersede", "update", "end")
    }
    return (
        identity_for(writers.pop())
        if len(writers) == 1 and None not in writers
        else None
    )


def _warn_unread(s: Session, found: Scan) -> None:
    """Warn of each note the pass could not read (not UTF-8): its entries
    wait until it is fixed, and a pass that says nothing would look done."""
    read = {note.path for note in found.notes}
    for p in found.problems:
        if p.path in read:
            continue  # read despite it (front matter that is not YAML)
        where = f"{p.path}:{p.line}" if p.line else p.path
        s.warn(f"{where}: {p.message}; its entries are not promoted until it is fixed")


def scan_notes(s: Session) -> Scan:
    """The notes a promote pass must read (see ``gardener.store.notescan``)."""
    s.check_inside()
    found = scan(s.root, s.config.notes_dir, s.repo.git_dir)
    forget_parsed()  # what record parsed is in ``found`` now
    return found


def _learned(
    s: Session,
    found: Scan,
    written: Mapping[str, str | None],
    memo: LineMemo,
    ledger: AbstractSet[str],
) -> None:
    """Save what the pass learned about files (``written``: what it wrote;
    ``ledger``: marks the ledger files hold now, of the months read at
    least) and MEMORY.md's lines."""
    linememo.save(s.repo.git_dir, memo)
    months = {
        rel.removeprefix(LEDGER_FOLDER + "/")
        for rel in written
        if rel.startswith(LEDGER_FOLDER + "/")
    }
    statcache.save(s.repo.git_dir, found.learned(months))
    if found.tails or found.kept_tails:
        tailstore.save(s.repo.git_dir, _tails(s, found, ledger))


def _tails(s: Session, found: Scan, ledger: AbstractSet[str]) -> dict[str, Tail]:
    """The note tails to keep: those of the notes parsed now, as the ledger
    files are now (``ledger``: the marks they hold, of the months read), and
    the others kept before whose notes are still there."""
    out = {
        rel: kept
        for rel, kept in found.kept_tails.items()
        if rel not in found.tails and (s.root / rel).is_file()
    }
    for rel, got in found.tails.items():
        month = rel.rpartition("/")[2][:7]
        # the stamps the scan took: a file the pass did not write is not read
        files = ledger_state(
            s.root, found.ledger.pending, month, found.ledger_states.get(month)
        )
        marks: Iterable[str] = ledger
        carried: frozenset[str] = frozenset()
        if month in found.ledger.partial and got.base is not None:
            # read in part: what the tail it resumed from knew of the rest
            carried = frozenset(m for m in got.base.rest if SETTLED not in m)
        elif month in found.vouched:  # read whole at the end: as it is now
            book = Ledger(s.root, pending=found.ledger.pending)
            book.read([month])
            marks = book.months[month]
        held = set(Marks(marks).of_path(rel))
        out[rel] = notetail.tail(got, held, carried, files)
    return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one pass, then restore it.

    A pass over many notes allocates a few hundred thousand objects that live
    until it ends and hold no cycles; the collector would walk them again and
    again (about a tenth of a large pass) and free nothing. Nor does it walk
    them once at the end: the first allocation after ``enable`` would collect
    the youngest generation, every object the pass made (~40-70 ms on 18,000
    facts, freeing a few dozen), so they are moved to the oldest one first
    (``freeze`` then ``unfreeze``: two list splices), where a full collection
    meets them in its own time.
    """
    was_enabled = gc.isenabled()
    # a host process that froze objects of its own keeps them frozen
    frozen = gc.get_freeze_count()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not frozen:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def scrubbed_texts(
    texts: Iterable[str],
    extra: Sequence[tuple[str, str]] = (),
    allow: Sequence[str] = (),
) -> dict[str, str]:
    """``{t: redact.redact(t, extra, allow)[0] for t in texts}``, the texts
    read once together (``redact.find_each``) and only those with a finding
    redacted: a dry run over 18,000 entries asked ``redact`` 90,000 times
    (docs/internals.md, "A dry run's plan scrubbed in one read")."""
    order = sorted(set(texts))
    found = redact.find_each(order, extra, allow)
    return {
        t: redact.redact(t, extra, allow)[0] if hit else t
        for t, hit in zip(order, found, strict=True)
    }
