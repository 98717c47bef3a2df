"""Plan a forget pass (pure): retire entries, so they leave recall but stay auditable.

Retiring is DESIGN 2.3's default way to forget: the entry gets ``until`` = now
and ``reason=retired`` and moves to Superseded, so ``why`` and ``--as-of`` still
show it for the time it held. Erasing content from history is ``purge``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from .memoryfile import render_memory
from .model import SUPERSEDED, Fact, Memory, normalize_key, normalize_value
from .promote import is_current
from .validtime import format_instant


@dataclass(frozen=True)
class Selector:
    """Which current entries to forget; every given field must match."""

    key: str | None = None  # compared as keys are (case, space, Unicode)
    query: str | None = None  # every word appears in "key: value"
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

    def matches_text(self, text: str) -> bool:
        """Whether every word of ``query`` appears in ``text`` (False without a query)."""
        norm = normalize_value(text)
        words = normalize_value(self.query or "").split()
        return bool(words) and all(w in norm.split() or w in norm for w in words)


@dataclass(frozen=True)
class ForgetPlan:
    facts: tuple[Fact, ...]
    retired: tuple[Fact, ...]  # as they were before the pass
    text: str  # MEMORY.md after the pass
    changed: bool


def plan_forget(
    memory: Memory, selector: Selector, now: datetime, reason: str = "retired"
) -> ForgetPlan:
    """Retire every current entry ``selector`` matches.

    Args:
        memory: MEMORY.md as parsed now.
        selector: what to forget; an empty selector matches nothing.
        now: local wall-clock time in the workspace timezone; becomes ``until``.
        reason: recorded as ``reason=`` (default ``retired``).
    """
    today = format_instant(now)
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
    return ForgetPlan(tuple(facts), tuple(retired), text, text != memory.text)


def describe(facts: Iterable[Fact]) -> list[str]:
    """One line per retired entry, for the commit body and the CLI."""
    return [
        f"- {f.key + ': ' if f.key else ''}{f.value} (#{f.id or '?'}, since {f.since or '?'})"
        for f in facts
    ]
