"""Plan a promotion pass: daily-note entries in, MEMORY.md's new facts out (pure).

Implements the decision table of DESIGN 2.1. The values of one key form a
timeline ordered by valid time (``since``); each value holds until the next
one's ``since``; a corrected value is not on the timeline. Entries are taken in
valid-time order, never in the order files happen to be read, so "latest wins"
means latest *true*, not latest *read*.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING

from gardener.errors import ParseError
from gardener.formats.entryline import FUTURE_SLACK_S, no_value, too_long
from gardener.formats.memoryfile import render_memory
from gardener.model.config import Config
from gardener.model.facts import (
    SECTION_OF_KIND,
    SUPERSEDED,
    Entry,
    Fact,
    Memory,
    Note,
    normalize_key,
    normalize_value,
    quick_init,
)
from gardener.model.validtime import (
    entry_since,
    format_instant,
    is_current,
    is_instant,
    parse_instant,
)
from gardener.neverstore import redact
from gardener.planning.classify import Classified, classify
from gardener.store.retired import before as retired_before
from gardener.store.retired import mark as retired_mark

if TYPE_CHECKING:
    from gardener.store.linememo import LineMemo

HELD = "\theld"  # ledger suffix: held for review, not yet processed
# ledger line ``path<TAB>settled:<blob id>``: every entry of the note as it held
# those bytes is in the ledger, so a pass may leave that text unread
SETTLED = "\tsettled:"
APPROVED = "\tapproved"  # ledger suffix: a person approved a held entry
NEAR_DUPLICATE = 92  # rapidfuzz ratio at or above this is "the same"

# Memory is loaded into every future prompt: hold what reads like an order to the model.
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)"
    r"|\b(?:curl|wget)\b[^|\n]*\|\s*(?:ba|z)?sh\b"
    r"|\byou\s+are\s+now\s+(?:a|an|in)\b"
    r"|\bsystem\s+prompt\s*:"
    r"|\b(?:reveal|print|show|leak)\s+(?:the\s+|your\s+)?system\s+prompt"
    r"|\bdisregard\s+(?:all\s+|any\s+)?(?:your\s+|the\s+)?(?:safety|previous|prior)?\s*(?:guidelines|instructions|rules)"
    r"|\b(?:always|never)\s+(?:run|execute)\s+[`'\"]",
    re.IGNORECASE,
)
# every alternative of _INSTRUCTION needs one of these words
_INSTRUCTION_WORDS = (
    "ignore", "disregard", "forget", "curl", "wget", "you", "system", "always", "never",
)  # fmt: skip


_ANY_INSTRUCTION_WORD = re.compile("|".join(_INSTRUCTION_WORDS))


def reads_as_instruction(text: str) -> bool:
    """True if ``text`` reads like an order to the model (``_INSTRUCTION``):
    promote holds such an entry for review, and recall never serves it."""
    # for ASCII text, lower() and a plain search is the regex's IGNORECASE: a cheap no
    if text.isascii() and not _ANY_INSTRUCTION_WORD.search(text.lower()):
        return False
    return _INSTRUCTION.search(text) is not None


@quick_init
@dataclass(frozen=True)
class Decision:
    """What the pass did with one entry."""

    action: str  # "add", "reject", "update", "history", "supersede", "held", "refused"
    key: str | None
    value: str
    path: str
    line: int
    fact: str | None = (
        None  # id of the fact written (or duplicated); held: the review id
    )
    replaced: str | None = None  # id of the fact it superseded or corrected
    reason: str = ""
    by: str | None = None  # who wrote the entry

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class PromotionPlan:
    """The pass's outcome: the block's facts after it, and why."""

    facts: tuple[Fact, ...]
    decisions: tuple[Decision, ...]
    ledger: frozenset[str]  # fingerprints of every entry now processed
    text: str  # MEMORY.md after the pass
    changed: bool  # MEMORY.md's text differs
    over_budget: int  # characters over the size budget, 0 if within

    def keys(self, action: str) -> list[str]:
        return [d.key or d.value for d in self.decisions if d.action == action]


def fingerprints(note: Note) -> dict[Entry, str]:
    """Each entry's ledger mark: ``path<TAB>digest`` of its first line, ``#n`` for repeats.

    Stable when lines are appended or nested items added under an entry; the
    n-th repeat of the same line in one note (a change back) is its own entry.
    """
    return dict(zip(note.entries, entry_marks(note), strict=True))


def entry_marks(note: Note) -> list[str]:
    """``fingerprints`` as a list, in the order of ``note.entries``."""
    marks: list[str] = []
    count: dict[str, int] = {}
    for entry in note.entries:
        digest = hashlib.sha1(
            entry.text.encode("utf-8", "surrogateescape")
        ).hexdigest()[:16]
        n = count.get(digest, 0)
        count[digest] = n + 1
        marks.append(f"{note.path}\t{digest}" + (f"#{n}" if n else ""))
    return marks


def note_digest(data: bytes) -> str:
    """A note file's git blob id (40 hex): what ``git hash-object FILE`` prints."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def settled_mark(path: str, digest: str) -> str:
    """The ledger line saying the note at ``path`` with blob id ``digest`` is settled."""
    return f"{path}{SETTLED}{digest}"


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


