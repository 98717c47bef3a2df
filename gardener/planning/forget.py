"""Plan a forget pass (pure): retire entries, so they leave recall but stay auditable.

Retiring is the default way to forget (see docs/design.md): a MEMORY.md entry gets
``until`` = now and ``reason=retired`` and moves to Superseded, so ``why`` and
``--as-of`` still show it for the time it held. A daily-note entry recall
answers with (within the TTL) is entered in the register of retired note
entries (``gardener.formats.retired``): recall and promote pass over it, the note
keeps it. Erasing content from history is ``purge``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from gardener.formats import retired as retired_notes
from gardener.formats.memoryfile import render_memory
from gardener.lexicon.match import unspaced
from gardener.model.facts import Fact, Memory, normalize_key, normalize_value
from gardener.model.hit import Hit
from gardener.model.kinds import SUPERSEDED
from gardener.model.validtime import format_instant, is_current

# daily-note entries one forget retires without --force: a query as broad as
# "the" or "deploy" matches hundreds, and the loss budget (max_loss) counts
# MEMORY.md's entries only
NOTE_LOSS_LIMIT = 25


@dataclass(frozen=True)
class Selector:
    """Which current entries to forget; every given field must match."""

    key: str | None = None  # compared as keys are (case, space, Unicode)
    query: str | None = None  # every word of it begins a word of "key: value"
    source: str | None = None  # the entry's ``source`` attribute, exactly
    by: str | None = None  # the entry's ``by`` (agent), exactly

    def empty(self) -> bool:
        return not (self.key or self.query or self.source or self.by)

    def matches(self, fact: Fact) -> bool:
        if self.key is not None and fact.norm_key != normalize_key(self.key):
            return False
        if self.query is not None and not self.matches_text(
            f"{fact.key or ''} {fact.value}"
        ):
            return False
        if self.source is not None and fact.get("source") != self.source:
            return False
        return self.by is None or fact.get("by") == self.by

    def matches_note(self, hit: Hit) -> bool:
        """Whether a daily-note entry (a recall hit) is one to forget: by the
        query, the key, or both. A note entry carries no ``source`` or ``by``
        for recall: a selector with either matches none."""
        if self.source is not None or self.by is not None:
            return False
        if self.key is not None and (
            hit.key is None or normalize_key(hit.key) != normalize_key(self.key)
        ):
            return False
        return self.query is None or self.matches_text(hit.text)

    def matches_text(self, text: str) -> bool:
        """Whether every word of ``query`` begins a word of ``text`` (False
        without a query): "Postgres" finds "PostgreSQL"; "box-b" is the
        phrase "box b", never "box-c" nor a word holding a "b"; a word of
        Chinese or Japanese is found anywhere."""
        norm = f" {normalize_value(text)}"
        words = [normalize_value(w) for w in (self.query or "").split()]
        words = [w for w in words if w]
        return bool(words) and all(
            f" {w}" in norm or (unspaced(w) and w in norm) for w in words
        )


@dataclass(frozen=True)
class ForgetPlan:
    facts: tuple[Fact, ...]
    retired: tuple[Fact, ...]  # as they were before the pass
    text: str  # MEMORY.md after the pass
    changed: bool  # MEMORY.md or the register changes
    notes: tuple[Hit, ...] = ()  # daily-note entries retired
    register: str = ""  # the register of retired note entries after the pass


def plan_forget(
    memory: Memory,
    selector: Selector,
    now: datetime,
    reason: str = "retired",
    notes: Iterable[Hit] = (),
    register: str = "",
) -> ForgetPlan:
    """Retire every current entry ``selector`` matches.

    Args:
        memory: MEMORY.md as parsed now.
        selector: what to forget; an empty selector matches nothing.
        now: local wall-clock time in the workspace timezone; becomes ``until``.
        reason: recorded as ``reason=`` (default ``retired``).
        notes: the daily-note entries a plain recall answers with for the
            query (recall hits); those ``selector.matches_note`` are retired.
        register: the text of ``.gardener/retired`` now ("" if none).
    """
    today = format_instant(now)
    entries = retired_notes.parse(register)
    notes = list(notes) if not selector.empty() else []
    marks = [retired_notes.mark(hit.path, hit.value) for hit in notes]

    def hidden(hit: Hit, entry: str) -> bool:  # retired already (written before)
        return entry in entries and retired_notes.before(hit.since, entries[entry][0])

    chosen = {
        entry
        for hit, entry in zip(notes, marks, strict=True)
        if selector.matches_note(hit) and not hidden(hit, entry)
    }
    # every line of those words goes, listed: a mark names them all
    gone_notes = [
        hit
        for hit, entry in zip(notes, marks, strict=True)
        if entry in chosen and not hidden(hit, entry)
    ]
    for entry in chosen:
        entries[entry] = (today, reason)
    new_register = retired_notes.render(entries) if gone_notes else register
    retired: list[Fact] = []
    facts: list[Fact] = []
    for fact in memory.facts:
        if (
            selector.empty()
            or not is_current(fact, today)
            or not selector.matches(fact)
        ):
            facts.append(fact)
            continue
        retired.append(fact)
        gone = fact.with_attrs(until=today, reason=reason, kind=fact.kind)
        facts.append(replace(gone, section=SUPERSEDED, struck=True))
    text = render_memory(memory, facts) if retired else memory.text
    changed = text != memory.text or bool(gone_notes)
    return ForgetPlan(
        tuple(facts), tuple(retired), text, changed, tuple(gone_notes), new_register
    )


def describe(
    facts: Iterable[Fact], notes: Iterable[Hit] = (), texts: bool = True
) -> list[str]:
    """One line per retired entry, for the commit body and the CLI: MEMORY.md
    entries, then daily-note entries (``notes``) by file and line, with their
    text if ``texts`` (the commit names them only: the note holds the text,
    and a forget should not copy it into one more place)."""
    return [
        f"- {f.key + ': ' if f.key else ''}{f.value} (#{f.id or '?'}, since {f.since or '?'})"
        for f in facts
    ] + [f"- note {h.path}:{h.line}" + (f": {h.text}" if texts else "") for h in notes]
