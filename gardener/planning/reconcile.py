"""The reconciliation timeline: the decision table that files one entry
into MEMORY.md's facts (pure; see docs/design.md).

The values of one key form a timeline ordered by valid time (``since``); each
value holds until the next one's ``since``; a corrected value is not on the
timeline. ``gardener.planning.promote`` feeds entries in valid-time order, so
"latest wins" means latest *true*, not latest *read*.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from functools import lru_cache

from gardener.lexicon.words import lexicon
from gardener.model.config import Config, multi_valued
from gardener.model.facts import Entry, Fact, Memory, normalize_key, normalize_value
from gardener.model.kinds import SECTION_OF_KIND, SUPERSEDED
from gardener.model.validtime import is_current, parse_instant
from gardener.planning.classify import Classified
from gardener.planning.ending import ENDED, ended_around, plan_end
from gardener.planning.keying import topic_names
from gardener.planning.sameness import (
    FUZZY_LENGTH,
    NEAR_DUPLICATE,
    digits,
    same_value,
)


@dataclass(frozen=True, slots=True)
class Decision:
    """What the pass did with one entry."""

    # "add", "reject", "update", "history", "supersede", "end", "held", "refused"
    action: str
    key: str | None
    value: str
    path: str
    line: int
    # id of the fact written (or duplicated); held: the review id
    fact: str | None = None
    replaced: str | None = None  # id of the fact it superseded or corrected
    reason: str = ""
    by: str | None = None  # who wrote the entry

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def new_id(
    key: str | None, value: str, since: str, origin: str, taken: set[str]
) -> str:
    """A short, deterministic id (``m`` + hex), lengthened until it is unique."""
    digest = hashlib.sha1(
        f"{normalize_key(key or '')}\0{value}\0{since}\0{origin}".encode()
    ).hexdigest()
    for size in range(5, 41):
        ident = "m" + digest[:size]
        if ident not in taken:
            return ident
    raise AssertionError("sha1 collision")  # pragma: no cover


def _instant(fact: Fact) -> datetime:
    return _parsed_instant(fact.attrs.get("since") or "1970-01-01")


@lru_cache(maxsize=65536)
def _parsed_instant(text: str) -> datetime:
    """``parse_instant``, once per text: a pass orders timelines again and again."""
    return parse_instant(text)


def _timeline(facts: Sequence[Fact]) -> list[Fact]:
    """The values of one key (``facts``) in valid-time order, corrected ones left out."""
    line = [f for f in facts if f.get("reason") != "corrected" and f.since]
    return sorted(line, key=_instant) if len(line) > 1 else line


class Reconciliation:
    """MEMORY.md's facts as one pass files entries into them (mutable; one
    pass's own: ``plan_promotion`` makes one, then reads ``facts`` and
    ``decisions``)."""

    def __init__(self, memory: Memory, config: Config, today: str):
        self.facts: list[Fact] = []
        self.slots: dict[str, list[int]] = {}  # normalized key -> positions in facts
        self.slot_keys: list[str] = []  # the keys of ``slots``, in its order
        self.where: dict[int, int] = {}  # id() of a fact object -> its position
        # for unkeyed entries, built on first use: normalized value -> positions,
        # and the values long enough to be near-duplicates, by the digits they hold
        self.values: dict[str, list[int]] | None = None
        self.fuzzy: dict[tuple[str, ...], tuple[list[str], list[int]]] = {}
        for fact in memory.facts:
            self._append(fact)
        self.config = config
        self.today = today
        # a topic's names in every language, so "Paketmanager" meets "package manager"
        words = lexicon(tuple(config.languages))
        self.topic_names = topic_names(config.topics, words.topic_names)
        self.copulas = words.copulas  # "the staging host is X": a current key's
        self.taken = {f.id for f in self.facts if f.id}
        self.decisions: list[Decision] = []

    def _decide(
        self,
        action: str,
        entry: Entry,
        c: Classified,
        fact: str | None = None,
        replaced: str | None = None,
        reason: str = "",
    ) -> None:
        self.decisions.append(
            Decision(action, c.key, c.value, entry.path, entry.line, fact, replaced,
                     reason, entry.by)
        )  # fmt: skip

    def _append(self, fact: Fact) -> None:
        at = len(self.facts)
        self.where[id(fact)] = at
        if fact.key:
            nk = normalize_key(fact.key)
            spots = self.slots.get(nk)
            if spots is None:
                self.slots[nk] = spots = []
                self.slot_keys.append(nk)
            spots.append(at)
        self.facts.append(fact)
        if self.values is not None:
            self._index_value(fact.value, at)

    def _replace(self, old: Fact, new: Fact) -> None:
        """Put ``new`` where ``old`` is; both have the same key."""
        at = self.where.pop(id(old))
        self.facts[at] = new
        self.where[id(new)] = at
        if self.values is not None and new.value != old.value:
            self._index_value(new.value, at)  # the old value's entry is re-checked

    def _index_value(self, value: str, at: int) -> None:
        nv = normalize_value(value)
        assert self.values is not None
        self.values.setdefault(nv, []).append(at)
        if len(nv) >= FUZZY_LENGTH:
            texts, spots = self.fuzzy.setdefault(digits(nv), ([], []))
            texts.append(nv)
            spots.append(at)

    def duplicate(self, value: str) -> Fact | None:
        """The first current fact (in list order) whose value is ``same_value`` as ``value``.

        Only the facts an index says could be the same are compared: those with
        the same normalized value, and for a long value those holding the same
        digits whose text is near it (a cutoff a point below ``same_value``'s, so that
        no rounding at the boundary can leave one out; ``same_value`` decides).
        """
        if self.values is None:
            self.values = {}
            for at, fact in enumerate(self.facts):
                # a fact in Superseded never comes back (sections only move
                # there): most of a long-lived MEMORY.md, never a duplicate
                if not fact.superseded:
                    self._index_value(fact.value, at)
        nv = normalize_value(value)
        spots = set(self.values.get(nv, ()))
        if len(nv) >= FUZZY_LENGTH and digits(nv) in self.fuzzy:
            # not at import: rapidfuzz costs ~20 ms, and most passes need no fuzzy match
            from rapidfuzz import fuzz, process

            texts, where = self.fuzzy[digits(nv)]
            found = process.extract(
                nv, texts, scorer=fuzz.ratio, processor=None,
                score_cutoff=NEAR_DUPLICATE - 1, limit=None,
            )  # fmt: skip
            spots.update(where[i] for _, _, i in found)
        for at in sorted(spots):
            fact = self.facts[at]
            if is_current(fact, self.today) and same_value(fact.value, value):
                return fact
        return None

    def current(self, key: str) -> Fact | None:
        """The latest current fact of ``key``, None if it has none."""
        mine = [
            f for f in self._of_key(normalize_key(key)) if is_current(f, self.today)
        ]
        return max(mine, key=_instant) if mine else None

    def _of_key(self, nk: str) -> list[Fact]:
        return [self.facts[i] for i in self.slots.get(nk, ())]

    def _make(
        self,
        entry: Entry,
        c: Classified,
        since: str,
        section: str,
        supersedes: str | None = None,
    ) -> Fact:
        ident = new_id(c.key, c.value, since, entry.path, self.taken)
        self.taken.add(ident)
        attrs = (
            ("since", since),
            ("expires", entry.expires),
            ("source", entry.source),
            ("from", entry.path),
            ("by", entry.by),
            ("supersedes", supersedes),
            ("judged-by", c.judge),
        )
        given = {k: v for k, v in attrs if v}
        return Fact(c.value, c.key, ident, section, given, tail=_tail(entry.nested))

    def _retire(self, old: Fact, **attrs: str | None) -> Fact:
        """``old`` moved to Superseded, keeping its kind as an attribute."""
        return old.moved(SUPERSEDED, True, kind=old.kind, **attrs)

    def reconcile(
        self,
        entry: Entry,
        c: Classified,
        since: str,
        first: bool = True,
        at: datetime | None = None,
    ) -> None:
        """Apply one row of the decision table to this entry.

        ``since`` is its valid time as written; ``at`` the same as a datetime
        (parsed from ``since`` if not given).
        """
        if at is None:
            at = parse_instant(since)
        section = SECTION_OF_KIND.get(c.kind or "fact", "Facts")
        if c.replaces is not None:
            self._replaced_by(entry, c, since, section)
            return
        if c.ends:
            self._end(entry, c, since, at)
            return
        if c.key is None:
            dup = self.duplicate(c.value)
            if dup:
                reason = "near-duplicate of a current entry"
                self._decide("reject", entry, c, dup.id, reason=reason)
            else:
                self._add(entry, c, since, section, "unkeyed")
            return
        nk = normalize_key(c.key)
        same_key = self._of_key(nk)
        if not same_key:  # a new key: what the rows below come to, without them
            multi = c.kind == "event" or multi_valued(c.key, self.config)
            reason = "events and multi-valued attributes add" if multi else ""
            self._add(entry, c, since, section, reason)
            return
        # a pass re-run after it was killed between its two writes finds its own
        # work, corrected values included; a repeat later in the note is new
        known = first and next(
            (
                f
                for f in same_key
                if f.since == since
                and f.get("from") == entry.path
                and same_value(f.value, c.value)
            ),
            None,
        )
        if known:
            self._decide("reject", entry, c, known.id, reason="already on the timeline")
            return
        self._keyed(entry, c, since, at, section, same_key)

    def _keyed(
        self,
        entry: Entry,
        c: Classified,
        since: str,
        at: datetime,
        section: str,
        same_key: list[Fact],
    ) -> None:
        """The rows of the decision table for a key that has values (``same_key``)."""
        assert c.key is not None
        line = _timeline(same_key)
        mine = [f for f in same_key if is_current(f, self.today)]
        same = next((f for f in mine if same_value(f.value, c.value)), None)
        if same:
            self._decide(
                "reject", entry, c, same.id, reason="same value as the current entry"
            )
            return
        if (
            c.kind == "event"
            or any(f.kind == "event" for f in mine)
            or multi_valued(c.key, self.config)
        ):
            self._add(
                entry,
                c,
                since,
                section if c.kind or not mine else mine[0].section,
                "events and multi-valued attributes add",
            )
            return
        if c.correction:
            held = [f for f in line if _instant(f) <= at] or sorted(mine, key=_instant)
            if held:
                self._correct(entry, c, since, held[-1])
                return
        ended = ended_around(line, at)
        if ended is not None:  # it held until the removal that ended its forerunner
            self._before_end(entry, c, since, ended)
            return
        if any(_instant(f) > at for f in line):
            self._backfill(entry, c, since, normalize_key(c.key))
            return
        if not mine:
            self._add(entry, c, since, section)
            return
        old = max(mine, key=_instant)
        fact = self._make(
            entry, c, since, section if c.kind else old.section, supersedes=old.id
        )
        self._replace(old, self._retire(old, until=since, superseded_by=fact.id))
        self._append(fact)
        self._decide("supersede", entry, c, fact.id, old.id)

    def _replaced_by(
        self, entry: Entry, c: Classified, since: str, section: str
    ) -> None:
        """The judge's "this entry replaces (or ends) fact ``c.replaces``",
        whatever the two keys: the fact moves to Superseded with ``until`` =
        ``since``, superseded by the entry's new fact (or, for an end, with
        ``reason=ended``). A fact no longer current by then, or holding the
        same value, is left as it is (docs/design.md, The judge)."""
        old = next(
            (f for f in self.facts if f.id == c.replaces and is_current(f, self.today)),
            None,
        )
        if old is None:
            self._decide(
                "reject", entry, c, reason="the entry it replaces is not current"
            )
            return
        if c.ends:
            mark = f"{entry.path}:{entry.line}"
            self._replace(
                old, self._retire(old, until=since, reason=ENDED, ended_by=mark)
            )
            self.decisions.append(
                Decision("end", old.key, old.value, entry.path, entry.line, old.id,
                         old.id, ENDED, entry.by)
            )  # fmt: skip
            return
        if same_value(old.value, c.value):
            self._decide(
                "reject", entry, c, old.id, reason="same value as the entry it replaces"
            )
            return
        fact = self._make(entry, c, since, section, supersedes=old.id)
        self._replace(old, self._retire(old, until=since, superseded_by=fact.id))
        self._append(fact)
        self._decide("supersede", entry, c, fact.id, old.id)

    def _add(
        self, entry: Entry, c: Classified, since: str, section: str, reason: str = ""
    ) -> None:
        fact = self._make(entry, c, since, section)
        self._append(fact)
        self._decide("add", entry, c, fact.id, reason=reason)

    def _correct(self, entry: Entry, c: Classified, since: str, wrong: Fact) -> None:
        """The value that held at the entry's time was never right: replace it in place.

        The new value takes over the wrong one's validity; the wrong one goes to
        Superseded with ``reason=corrected`` and leaves the timeline.
        """
        fact = self._make(entry, c, wrong.since or since, wrong.section).with_attrs(
            supersedes=wrong.id,
            until=wrong.get("until"),
            superseded_by=wrong.get("superseded-by"),
        )
        if wrong.superseded:
            fact = replace(fact, struck=True).with_attrs(
                kind=wrong.get("kind") or c.kind
            )
        if wrong.get("reason") == ENDED:  # the right value ended when it did
            fact = fact.with_attrs(reason=ENDED, ended_by=wrong.get("ended-by"))
        self._replace(
            wrong,
            self._retire(
                wrong,
                until=wrong.get("until") or since,
                superseded_by=fact.id,
                reason="corrected",
            ),
        )
        for other in self._of_key(
            fact.norm_key or ""
        ):  # neighbours point at the right value
            if other.id != wrong.id and other.get("supersedes") == wrong.id:
                self._replace(other, other.with_attrs(supersedes=fact.id))
        self._append(fact)
        self._decide("update", entry, c, fact.id, wrong.id, reason="corrected")

    def _backfill(self, entry: Entry, c: Classified, since: str, nk: str) -> None:
        """An older value arrives late: it joins the history, the current value stays."""
        line = _timeline(self._of_key(nk))
        at = parse_instant(since)
        later = next(f for f in line if parse_instant(f.since or since) > at)
        earlier = [f for f in line if parse_instant(f.since or since) <= at]
        prev = earlier[-1] if earlier else None
        for neighbour in (later, prev):
            if neighbour is not None and same_value(neighbour.value, c.value):
                self._decide(
                    "reject",
                    entry,
                    c,
                    fact=neighbour.id,
                    reason="back-fill repeats a neighbouring value",
                )
                return
        fact = self._make(entry, c, since, SUPERSEDED)
        kind = c.kind or later.kind
        fact = replace(fact, struck=True).with_attrs(
            until=later.since, superseded_by=later.id, kind=kind
        )
        if prev is not None and prev.get("reason") != ENDED:  # an ended one stays so
            self._replace(prev, prev.with_attrs(until=since, superseded_by=fact.id))
            fact = fact.with_attrs(supersedes=prev.id)
        self._append(fact)
        self._decide(
            "history", entry, c, fact=fact.id, replaced=later.id, reason="back-filled"
        )

    def _end(self, entry: Entry, c: Classified, since: str, at: datetime) -> None:
        """A removal: the values of its key it names that hold at its time
        end then (``gardener.planning.ending.plan_end``); it adds nothing."""
        mark = f"{entry.path}:{entry.line}"
        same_key = self._of_key(normalize_key(c.key)) if c.key else []
        changes, reason, known = plan_end(
            same_key, _timeline(same_key), c.key, c.value, at, since, mark
        )
        if reason:
            self.decisions.append(
                Decision("reject", c.key, c.value, entry.path, entry.line, known,
                         reason=reason, by=entry.by)
            )  # fmt: skip
            return
        for old, new in changes:
            self._replace(old, new)
            if new.get("ended-by") == mark:  # not a neighbour whose link went
                self.decisions.append(
                    Decision("end", old.key, old.value, entry.path, entry.line, old.id,
                             old.id, ENDED, entry.by)
                )  # fmt: skip

    def _before_end(self, entry: Entry, c: Classified, since: str, ended: Fact) -> None:
        """A value dated inside the time of one that a removal ended, arriving
        late: it takes over from that one and ends with it."""
        if same_value(ended.value, c.value):
            self._decide(
                "reject", entry, c, ended.id, reason="same value as the entry then"
            )
            return
        fact = self._make(entry, c, since, SUPERSEDED, supersedes=ended.id)
        fact = replace(fact, struck=True).with_attrs(
            until=ended.until, reason=ENDED, ended_by=ended.get("ended-by"),
            kind=c.kind or ended.kind,
        )  # fmt: skip
        self._replace(
            ended,
            ended.with_attrs(
                until=since, superseded_by=fact.id, reason=None, ended_by=None
            ),
        )
        self._append(fact)
        self._decide("history", entry, c, fact.id, ended.id, reason="back-filled")


def _tail(nested: tuple[str, ...]) -> tuple[str, ...]:
    """An entry's nested lines as the lines under its fact: indented two
    spaces past the fact's marker, their own indents kept relative to the
    least indented (blank lines dropped: a blank line would end the fact)."""
    lines = [line.rstrip() for line in nested if line.strip()]
    if not lines:
        return ()
    least = min(len(line) - len(line.lstrip()) for line in lines)
    return tuple("  " + line[least:] for line in lines)
