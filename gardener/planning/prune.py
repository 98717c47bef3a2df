"""Plan a prune pass (pure): the compost (see docs/design.md).

- Superseded entries the gardener filed (with an id) whose ``until`` is older
  than the retention are deleted; a line typed by hand (no id) is kept.
- Current entries whose ``expires`` has passed move to Superseded
  (``until`` = ``expires``, ``reason=expired``).
- Daily notes older than the TTL are deleted only when every durable entry in
  them was processed by a promotion pass, when none holds an undecided entry
  (one no rule placed) or ``review_grace_days`` have passed since the TTL, and
  when the date in the file name is plausible (not more than
  ``PLAUSIBLE_LAG_DAYS`` before the note was first committed, see ``Dating``).
Everything pruned stays in git history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from gardener.formats.memoryfile import render_fact, render_memory
from gardener.model.config import Config
from gardener.model.facts import Fact, Memory, Note, Problem
from gardener.model.kinds import SUPERSEDED
from gardener.model.marks import fingerprints
from gardener.model.markset import Marks
from gardener.model.validtime import (
    current_at,
    format_instant,
    is_current,
    parse_instant,
)
from gardener.planning.classify import classify

# a note first committed (or last modified) more than this many days after the
# date in its name is suspect: a late-night note for yesterday, or a few days
# back-filled after a break, stay within it; a wrong year or month does not
PLAUSIBLE_LAG_DAYS = 7


@dataclass(frozen=True)
class Dating:
    """What tells when a note was written, to check the date in its name.

    ``first``: the local date of the first commit that added it (None: never
    committed). ``adopted``: that commit is the workspace's adoption (``init``),
    which says when the gardener arrived, not when the note was written.
    ``mtime``: the local date of the file's last modification.
    """

    first: date | None
    adopted: bool = False
    mtime: date | None = None


@dataclass(frozen=True)
class KeptNote:
    """A note past its TTL that a pass keeps, and why.

    ``why``: "never committed", "date" (its name's date is implausible),
    "durable" (durable entries not promoted yet), "undecided" (entries no
    rule placed, within ``review_grace_days``), "unread" (lines the parser
    cannot read: a fence never closed) or "budget" (more notes are due than
    one pass may delete). ``until``: for "undecided",
    the first local day a prune may delete it. ``lines``: the entries meant.
    """

    path: str
    why: str
    reason: str  # the sentence the CLI prints
    until: date | None = None
    lines: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "reason": self.reason,
            "why": self.why,
            "until": self.until.isoformat() if self.until else None,
            "lines": list(self.lines),
        }


@dataclass(frozen=True)
class PrunePlan:
    """What a prune pass removes, and what it keeps and why."""

    facts: tuple[Fact, ...]
    text: str  # MEMORY.md after the pass
    changed: bool
    superseded_removed: tuple[Fact, ...]
    expired: tuple[Fact, ...]  # left current memory
    notes_removed: tuple[str, ...]  # workspace-relative paths
    notes_kept: tuple[KeptNote, ...]
    ledger: AbstractSet[str]
    # notes deleted after their review grace with entries still undecided: path -> count
    undecided_removed: Mapping[str, int] = field(default_factory=dict)

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
        for path in self.notes_removed:
            n = self.undecided_removed.get(path)
            why = (
                f"past its TTL and review grace; {n} undecided entr{'ies' if n != 1 else 'y'} never decided"
                if n
                else "past its TTL; every durable entry promoted"
            )
            out.append(f"- delete {path} ({why})")
        return out


def _label(fact: Fact) -> str:
    return f"{fact.key}: {fact.value}" if fact.key else fact.value


def lost_current(
    before: Iterable[Fact], after: Iterable[Fact], today: str
) -> list[Fact]:
    """Facts standing before a pass that are not standing after it nor replaced.

    A fact superseded or corrected by a new current fact is not lost. Expiry
    counts as a loss: a fact whose ``expires`` has passed stands until a pass
    moves it to Superseded (a clock set years ahead must not expire all memory
    in one pass; see docs/design.md, Prune).
    """
    after = list(after)
    still = {f.id for f in after if standing(f, today)}
    now_current = {f.id for f in after if is_current(f, today)}
    by_id = {f.id: f for f in after}
    lost = []
    for fact in before:
        if not standing(fact, today) or fact.id in still:
            continue
        # replaced counts only by a value current now (one already expired
        # replaces nothing)
        successor = by_id.get(fact.id)
        if successor is not None and successor.get("superseded-by") in now_current:
            continue
        lost.append(fact)
    return lost


def standing(fact: Fact, today: str) -> bool:
    """Outside Superseded and not ended by ``until`` (``expires`` not looked at):
    what a pass's loss budget counts."""
    return current_at(fact.superseded, fact.get("until"), None, today)


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
    ledger: AbstractSet[str],
    dating: Mapping[str, Dating],
    force: bool = False,
    unread: Mapping[str, Problem] | None = None,
) -> PrunePlan:
    """Plan one prune pass.

    Args:
        memory: MEMORY.md as parsed now.
        notes: every parsed daily note.
        config: retention and TTL in days.
        now: local wall-clock time in the workspace timezone.
        ledger: fingerprints of entries a promotion pass has processed.
        dating: note path -> what tells when it was written (missing: never
            committed); needed for the notes past the TTL only.
        force: delete every note due; else at most ``max_loss`` of the notes
            or ``NOTES_ALWAYS`` (a week of them, what a week away leaves due),
            the oldest first, and the rest wait (why "budget"): a clock set
            years ahead must not empty the folder in one pass.
        unread: note path -> the problem that leaves some of its lines
            unread (a code fence or front matter never closed, a merge
            conflict): such a note is kept until the problem is fixed, since
            nobody knows what its unread lines hold (why "unread").
    """
    kept, removed, expired = _compost(memory, config, now)
    kept, evicted = _within_budget(memory, kept, config.memory_budget_chars)
    removed += evicted
    notes_removed: list[str] = []
    notes_kept: list[KeptNote] = []
    undecided_removed: dict[str, int] = {}
    oldest = now.date() - timedelta(days=config.note_ttl_days)
    for note in notes:
        if note.day >= oldest:
            continue
        problem = (unread or {}).get(note.path)
        if problem is not None:
            notes_kept.append(_unread(problem))
            continue
        why = _why_kept(note, config, ledger, dating.get(note.path), now.date(), force)
        if isinstance(why, KeptNote):
            notes_kept.append(why)
            continue
        notes_removed.append(note.path)
        if why:
            undecided_removed[note.path] = why
    limit = int(max(NOTES_ALWAYS, config.max_loss * len(notes)))
    if not force and len(notes_removed) > limit:
        waiting = notes_removed[limit:]
        notes_removed = notes_removed[:limit]
        notes_kept += [_over_budget(path, limit, len(notes)) for path in waiting]
        undecided_removed = {
            p: n for p, n in undecided_removed.items() if p in notes_removed
        }
    gone_paths = set(notes_removed)
    kept = _unlinked(kept, {f.id for f in removed if f.id})
    new_ledger = Marks(m for m in ledger if m.partition("\t")[0] not in gone_paths)
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
        undecided_removed,
    )


