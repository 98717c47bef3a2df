"""The ``forget`` verb: retire the current entries that match, in one commit
(the planner: ``gardener.planning.forget``)."""

from __future__ import annotations

from gardener.errors import UsageError
from gardener.planning.forget import ForgetPlan, Selector, plan_forget
from gardener.recall.hits import Hit
from gardener.store import retired as retired_notes
from gardener.verbs.budget import check_loss, check_note_loss
from gardener.verbs.messages import forget_message
from gardener.verbs.recall import recall
from gardener.verbs.record import record
from gardener.verbs.results import ForgetResult
from gardener.verbs.session import Session


def selector_of(
    query: str | None, key: str | None, source: str | None, by: str | None
) -> Selector:
    """What to forget; UsageError when nothing says what."""
    selector = Selector(key, query, source, by)
    if selector.empty():
        raise UsageError("say what to forget: a QUERY, --key, --source or --by")
    return selector


def forget(
    session: Session, selector: Selector, *, dry_run: bool = False, force: bool = False
) -> ForgetResult:
    """Retire the current entries ``selector`` matches (see ``Workspace.forget``).

    Raises LossBudgetError when more than ``max_loss`` of current entries, or
    more than ``NOTE_LOSS_LIMIT`` note entries, would go without ``force``.
    """

    def attempt() -> tuple[ForgetPlan, str | None] | None:
        if not dry_run:
            record(session)
        return _pass(session, selector, dry_run, force)

    plan, commit = session.replan(attempt)
    return ForgetResult(plan, commit, dry_run, tuple(session.warnings))


def _pass(
    s: Session, selector: Selector, dry_run: bool, force: bool
) -> tuple[ForgetPlan, str | None] | None:
    """One plan and its commit; None if a file changed since the plan."""
    register = retired_notes.REGISTER
    before = s.memory_text()
    listed = s.state_text(register)
    memory = s.read_memory()
    plan = plan_forget(
        memory, selector, s.now(), notes=_note_hits(s, selector), register=listed or ""
    )
    check_loss(s, memory, plan.facts, force, dry_run)
    check_note_loss(s, len(plan.notes), force, dry_run)
    if dry_run or not plan.changed:
        return plan, None
    file = s.config.memory_file
    files: dict[str, str | None] = {}
    if plan.text != memory.text:
        files[file] = plan.text
    if plan.notes:
        files[register] = plan.register
    applied = s.apply(files, {file: before, register: listed}, forget_message(plan))
    return None if applied.stale else (plan, applied.commit)


def _note_hits(s: Session, selector: Selector) -> list[Hit]:
    """The daily-note entries on disk that hold the selector's query, or
    its key's words, and are not retired yet: also those a plain recall
    passes over now (a key's older note, a line MEMORY.md speaks for),
    which would answer again once the MEMORY.md entry is retired, or be
    filed by promote."""
    words = selector.query or selector.key
    if not words:
        return []
    file = s.config.memory_file
    hits = recall(s.root, s.config, s.clock, words, limit=None, everything=True)
    return [h for h in hits if h.path != file and h.status == "note"]
