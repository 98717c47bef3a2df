"""Plan a prune pass (pure): the compost (see docs/design.md).

- Superseded entries whose ``until`` is older than the retention are deleted.
- Current entries whose ``expires`` has passed move to Superseded
  (``until`` = ``expires``, ``reason=expired``).
- Daily notes older than the TTL are deleted only when every durable entry in
  them was processed by a promotion pass, and only when the date in the file
  name is plausible (not a year or more before the file was first committed).
Everything pruned stays in git history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from gardener.formats.memoryfile import render_memory
from gardener.model.config import Config
from gardener.model.facts import Fact, Memory, Note
from gardener.model.kinds import SUPERSEDED
from gardener.model.marks import fingerprints
from gardener.model.validtime import format_instant, is_current, parse_instant
from gardener.planning.classify import classify

IMPLAUSIBLE_DAYS = 365  # a note named this long before its first commit is suspect


@dataclass(frozen=True)
class PrunePlan:
    """What a prune pass removes, and what it keeps and why."""

    facts: tuple[Fact, ...]
    text: str  # MEMORY.md after the pass
    changed: bool
    superseded_removed: tuple[Fact, ...]
    expired: tuple[Fact, ...]  # left current memory
    notes_removed: tuple[str, ...]  # workspace-relative paths
    notes_kept: tuple[tuple[str, str], ...]  # (path, why it was not deleted)
    ledger: frozenset[str]

    def summary(self, dry_run: bool = False) -> str:
        """``removed 2 superseded, expired 1, deleted 3 notes`` (only what happened);
        with ``dry_run``, ``would remove ...``."""
        parts = []
        if self.superseded_removed:
            parts.append(
                f"remove{'' if dry_run else 'd'} {len(self.superseded_removed)} superseded"
            )
        if self.expired:
            parts.append(f"expire{'' if dry_run else 'd'} {len(self.expired)}")
        if self.notes_removed:
            n = len(self.notes_removed)
            parts.append(
                f"delete{'' if dry_run else 'd'} {n} note{'s' if n != 1 else ''}"
            )
        if dry_run and parts:
            parts[0] = "would " + parts[0]
        return ", ".join(parts) or "nothing to prune"

    def lines(self) -> list[str]:
        """One line per change, for the commit body and the CLI."""
        out = [
            f"- remove superseded {_label(f)} (until {f.until})"
            for f in self.superseded_removed
        ]
        out += [
            f"- expire {_label(f)} (expires {f.get('expires')})" for f in self.expired
        ]
        out += [
            f"- delete {path} (past its TTL; every durable entry promoted)"
            for path in self.notes_removed
        ]
        return out


def _label(fact: Fact) -> str:
    return f"{fact.key}: {fact.value}" if fact.key else fact.value


def lost_current(
    before: Iterable[Fact], after: Iterable[Fact], today: str
) -> list[Fact]:
    """Facts current before a pass that are not current after it nor replaced.

    A fact superseded or corrected by a new current fact is not lost.
    """
    after = list(after)
    now_current = {f.id for f in after if is_current(f, today)}
    by_id = {f.id: f for f in after}
    lost = []
    for fact in before:
        if not is_current(fact, today) or fact.id in now_current:
            continue
        successor = by_id.get(fact.id)
        if successor is not None and successor.get("superseded-by") in now_current:
            continue
        lost.append(fact)
    return lost


def loss_allowed(lost: int, current: int, max_loss: float) -> bool:
    """True if removing ``lost`` of ``current`` entries stays within the budget.

    One entry may always go, so a small memory can still expire an entry.
    """
    return lost <= max(1.0, max_loss * current)


def _unlinked(facts: list[Fact], gone: set[str]) -> list[Fact]:
    """``facts`` without their ``supersedes``/``superseded-by`` links to the
    entries in ``gone`` (ids): a link to an entry no longer in the file would
    read as a broken reference (``check``); ``why`` finds the pruned entry in
    git history, where it stays."""
    if not gone:
        return facts
    out = []
    for fact in facts:
        drop = {
            name: None
            for name in ("supersedes", "superseded-by")
            if fact.get(name) in gone
        }
        out.append(fact.with_attrs(**drop) if drop else fact)
    return out


def plan_prune(
    memory: Memory,
    notes: Sequence[Note],
    config: Config,
    now: datetime,
    ledger: frozenset[str],
    first_commit: Mapping[str, date | None],
) -> PrunePlan:
    """Plan one prune pass.

    Args:
        memory: MEMORY.md as parsed now.
        notes: every parsed daily note.
        config: retention and TTL in days.
        now: local wall-clock time in the workspace timezone.
        ledger: fingerprints of entries a promotion pass has processed.
        first_commit: note path -> local date of its first commit (None: never).
    """
    kept, removed, expired = _compost(memory, config, now)
    notes_removed: list[str] = []
    notes_kept: list[tuple[str, str]] = []
    oldest = now.date() - timedelta(days=config.note_ttl_days)
    for note in notes:
        if note.day >= oldest:
            continue
        why = _why_kept(note, config, ledger, first_commit.get(note.path))
        if why is None:
            notes_removed.append(note.path)
        else:
            notes_kept.append((note.path, why))
    gone_paths = set(notes_removed)
    kept = _unlinked(kept, {f.id for f in removed if f.id})
    new_ledger = frozenset(m for m in ledger if m.split("\t", 1)[0] not in gone_paths)
    facts = tuple(kept)
    text = render_memory(memory, facts) if (removed or expired) else memory.text
    return PrunePlan(
        facts,
        text,
        text != memory.text,
        tuple(removed),
        tuple(expired),
        tuple(notes_removed),
        tuple(notes_kept),
        new_ledger,
    )


def _compost(
    memory: Memory, config: Config, now: datetime
) -> tuple[list[Fact], list[Fact], list[Fact]]:
    """(the facts kept, expired ones moved to Superseded; the superseded facts
    past the retention, deleted; the facts that expired, as they were)."""
    today = format_instant(now)
    cutoff = now - timedelta(days=config.superseded_retention_days)
    kept: list[Fact] = []
    removed: list[Fact] = []
    expired: list[Fact] = []
    for fact in memory.facts:
        if fact.superseded:
            end = fact.get("until")
            if end and _parses(end) and parse_instant(end) < cutoff:
                removed.append(fact)
                continue
            kept.append(fact)
            continue
        ends = fact.get("expires")
        if ends and _parses(ends) and not is_current(fact, today):
            gone = replace(
                fact.with_attrs(until=ends, reason="expired", kind=fact.kind),
                section=SUPERSEDED,
                struck=True,
            )
            expired.append(fact)
            kept.append(gone)
            continue
        kept.append(fact)
    return kept, removed, expired


def _why_kept(
    note: Note, config: Config, ledger: frozenset[str], first: date | None
) -> str | None:
    """Why a note past the TTL stays (``first``: the local date of its first
    commit, None if never committed); None if it may be deleted."""
    if first is None:
        return "never committed"
    if (first - note.day).days >= IMPLAUSIBLE_DAYS:
        return (
            f"named {note.day} but first committed {first}: check the date in its name"
        )
    marks = fingerprints(note)
    pending = [
        e
        for e in note.entries
        if marks[e] not in ledger and classify(e, config).durable
    ]
    if pending:
        lines = ", ".join(str(e.line) for e in pending[:5])
        return f"{len(pending)} durable entries not promoted yet (lines {lines})"
    return None


def _parses(text: str) -> bool:
    try:
        parse_instant(text)
    except ValueError:
        return False
    return True