_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}")
FUZZY_LENGTH = 12  # normalized values shorter than this must match exactly
_DIGITS = re.compile(r"\d+")


def _same(a: str, b: str) -> bool:
    na, nb = normalize_value(a), normalize_value(b)
    if na == nb:
        return True
    # short values differ by a word: "box2" vs "box7"
    if min(len(na), len(nb)) < FUZZY_LENGTH:
        return False
    if _digits(na) != _digits(nb):  # v0.1 vs v0.2, $4,200 vs $3,600
        return False
    if _surely_apart(na, nb):
        return False
    from rapidfuzz import fuzz

    # order matters: "tabs rather than spaces" is not "spaces rather than tabs"
    return fuzz.ratio(na, nb) >= NEAR_DUPLICATE


def _surely_apart(a: str, b: str) -> bool:
    """True if ``fuzz.ratio(a, b)`` is below NEAR_DUPLICATE, known without rapidfuzz.

    The ratio is 200 * LCS / (len(a) + len(b)), and the longest common
    subsequence is no longer than the shorter text nor than the characters the
    two share (counted with repeats): an exact "no" for most pairs, which spares
    a pass that needs no fuzzy match the import of rapidfuzz (~20 ms).
    """
    total = len(a) + len(b)
    if 200 * min(len(a), len(b)) < NEAR_DUPLICATE * total:
        return True
    if "rapidfuzz.fuzz" in sys.modules:  # imported: its answer is as cheap
        return False
    shared = sum((Counter(a) & Counter(b)).values())
    return 200 * shared < NEAR_DUPLICATE * total


def _digits(normalized: str) -> tuple[str, ...]:
    return tuple(_DIGITS.findall(normalized))


def multi_valued(key: str, config: Config) -> bool:
    attribute = normalize_key(key).split(" / ")[-1]
    return attribute in _multi(config.multi_valued)


