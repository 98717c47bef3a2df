"""Slot changes (pure): a sentence that says what a current fact says, with one
place changed ("PRs should stay under 400 lines" -> "... under 250 lines now",
"Dana prefers updates on Mondays" -> "Dana: prefers updates on Fridays",
"周报每周一发" -> "周报改为每周五发").

Rules keyed neither sentence (or keyed them apart), so nothing else would ever
supersede the old one; two current facts would then contradict each other.
The changed place is a *slot*: what the two sentences share around it is the
frame. A slot change replaces the old fact when the new sentence says the value
changed (a lexicon ``change_words`` word: "now", "jetzt", "现在") or when both
slots are quantities (numbers, clock times, weekdays, months): a limit or a
schedule holds one value at a time. Otherwise ("Sam likes tea" / "Sam likes
coffee": both may hold) it is only a question for the judge.
See docs/design.md, "Changes and removals".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from gardener.lexicon.match import could_find, phrase_regex, unspaced
from gardener.lexicon.words import Words
from gardener.model.facts import Fact
from gardener.model.validtime import is_current
from gardener.planning.classify import Classified

# keys the rules are sure of: an explicit ``**key**`` or a rules.md pattern
SURE_KEYS = frozenset({"explicit", "pattern", "anchor", "clause", "subject"})
_MAX_SLOT = 4  # tokens on either side: a longer difference is another sentence
_MIN_FRAME = 3  # tokens shared around the slot
# one CJK character is one token; a word keeps its inner . : ' - (v1.2, 9:30)
_TOKEN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
    r"|[^\W_]+(?:[.:'’/-][^\W_]+)*"
)
_NUMBER = re.compile(
    r"^(?:v?\d+(?:[.:,/-]\d+)*(?:%|[a-z]{1,3})?|\d+(?:am|pm)"
    r"|[一二三四五六七八九十百千万两〇零日天]+)$"
)


@dataclass(frozen=True, slots=True)
class Slot:
    """How an entry's sentence differs from a current fact's, at one place.

    ``old`` / ``new``: the differing words (casefolded tokens joined by a
    space; never empty); ``marked``: the entry says the value changed;
    ``measured``: both slots are quantities.
    """

    old: str
    new: str
    marked: bool
    measured: bool

    @property
    def replaces(self) -> bool:
        """Whether the rules may let the entry replace the fact."""
        return self.marked or self.measured


@lru_cache(maxsize=8192)
def tokens(text: str, change_words: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """(tokens of ``text`` without its ``change_words``, whether it held one):
    NFKC, casefolded, Markdown emphasis and punctuation dropped."""
    low = unicodedata.normalize("NFKC", text).casefold().replace("*", " ")
    marked = False
    # most sentences hold no change word: the words are asked first (``could_find``)
    if change_words and could_find(low, change_words):
        regex = phrase_regex(change_words)
        if regex is not None:
            low, n = regex.subn(" ", low)
            marked = n > 0
    return tuple(_TOKEN.findall(low)), marked


def slot_change(new: str, old: str, words: Words) -> Slot | None:
    """The one place where sentence ``new`` differs from ``old``, or None
    when they differ in none (a repeat), in more than one, by more than
    ``_MAX_SLOT`` tokens on a side, or share fewer than ``_MIN_FRAME`` tokens
    (or less than half of the longer sentence) around it."""
    a, _ = tokens(old, words.change_words)
    b, marked = tokens(new, words.change_words)
    short = min(len(a), len(b))
    head = 0
    while head < short and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < short - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    was, now = a[head : len(a) - tail], b[head : len(b) - tail]
    shared = head + tail
    if not was or not now or len(was) > _MAX_SLOT or len(now) > _MAX_SLOT:
        return None
    # "Sam prefers Messi now": a frame of two is enough when the entry says so
    if shared < _MIN_FRAME - marked or 2 * shared < max(len(a), len(b)):
        return None
    calendar = _calendar(words.calendar_words + words.recurring)
    measured = all(_quantity(t, calendar) for t in (*was, *now))
    return Slot(_join(was), _join(now), marked, measured)


def _join(part: tuple[str, ...]) -> str:
    return "".join(part) if all(unspaced(t) for t in part) else " ".join(part)


@lru_cache(maxsize=8)
def _calendar(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.casefold() for n in names)


def _quantity(token: str, calendar: frozenset[str]) -> bool:
    return (
        bool(_NUMBER.match(token))
        or token in calendar
        or any(token in name for name in calendar if unspaced(token) and unspaced(name))
    )


class SlotIndex:
    """Sentences of current facts by their first and last token, so that an
    entry is compared only with facts that could share a frame with it: a
    frame of three tokens or more has a head or a tail in common."""

    def __init__(self, words: Words) -> None:
        self.words = words
        self._by_end: dict[str, list[int]] = {}

    def add(self, at: int, sentence: str) -> None:
        """Index sentence number ``at`` (the caller's own numbering)."""
        toks, _ = tokens(sentence, self.words.change_words)
        if len(toks) < _MIN_FRAME - 1:
            return
        for end in {"^" + toks[0], "$" + toks[-1]}:
            self._by_end.setdefault(end, []).append(at)

    def candidates(self, sentence: str) -> Iterator[int]:
        """Numbers of the indexed sentences sharing a head or tail token with
        ``sentence``, each once, in the order they were added."""
        toks, _ = tokens(sentence, self.words.change_words)
        if len(toks) < _MIN_FRAME - 1:
            return iter(())
        found: Iterable[int] = sorted(
            {
                *self._by_end.get("^" + toks[0], ()),
                *self._by_end.get("$" + toks[-1], ()),
            }
        )
        return iter(found)


class SlotReader:
    """The current facts of one pass that an entry's sentence restates with one
    slot changed. ``facts`` is the pass's own list (``Reconciliation.facts``),
    read as it grows: a fact filed earlier in the pass is found too."""

    def __init__(self, facts: Sequence[Fact], today: str, words: Words) -> None:
        self.facts, self.today, self.words = facts, today, words
        self.index = SlotIndex(words)
        self.indexed = 0

    def find(self, sentence: str) -> tuple[Fact, Slot] | None:
        """The one current fact (no event) whose sentence ``sentence`` changes
        in one slot, preferring one it may replace; None for none or several."""
        for at in range(self.indexed, len(self.facts)):
            fact = self.facts[at]
            if not fact.superseded and fact.kind != "event":
                self.index.add(at, fact.value)
        self.indexed = len(self.facts)
        found: list[tuple[Fact, Slot]] = []
        for at in self.index.candidates(sentence):
            fact = self.facts[at]
            if (
                fact.superseded
                or fact.kind == "event"
                or not is_current(fact, self.today)
            ):
                continue  # superseded or corrected since it was indexed
            slot = slot_change(sentence, fact.value, self.words)
            if slot is not None:
                found.append((fact, slot))
        sure = [f for f in found if f[1].replaces]
        if len(sure) == 1:
            return sure[0]
        return found[0] if len(found) == 1 else None


def restated(
    c: Classified,
    reader: SlotReader,
    current: Callable[[str], Fact | None],
    durable_kinds: Iterable[str],
) -> tuple[Classified, tuple[str, Fact] | None]:
    """``c`` read against the current fact its sentence restates with one slot
    changed, and, when only a judge can say whether it replaces that fact,
    (why it waits, the fact). ``c`` comes back unchanged when it is sure of
    its key, ends something, is an event, or its key holds a value already;
    a transient reading other than a passing state ("Standup is at 10:00
    now") is never read again. When it replaces the fact (``Slot.replaces``)
    it comes back durable, keyed as read (or by the fact's key when unkeyed),
    with ``replaces`` = the fact's id."""
    if c.ends or c.replaces or c.judge or c.kind == "event":
        return c, None
    if c.keyed_by in SURE_KEYS or not (c.durable or c.undecided or c.kind == "state"):
        return c, None
    if c.key and current(c.key) is not None:
        return c, None
    found = reader.find(c.value)
    if found is None:
        return c, None
    old, slot = found
    if slot.replaces:
        kind = c.kind if c.kind in durable_kinds else old.kind
        return replace(
            c, kind=kind, durable=True, key=c.key or old.key, replaces=old.id,
            keyed_by="slot", rule=c.rule or "slot change",
        ), None  # fmt: skip
    if not (c.durable or c.undecided):
        return c, None
    why = (
        f"near: it says what {old.id} says with {slot.old!r} as {slot.new!r};"
        " does it replace it?"
    )
    return c, (why, old)
