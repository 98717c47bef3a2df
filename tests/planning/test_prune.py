"""A prune pass leaves MEMORY.md whole (no link to an entry it deleted), keeps
the notes that hold what is not decided yet, and checks the dates in names."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path

from gardener import Workspace
from gardener.formats.memoryfile import NEW_FILE, parse_memory
from gardener.formats.rules import parse_rules
from gardener.model.config import Config
from gardener.model.facts import Note
from gardener.model.marks import fingerprints
from gardener.planning.prune import PLAUSIBLE_LAG_DAYS, Dating, PrunePlan, plan_prune
from gardener.store.settings import default_config
from tests.helpers import new_workspace, note


def test_a_routine_prune_leaves_no_broken_reference_for_check(tmp_path: Path):
    """Prune deleted a superseded entry but kept the current one's
    ``supersedes=`` naming it: ``check`` then reported a broken reference
    (exit 4) after every retention period."""
    first = new_workspace(tmp_path, "2026-01-05T09:00")
    first.note("we use Postgres", kind="decision", key="database")
    first.promote()
    later = Workspace(first.root, now_override="2026-02-01T09:00")
    later.note("we use SQLite", kind="decision", key="database")
    later.promote()
    assert "supersedes=" in (first.root / "MEMORY.md").read_text(encoding="utf-8")
    months = Workspace(first.root, now_override="2026-08-01T09:00")
    assert months.prune().plan.superseded_removed
    text = (first.root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Postgres" not in text and "supersedes=" not in text
    assert [p for p in months.check() if p.kind == "reference"] == []
    assert [h.value for h in months.recall(key="database")] == ["we use SQLite"]


NOW = datetime(2026, 2, 10, 9, 0)  # past the TTL of 2026-01-05, within its grace
COMMITTED = Dating(date(2026, 1, 5))  # committed on its day
CHATTER = "- lunch with the team, long and loud\n- 09:00 event: deployed v2\n"


def _plan(
    *notes: Note,
    now: datetime = NOW,
    dating: dict[str, Dating] | None = None,
    ledger: frozenset[str] = frozenset(),
    config: Config | None = None,
    force: bool = False,
) -> PrunePlan:
    return plan_prune(
        parse_memory(NEW_FILE),
        list(notes),
        config or default_config(),
        now,
        ledger,
        dating if dating is not None else {n.path: COMMITTED for n in notes},
        force=force,
    )


def test_a_note_with_undecided_entries_waits_out_its_review_grace():
    """Issue 14: an entry no rule places is undecided, not transient: its
    note outlives the TTL by review_grace_days, and prune says until when."""
    chatter = note("2026-01-05", CHATTER)
    kept = _plan(chatter).notes_kept
    assert [(k.path, k.why, k.until, k.lines) for k in kept] == [
        ("memory/2026-01-05.md", "undecided", date(2026, 2, 19), (1,))
    ]
    assert kept[0].reason == "1 undecided entry, kept until 2026-02-19 (lines 1)"
    # 30 days of TTL and 14 of grace later it still stays (issue 14: no note
    # holding an undecided entry is deleted unasked), and says what to do
    (late,) = _plan(chatter, now=datetime(2026, 2, 19, 0, 0)).notes_kept
    assert late.why == "undecided" and "prune --force deletes" in late.reason
    assert "gardener review" in late.reason
    gone = _plan(chatter, now=datetime(2026, 2, 19, 0, 0), force=True)
    assert gone.notes_removed == ("memory/2026-01-05.md",)
    assert gone.undecided_removed == {"memory/2026-01-05.md": 1}
    assert "1 undecided entry never decided" in gone.lines()[0]
    assert _plan(chatter, now=datetime(2026, 2, 18, 23, 59)).notes_kept


def test_review_grace_days_is_a_setting():
    config = replace(default_config(), review_grace_days=0)
    chatter = note("2026-01-05", CHATTER)
    (kept,) = _plan(chatter, config=config).notes_kept
    assert "past their review grace (2026-02-05)" in kept.reason
    gone = _plan(chatter, config=config, force=True)
    assert gone.notes_removed == ("memory/2026-01-05.md",)
    text = "---\nreview_grace_days: 3\n---\n"
    assert parse_rules(text).review_grace_days == 3
    assert Config().review_grace_days == 14


def test_a_note_of_placed_entries_only_goes_at_its_ttl():
    placed = note(
        "2026-01-05", "- 09:00 event: deployed v2\n- debugging a timeout right now\n"
    )
    assert _plan(placed).notes_removed == ("memory/2026-01-05.md",)


def test_durable_entries_not_promoted_keep_a_note_whatever_the_grace():
    durable = note("2026-01-05", "- we decided to use SQLite\n- lunch was long\n")
    later = datetime(2027, 1, 1, 9, 0)
    (kept,) = _plan(durable, now=later).notes_kept
    assert (kept.why, kept.lines) == ("durable", (1,))
    assert "1 durable entry not promoted yet" in kept.reason
    marks = frozenset(fingerprints(durable).values())
    assert _plan(durable, now=later, ledger=marks).notes_removed == (durable.path,)


def test_the_date_in_a_name_must_be_near_its_first_commit():
    """Issue 14: a note named 356 days before its first commit was deleted
    (the guard started at 365 days)."""
    wrong = note("2025-01-05", "- 09:00 event: deployed v2\n")
    plan = _plan(wrong, dating={wrong.path: Dating(date(2025, 12, 27))})
    (kept,) = plan.notes_kept
    assert kept.why == "date"
    assert kept.reason == (
        "named 2025-01-05 but first committed 2025-12-27: check the date in its name"
    )
    assert plan.notes_removed == ()
    for lag in (0, 1, PLAUSIBLE_LAG_DAYS):  # late at night, back-filled after a break
        first = Dating(date(2025, 1, 5) + timedelta(days=lag))
        assert _plan(wrong, dating={wrong.path: first}).notes_removed == (wrong.path,)
    late = Dating(date(2025, 1, 5) + timedelta(days=PLAUSIBLE_LAG_DAYS + 1))
    assert _plan(wrong, dating={wrong.path: late}).notes_kept[0].why == "date"
    # copied in with its times (cp -p, rsync -a): the mtime says when it was written
    copied = Dating(date(2025, 12, 27), mtime=date(2025, 1, 5))
    assert _plan(wrong, dating={wrong.path: copied}).notes_removed == (wrong.path,)


def test_adopted_notes_are_judged_by_their_mtime_if_it_predates_adoption():
    """Months of notes adopted by init all have the adoption as first commit:
    that says nothing of when they were written, so it is not held against
    their names; an mtime older than the adoption still is."""
    old = note("2025-06-01", "- 09:00 event: deployed v2\n")
    adoption = date(2026, 2, 1)
    for mtime in (None, adoption, date(2026, 2, 20), date(2025, 6, 2)):
        dating = {old.path: Dating(adoption, adopted=True, mtime=mtime)}
        assert _plan(old, dating=dating).notes_removed == (old.path,), mtime
    edited = {old.path: Dating(adoption, adopted=True, mtime=date(2025, 12, 1))}
    (kept,) = _plan(old, dating=edited).notes_kept
    assert "last modified 2025-12-01" in kept.reason


def test_a_note_never_committed_stays():
    chatter = note("2026-01-05", "- 09:00 event: deployed v2\n")
    (kept,) = _plan(chatter, dating={}).notes_kept
    assert kept.why == "never committed"