@lru_cache(maxsize=16)
def _multi(attributes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(normalize_key(a) for a in attributes)


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


class _Pass:
    """Mutable state of one pass; only ``plan_promotion`` uses it."""

    def __init__(self, memory: Memory, config: Config, today: str):
        self.facts: list[Fact] = []
        self.slots: dict[str, list[int]] = {}  # normalized key -> positions in facts
        self.where: dict[int, int] = {}  # id() of a fact object -> its position
        # for unkeyed entries, built on first use: normalized value -> positions,
        # and the values long enough to be near-duplicates, by the digits they hold
        self.values: dict[str, list[int]] | None = None
        self.fuzzy: dict[tuple[str, ...], tuple[list[str], list[int]]] = {}
        for fact in memory.facts:
            self._append(fact)
        self.config = config
        self.today = today
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
            Decision(
                action,
                c.key,
                c.value,
                entry.path,
                entry.line,
                fact,
                replaced,
                reason,
                entry.by,
            )
        )

    def _append(self, fact: Fact) -> None:
        at = len(self.facts)
        self.where[id(fact)] = at
        if fact.key:
            self.slots.setdefault(normalize_key(fact.key), []).append(at)
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
            texts, spots = self.fuzzy.setdefault(_digits(nv), ([], []))
            texts.append(nv)
            spots.append(at)

    def _duplicate(self, value: str) -> Fact | None:
        """The first current fact (in list order) whose value is ``_same`` as ``value``.

        Only the facts an index says could be the same are compared: those with
        the same normalized value, and for a long value those holding the same
        digits whose text is near it (a cutoff a point below ``_same``'s, so that
        no rounding at the boundary can leave one out; ``_same`` decides).
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
        if len(nv) >= FUZZY_LENGTH and _digits(nv) in self.fuzzy:
            from rapidfuzz import fuzz, process

            texts, where = self.fuzzy[_digits(nv)]
            found = process.extract(
                nv, texts, scorer=fuzz.ratio, processor=None,
                score_cutoff=NEAR_DUPLICATE - 1, limit=None,
            )  # fmt: skip
            spots.update(where[i] for _, _, i in found)
        for at in sorted(spots):
            fact = self.facts[at]
            if is_current(fact, self.today) and _same(fact.value, value):
                return fact
        return None

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
        )
        return Fact(c.value, c.key, ident, section, {k: v for k, v in attrs if v})

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
        if c.key is None:
            dup = self._duplicate(c.value)
            if dup:
                self._decide(
                    "reject",
                    entry,
                    c,
                    dup.id,
                    reason="near-duplicate of a current entry",
                )
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
        line = _timeline(same_key)
        # a pass re-run after it was killed between its two writes finds its own
        # work, corrected values included; a repeat later in the note is new
        known = first and next(
            (
                f
                for f in same_key
                if f.since == since
                and f.get("from") == entry.path
                and _same(f.value, c.value)
            ),
            None,
        )
        if known:
            self._decide("reject", entry, c, known.id, reason="already on the timeline")
            return
        mine = [f for f in same_key if is_current(f, self.today)]
        same = next((f for f in mine if _same(f.value, c.value)), None)
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
        if any(_instant(f) > at for f in line):
            self._backfill(entry, c, since, nk)
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
            if neighbour is not None and _same(neighbour.value, c.value):
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
        if prev is not None:
            self._replace(prev, prev.with_attrs(until=since, superseded_by=fact.id))
            fact = fact.with_attrs(supersedes=prev.id)
        self._append(fact)
        self._decide(
            "history", entry, c, fact=fact.id, replaced=later.id, reason="back-filled"
        )


REDACTED = "holds a redacted secret"


def _refusals(texts: Sequence[str], config: Config) -> list[str | None]:
    """Why each entry text may not be promoted for never-store reasons, or None."""
    # a redacted secret was taken out before commit: no fact is left
    scanned = [t for t in texts if "[REDACTED:" not in t]
    found = iter(redact.find_each(scanned, config.never_store, config.allow))
    out: list[str | None] = []
    for text in texts:
        if "[REDACTED:" in text:
            out.append(REDACTED)
            continue
        rules = sorted({f.rule for f in next(found)})
        out.append("never-store: " + ", ".join(rules) if rules else None)
    return out


def review_id(mark: str) -> str:
    """The short id a person types to approve or reject a held entry."""
    return "h" + mark.split("\t")[1][:8]


def check_dates(memory: Memory, path: str = "MEMORY.md") -> None:
    """Raise ParseError at the first fact whose since/until/expires is not a date."""
    for fact in memory.facts:
        for name in ("since", "until", "expires"):
            value = fact.get(name)
            if value is not None and not is_instant(value):
                raise ParseError(
                    f"{name}={value!r} is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM); fix the line, then rerun",
                    path,
                    fact.line,
                )


def _valid_times(note: Note, zone: tzinfo) -> list[datetime]:
    """Valid time of each entry, in the order of ``note.entries``. An entry without
    a time takes the time of the timed entry above it: it was written after it."""
    times: list[datetime] = []
    last: datetime | None = None
    for e in note.entries:
        at = _entry_instant(e, zone)
        if e.time is None and last is not None and last.date() == at.date():
            at = last
        elif e.time is not None:
            last = at
        times.append(at)
    return times


def _entry_instant(entry: Entry, zone: tzinfo) -> datetime:
    """``parse_instant(entry_since(entry, zone))`` without the round trip through text."""
    day, clock = entry.day, entry.time
    if entry.timezone or (clock is not None and not _CLOCK.fullmatch(clock)):
        return parse_instant(entry_since(entry, zone))  # its own zone, or an odd clock
    if clock is None:
        return datetime(day.year, day.month, day.day)
    return datetime(day.year, day.month, day.day, int(clock[:2]), int(clock[3:]))


def settle(seen: set[str], notes: Sequence[Note], marks: Sequence[list[str]]) -> None:
    """Mark in ``seen`` (the ledger being built) the notes whose entries are all in it.

    A note whose every entry mark is in the ledger has nothing left for a pass to
    do: a later pass may skip its text while its bytes stay the same (the ledger
    line names their blob id). A note with an entry held for review, refused,
    or dated after the horizon is not settled, so it is read again. The settled
    lines of the notes read (``marks[i]`` belongs to ``notes[i]``) are replaced;
    a note without a ``digest`` (parsed from text alone) is never settled.
    """
    read = {n.path for n in notes if n.digest}
    if not read:
        return
    seen.difference_update(
        [m for m in seen if SETTLED in m and m.partition("\t")[0] in read]
    )
    for note, mine in zip(notes, marks, strict=True):
        if note.digest and all(m in seen for m in mine):
            seen.add(settled_mark(note.path, note.digest))


def plan_promotion(
    notes: Iterable[Note],
    memory: Memory,
    config: Config,
    now: datetime,
    ledger: frozenset[str] = frozenset(),
    memo: LineMemo | None = None,
    retired: Mapping[str, str] | None = None,
) -> PromotionPlan:
    """Plan one promotion pass.

    Args:
        notes: parsed daily notes (any order).
        memory: MEMORY.md as parsed now.
        config: the workspace's rules.
        now: local wall-clock time in the workspace timezone.
        ledger: marks (see ``fingerprints``) of entries already processed;
            they are skipped, so a pass twice changes nothing and hand edits to
            MEMORY.md are never undone.
        memo: MEMORY.md lines rendered before (``gardener.store.linememo``), if at hand.
        retired: marks of the daily-note entries ``forget`` retired -> when
            (``gardener.store.retired``): those written before are processed
            without being filed.
    Returns the plan; nothing is written. Its ledger also says which notes
    are settled (see ``settle``). A durable entry a never-store rule matches,
    or whose value is over ``entryline.MAX_ENTRY_CHARS``, is "refused": not
    filed, and read again by the next pass. Raises ParseError (MEMORY.md and
    line) for a fact whose since, until or expires is not a date: the timeline
    cannot be trusted then.
    """
    notes = list(notes)
    check_dates(memory, config.memory_file)
    today = format_instant(now)
    # an entry dated later waits for its time: filed now, it would be current
    # before it holds (--as-of and why would disagree with recall); an hour of
    # slack for an agent's clock running a little ahead
    horizon = now + timedelta(seconds=FUTURE_SLACK_S)
    work = _Pass(memory, config, today)
    seen = set(ledger)
    per_note = [entry_marks(n) for n in notes]
    # (valid time, path, line) orders the entries: "latest" is latest true
    queue = sorted(
        (
            (at, e.path, e.line, e, mark)
            for note, marks in zip(notes, per_note, strict=True)
            for e, mark, at in zip(
                note.entries, marks, _valid_times(note, config.zone), strict=True
            )
            if mark not in seen and mark + HELD not in seen and at <= horizon
        ),
        key=lambda row: row[:3],
    )
    kinds = [classify(row[3], config) for row in queue]
    texts = {
        i: "\n".join([row[3].text, *row[3].nested])
        for i, (row, c) in enumerate(zip(queue, kinds, strict=True))
        if c.durable
    }
    refusals = dict(zip(texts, _refusals(list(texts.values()), config), strict=True))
    for i, (at, _, _, entry, mark) in enumerate(queue):
        c = kinds[i]
        when = retired.get(retired_mark(entry.path, entry.value)) if retired else None
        if not c.durable or (
            when is not None and retired_before(format_instant(at), when)
        ):
            seen.add(mark)  # a retired one was forgotten before it was filed
            continue
        if no_value(c.value) and not entry.nested:
            # "fact: **city**:" written by hand: a key with nothing to file
            seen.add(mark)
            work.decisions.append(
                Decision("reject", c.key, "", entry.path, entry.line,
                         reason="no value to file", by=entry.by)
            )  # fmt: skip
            continue
        text = texts[i]
        # a hand-written document-sized entry: not filed, left in its note
        # (not marked read) and reported by every pass until it is split
        long = too_long(entry.value)
        refusal = refusals[i] or (f"not filed: {long}" if long else None)
        if refusal:
            if refusal == REDACTED:  # already out of the file: report it once
                seen.add(mark)
            work.decisions.append(
                Decision(
                    "refused",
                    c.key,
                    "",
                    entry.path,
                    entry.line,
                    reason=refusal,
                    by=entry.by,
                )
            )
            continue
        if reads_as_instruction(text) and mark + APPROVED not in seen:
            # reported once, then pending (its note is not pruned) until reviewed
            seen.add(mark + HELD)
            work.decisions.append(
                Decision(
                    "held",
                    c.key,
                    c.value,
                    entry.path,
                    entry.line,
                    fact=review_id(mark),
                    reason=f"reads like an instruction to the model: gardener approve|reject {review_id(mark)}",
                )
            )
            continue
        # the valid time as written, and as read back: whole minutes
        since, minute = format_instant(at), at.replace(second=0, microsecond=0)
        work.reconcile(entry, c, since, "#" not in mark, minute)
        seen.discard(mark + APPROVED)
        seen.add(mark)
    settle(seen, notes, per_note)
    facts = tuple(work.facts)
    changed_facts = facts != memory.facts
    text = render_memory(memory, facts, memo) if changed_facts else memory.text
    over = max(0, len(text) - config.memory_budget_chars)
    return PromotionPlan(
        facts, tuple(work.decisions), frozenset(seen), text, text != memory.text, over
    )