NOTES_ALWAYS = 7  # notes one prune may always delete: a week of daily notes


def _unread(problem: Problem) -> KeptNote:
    where = f"line {problem.line}: " if problem.line else ""
    return KeptNote(
        problem.path, "unread",
        f"{where}{problem.message}; kept until that is fixed",
        lines=(problem.line,) if problem.line else (),
    )  # fmt: skip


def _over_budget(path: str, limit: int, notes: int) -> KeptNote:
    reason = (
        f"past its TTL, waits for a later pass: one pass deletes at most {limit}"
        f" of {notes} notes (a week of notes, or max_loss of them if more);"
        " --force deletes every note due"
    )
    return KeptNote(path, "budget", reason)


def _within_budget(
    memory: Memory, kept: list[Fact], budget: int
) -> tuple[list[Fact], list[Fact]]:
    """(``kept`` without the superseded entries that must leave for MEMORY.md
    to fit ``budget`` characters, those entries): the longest-ended first
    (earliest ``until``), and no more than needed. Current entries never leave
    for size (``check`` reports a budget their own size breaks); what leaves
    stays in git, where ``why`` reads what prune deleted back."""
    size = len(render_memory(memory, kept))
    if size <= budget or budget <= 0:
        return kept, []
    history = sorted(
        (f for f in kept if f.superseded and f.id),  # a hand-typed line stays
        key=lambda f: (f.get("until") or "", f.line),
    )
    leaving: list[Fact] = []
    for fact in history:
        if size <= budget:
            break
        leaving.append(fact)
        size -= len(render_fact(fact)) + 1 + sum(len(t) + 1 for t in fact.tail)
    gone = {id(f) for f in leaving}
    rest = [f for f in kept if id(f) not in gone]
    more = [f for f in history if id(f) not in gone]
    while more and len(render_memory(memory, rest)) > budget:  # the estimate fell short
        gone.add(id(more[0]))
        leaving.append(more.pop(0))
        rest = [f for f in rest if id(f) not in gone]
    return rest, leaving


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
            # a line typed by hand (no id) is the person's: never deleted by age
            if fact.id and end and _parses(end) and parse_instant(end) < cutoff:
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
    note: Note,
    config: Config,
    ledger: AbstractSet[str],
    dating: Dating | None,
    today: date,
    force: bool = False,
) -> KeptNote | int:
    """Why a note past the TTL stays; else the count of its undecided entries
    (deleted only under ``force``: past their review grace a note holding
    them is kept, and said to wait for a judge, until one answers)."""
    if dating is None or dating.first is None:
        return KeptNote(note.path, "never committed", "never committed")
    misdated = _misdated(note.day, dating)
    if misdated:
        return KeptNote(note.path, "date", misdated)
    marks = fingerprints(note)
    pending: list[int] = []
    undecided: list[int] = []
    for e in note.entries:
        placed = classify(e, config)
        if placed.durable and marks[e] not in ledger:
            pending.append(e.line)
        elif placed.undecided and marks[e] not in ledger and config.judge != "none":
            # until a judge decides them (the ledger will say), the rules
            # alone do not know whether they matter: never lost unseen
            # (with judge: none the rules are final: they are transient)
            undecided.append(e.line)
    if pending:
        return KeptNote(
            note.path, "durable",
            f"{_entries(len(pending), 'durable')} not promoted yet (lines {_lines(pending)})",
            lines=tuple(pending),
        )  # fmt: skip
    until = note.day + timedelta(
        days=config.note_ttl_days + config.review_grace_days + 1
    )
    if undecided and today < until:
        return KeptNote(
            note.path, "undecided",
            f"{_entries(len(undecided), 'undecided')}, kept until {until} (lines {_lines(undecided)})",
            until, tuple(undecided),
        )  # fmt: skip
    if undecided and not force:
        # no note holding an entry nobody decided is deleted unasked
        return KeptNote(
            note.path, "undecided",
            f"{_entries(len(undecided), 'undecided')} past their review grace"
            f" ({until}): answer them (gardener review), or prune --force deletes"
            f" the note (lines {_lines(undecided)})",
            until, tuple(undecided),
        )  # fmt: skip
    return len(undecided)


