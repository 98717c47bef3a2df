"""The loss budget: a pass that would take too much out of current memory
stops (LossBudgetError) unless ``--force``; a dry run warns instead."""

from __future__ import annotations

from collections.abc import Sequence

from gardener.errors import LossBudgetError
from gardener.model.facts import Fact, Memory
from gardener.model.validtime import format_instant
from gardener.planning.forget import NOTE_LOSS_LIMIT
from gardener.planning.prune import loss_allowed, lost_current, standing
from gardener.verbs.session import Session


def check_loss(
    s: Session, memory: Memory, after: Sequence[object], force: bool, dry_run: bool
) -> None:
    """Raise LossBudgetError if the pass would take more than ``max_loss``
    of the current entries out of current memory (expiries included), unless
    ``force``. A dry run raises nothing; it warns that the real run would need
    ``--force``."""
    if force:  # allowed to lose any
        return
    today = format_instant(s.now())
    current = [f for f in memory.facts if standing(f, today)]
    if not current:  # nothing to lose
        return
    lost = lost_current(*_touched(current, after), today)  # type: ignore[arg-type]
    if not lost or loss_allowed(len(lost), len(current), s.config.max_loss):
        return
    names = ", ".join(f.key or f.value[:30] for f in lost[:10])
    why = (
        f"this pass would remove {len(lost)} of {len(current)} current entries"
        f" ({names}), over max_loss={s.config.max_loss}"
    )
    if dry_run:
        s.warnings.append(f"{why}: the real run needs --force")
        return
    raise LossBudgetError(f"{why}; rerun with --force if that is intended")


def _touched(
    current: Sequence[Fact], after: Sequence[Fact]
) -> tuple[list[Fact], list[Fact]]:
    """(the facts of ``current`` a pass replaced or dropped, the facts of
    ``after`` that ``lost_current`` reads for them): what it answers for all.

    A fact a pass kept is the very object in ``after`` (facts are frozen), so
    it stands as before: only the others can be lost. For them ``lost_current``
    asks after facts by id (theirs, then their successors' ``superseded-by``),
    so the after facts holding those ids, in order, give the same answer; a
    pass over 17,000 entries that changes ten reads ten, not 17,000.
    """
    kept = {id(f) for f in after}
    touched = [f for f in current if id(f) not in kept]
    if not touched:
        return [], []
    ids = {f.id for f in touched}
    mine = [f for f in after if f.id in ids]
    successors = {f.id: f for f in mine}
    ids |= {successors[i].get("superseded-by") for i in ids if i in successors}
    return touched, [f for f in after if f.id in ids]


def check_note_loss(s: Session, count: int, force: bool, dry_run: bool) -> None:
    """Raise LossBudgetError if a forget would retire more than
    ``NOTE_LOSS_LIMIT`` daily-note entries, unless ``force`` (a broad
    query, "the", matches hundreds); a dry run warns instead."""
    if force or count <= NOTE_LOSS_LIMIT:
        return
    why = (
        f"this forget would retire {count} daily-note entries, over"
        f" {NOTE_LOSS_LIMIT} (a narrower QUERY, or --dry-run to list them)"
    )
    if dry_run:
        s.warnings.append(f"{why}: the real run needs --force")
        return
    raise LossBudgetError(f"{why}; rerun with --force if that is intended")