def _entries(n: int, what: str) -> str:
    return f"{n} {what} entr{'ies' if n != 1 else 'y'}"


def _lines(lines: list[int]) -> str:
    return ", ".join(str(n) for n in lines[:5]) + (", ..." if len(lines) > 5 else "")


def _misdated(day: date, dating: Dating) -> str | None:
    """Why the date ``day`` in a note's name is implausible, or None.

    The earliest sign of when it was written must not come more than
    ``PLAUSIBLE_LAG_DAYS`` after ``day``: its first commit, unless that is the
    adoption, and its mtime when older than that commit (a file copied with
    its times, a note adopted with them). A note adopted without its times
    (copied, cloned) has no sign: its name is trusted, or months of adopted
    notes could never be pruned.
    """
    signs: list[tuple[date, str]] = []
    if dating.first is not None and not dating.adopted:
        signs.append((dating.first, "first committed"))
    if dating.mtime is not None and (
        dating.first is None or dating.mtime < dating.first
    ):
        signs.append((dating.mtime, "last modified"))
    if not signs:
        return None
    earliest, what = min(signs)
    if (earliest - day).days <= PLAUSIBLE_LAG_DAYS:
        return None
    return f"named {day} but {what} {earliest}: check the date in its name"


def _parses(text: str) -> bool:
    try:
        parse_instant(text)
    except ValueError:
        return False
    return True
