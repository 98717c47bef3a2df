"""Plan a promotion pass: daily-note entries in, MEMORY.md's new facts out (pure).

The entries not yet in the ledger are taken in valid-time order, never in the
order files happen to be read, and each durable one is filed by the decision
table (``gardener.planning.reconcile``; see docs/design.md), unless it is
refused (``gardener.planning.refusals``), retired, or held for review because
it reads like an instruction (``gardener.neverstore.instructions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, tzinfo

from gardener.errors import ParseError
from gardener.formats.entryline import FUTURE_SLACK_S, no_value, too_long
from gardener.formats.memoryfile import Memo, render_memory
from gardener.formats.retired import before as retired_before
from gardener.formats.retired import mark as retired_mark
from gardener.lexicon.words import Words, lexicon
from gardener.model.config import Config
from gardener.model.facts import (
    Entry,
    Fact,
    Memory,
    Note,
    normalize_key,
    normalize_value,
)
from gardener.model.marks import (
    APPROVED,
    HELD,
    entry_marks,
    pending_id,
    review_id,
    settle,
)
from gardener.model.markset import Growing, Marks
from gardener.model.validtime import (
    format_instant,
    is_instant,
)
from gardener.neverstore.instructions import reads_as_instruction
from gardener.planning.anchor import aliased, anchored, by_subject, replacing
from gardener.planning.asserted import asserts
from gardener.planning.classify import Classified, classify
from gardener.planning.ending import names
from gardener.planning.frames import read_frame
from gardener.planning.judging import Waiting, guessed_action, waits
from gardener.planning.labels import split_label
from gardener.planning.nearchange import FactIndex, near_change
from gardener.planning.reconcile import Decision, Reconciliation
from gardener.planning.refusals import REDACTED, refusals
from gardener.planning.restate import (
    KeyIndex,
    LooseIndex,
    Restated,
    apart,
    headed,
    restate,
    restate_unkeyed,
)
from gardener.planning.sameness import same_value
from gardener.planning.slotchange import SURE_KEYS, SlotReader, restated
from gardener.planning.times import valid_times


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a pass decided about one entry, and why (``--dry-run --json``).

    ``placed``: "durable", "transient" or "undecided" (no rule placed it);
    ``kind``, ``key``, ``value``, ``keyed_by``, ``rule``, ``ends``: as
    ``Classified`` has them. ``action``: the decision's ("add", "supersede",
    "update", "history", "reject", "held", "refused"), or "skip" for an entry
    left in its note (transient, undecided, retired); ``reason``: why;
    ``fact``: the id of the fact written (held: the review id), ``replaced``:
    the id of the fact it superseded or corrected.
    """

    path: str
    line: int
    text: str
    placed: str
    kind: str | None
    key: str | None
    value: str
    keyed_by: str
    rule: str
    ends: bool
    action: str
    reason: str
    fact: str | None = None
    replaced: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True)
class PromotionPlan:
    """The pass's outcome: the block's facts after it, and why."""

    facts: tuple[Fact, ...]
    decisions: tuple[Decision, ...]
    ledger: Marks  # fingerprints of every entry now processed
    text: str  # MEMORY.md after the pass
    changed: bool  # MEMORY.md's text differs
    over_budget: int  # characters over the size budget, 0 if within
    undecided: int = 0  # entries of the pass no rule placed (left in their notes)
    # entries waiting for the judge, in valid-time order (``gardener review``)
    pending: tuple[Waiting, ...] = ()
    # every entry of the pass and what became of it; only when asked (``explain``)
    entries: tuple[Outcome, ...] = ()
    # links dropped because they name no entry: "m4412f superseded-by=m9809c"
    unlinked: tuple[str, ...] = ()

    def keys(self, action: str) -> list[str]:
        return [d.key or d.value for d in self.decisions if d.action == action]


def check_dates(memory: Memory, path: str = "MEMORY.md") -> None:
    """Raise ParseError at the first fact whose since/until/expires is not a date."""
    good: set[str] = set()  # values already parsed: most facts share their dates
    for fact in memory.facts:
        attrs = fact.attrs
        for name in ("since", "until", "expires"):
            value = attrs.get(name)
            if value is None or value in good:
                continue
            if is_instant(value):
                good.add(value)
            else:
                raise ParseError(
                    f"{name}={value!r} is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM); fix the line, then rerun",
                    path,
                    fact.line,
                )


# one entry waiting to be filed: (valid time, path, line, entry, ledger mark)
_Row = tuple[datetime, str, int, Entry, str]


def _queue(
    notes: Sequence[Note],
    per_note: Sequence[list[str]],
    seen: Growing,
    zone: tzinfo,
    horizon: datetime,
    recorded: Mapping[str, str] | None = None,
) -> list[_Row]:
    """The entries a pass takes (not in the ledger ``seen``, not held, dated up
    to ``horizon``), ordered by (valid time, path, line): "latest" is latest true."""
    return sorted(
        (
            (at, e.path, e.line, e, mark)
            for note, marks in zip(notes, per_note, strict=True)
            for e, mark, at in zip(
                note.entries,
                marks,
                valid_times(note, zone, recorded, marks),
                strict=True,
            )
            if mark not in seen and mark + HELD not in seen and at <= horizon
        ),
        key=lambda row: row[:3],
    )


def queue_places(
    notes: Sequence[Note], zone: tzinfo, recorded: Mapping[str, str] | None = None
) -> dict[str, tuple[datetime, str, int]]:
    """Pending id (``marks.pending_id``) -> (valid time, path, line) of every
    entry of ``notes``, pending or not: the queue's order, so that a page of
    the review queue that ended at an entry answered since goes on after it."""
    return {
        pending_id(mark): (at, e.path, e.line)
        for note in notes
        for e, mark, at in zip(
            note.entries,
            entry_marks(note),
            valid_times(note, zone, recorded),
            strict=True,
        )
    }


def _file(
    work: Reconciliation,
    seen: Growing,
    row: _Row,
    c: Classified,
    text: str,
    refusal: str | None,
) -> None:
    """File one durable entry ``row`` (classified ``c``; ``text``: its lines,
    ``refusal``: why never-store refuses it, if it does) into ``work``, and
    mark it in ``seen``, or say why not."""
    at, _, _, entry, mark = row
    if no_value(c.value) and not entry.nested and not c.ends:
        # "fact: **city**:" written by hand: a key with nothing to file
        seen.add(mark)
        work.decisions.append(
            Decision("reject", c.key, "", entry.path, entry.line,
                     reason="no value to file", by=entry.by)
        )  # fmt: skip
        return
    # a hand-written document-sized entry: not filed, left in its note
    # (not marked read) and reported by every pass until it is split
    long = too_long(entry.value)
    refusal = refusal or (f"not filed: {long}" if long else None)
    if refusal:
        if refusal == REDACTED:  # already out of the file: report it once
            seen.add(mark)
        work.decisions.append(
            Decision("refused", c.key, "", entry.path, entry.line,
                     reason=refusal, by=entry.by)
        )  # fmt: skip
        return
    if reads_as_instruction(text) and mark + APPROVED not in seen:
        # reported once, then pending (its note is not pruned) until reviewed
        seen.add(mark + HELD)
        review = review_id(mark)
        work.decisions.append(
            Decision(
                "held", c.key, c.value, entry.path, entry.line, fact=review,
                reason=f"reads like an instruction to the model: gardener approve|reject {review}",
            )
        )  # fmt: skip
        return
    if _ATTRS.search(c.value):
        # "**rate limit**: 200 {#mdeadbe since=2020-01-01}": MEMORY.md's own
        # metadata is never a value's text (the line would hold two blocks)
        c = replace(c, value=_ATTRS.sub("", c.value).strip() or c.value)
    if c.keyed_by == "label" and c.leaves and not c.ends and c.key:
        c = _sequence(c, entry, work)
    if c.key is None and c.leaves:  # "replaced Kimi with Ollama": Kimi's key
        c = anchored(c, (f for f in work.facts if not f.get("until")))
    elif c.key and c.leaves and _elsewhere(c, work.current(c.key)):
        # "dropped Memcached" keyed by its topic (cache), while the one current
        # fact holding Memcached is keyed by its purpose (web sessions)
        other = anchored(
            replace(c, key=None), (f for f in work.facts if not f.get("until"))
        )
        c = other if other.key else c
    c = aliased(c, work.current, work.topic_names)
    c = by_subject(c, work.current, work.copulas)
    if c.leaves and (c.key is None or work.current(c.key) is None):
        c = replacing(c, (f for f in work.facts if not f.get("until")))
    if c.key is None and c.replaces is None and c.leaves and not c.ends:
        # "Replaced Pingdom with UptimeRobot" anchored nothing: filed unkeyed,
        # its new name alone ("UptimeRobot") would say nothing once the note
        # is gone, so the entry is filed as written
        c = replace(c, value=_ATTRS.sub("", entry.value).strip() or entry.value)
    # the valid time as written, and as read back: whole minutes
    since, minute = format_instant(at), at.replace(second=0, microsecond=0)
    work.reconcile(entry, c, since, "#" not in mark, minute)
    seen.discard(mark + APPROVED)
    seen.add(mark)


def _restatable(c: Classified, work: Reconciliation) -> bool:
    """Whether ``c`` may restate a current key: not a removal, correction or
    judged entry, and keyed by no current key (or by none the rules are sure of)."""
    if c.ends or c.correction or c.judge is not None or c.replaces is not None:
        return False
    if c.key is None:
        return True
    return c.keyed_by not in SURE_KEYS and work.current(c.key) is None


def _key_left(c: Classified, keys: KeyIndex, work: Reconciliation) -> Classified:
    """A removal keyed by the current key it names ("Nachtbuild gestrichen"
    after "**Nachtbuild:** jeden Tag um 3 Uhr"; "removed site search
    entirely"), or ``c`` unchanged (keyed already, no one key named)."""
    if c.key or not c.ends or not c.leaves:
        return c
    keys.grow(work.slot_keys)
    named = keys.named(c.leaves)
    if len(named) == 1 and not headed(c.leaves, keys.words_of(named[0])):
        return c  # "dropped the old cache keys": the keys went, not the cache
    whole = len(named) == 1 and keys.whole(c.leaves, named[0])
    fact = work.current(named[0]) if whole else None
    if fact is None or not fact.key or fact.kind == "event":
        return c
    return replace(c, key=fact.key, value=fact.value, keyed_by="anchor")


def _changed_value(
    c: Classified, text: str, words: Words, work: Reconciliation
) -> Classified:
    """``c`` as the change a frame reads in it ("renamed master → main"),
    keyed by the one current fact holding the value it leaves; else ``c``."""
    frame = read_frame(text, words) if len(text) < 300 and asserts(text) else None
    if frame is None or frame.kind != "change" or not frame.old or not frame.new:
        return c
    bare_c = replace(c, key=None, leaves=frame.old, value=frame.new)
    keyed = anchored(bare_c, (f for f in work.facts if not f.get("until")))
    if keyed.key is None:
        return c
    fact = work.current(keyed.key)
    if fact is None:
        return c
    return _restating(c, Restated(fact, frame.new), ())


def _restating(c: Classified, found: Restated, durable: Iterable[str]) -> Classified:
    """``c`` as the new value of the fact ``found`` restates, of its kind."""
    kind = c.kind if c.durable and c.kind in durable else found.fact.kind or "fact"
    return replace(
        c, kind=kind, durable=True, key=found.fact.key, value=found.value,
        keyed_by="restated", rule="restatement", leaves=found.fact.value,
    )  # fmt: skip


_ATTRS = re.compile(r"\s*\{#[^{}\n]*\}")


def _holds(value: str, left: str) -> bool:
    """Whether a current ``value`` is the ``left`` side of an arrow: the same,
    or opening with it and no sequence itself ("Fly.io (two regions)" is
    Fly.io; "A → B" is not A)."""
    if same_value(value, left):
        return True
    arrows = ("→", "->", "=>")
    opens = normalize_value(value).startswith(normalize_value(left))
    return opens and not any(a in value for a in arrows)


def _sequence(c: Classified, entry: Entry, work: Reconciliation) -> Classified:
    """A label's "A → B" as written when it changes nothing: its key holds no
    value and names no topic ("Flow: A → B", "Pipeline: lint → test" are
    sequences), or holds one that is not A. "Deploy target: Fly.io → Hetzner"
    after Fly.io, or as a topic's first value, stays the change to Hetzner."""
    assert c.key is not None and c.leaves is not None
    held = work.current(c.key)
    if held is not None and _holds(held.value, c.leaves):
        return c  # A is the value that holds: the change to B
    if held is None and normalize_key(c.key) in work.topic_names:
        return c
    label = split_label(entry.value)
    if label is None:
        return c
    return replace(c, value=label[1].strip(), leaves=None)


def _elsewhere(c: Classified, held: Fact | None) -> bool:
    """Whether the value ``c`` leaves may be held under another key than its
    own: a removal, or a removal's next clause (``keyed_by == "clause"``),
    whose key holds nothing or another value than the one removed."""
    if not (c.ends or c.keyed_by == "clause"):
        return False
    return held is None or not names(c.leaves or "", held.value)


def plan_promotion(
    notes: Iterable[Note],
    memory: Memory,
    config: Config,
    now: datetime,
    ledger: AbstractSet[str] = frozenset(),
    memo: Memo | None = None,
    retired: Mapping[str, str] | None = None,
    explain: bool = False,
    judged: Mapping[str, Classified] | None = None,
    recorded: Mapping[str, str] | None = None,
) -> PromotionPlan:
    """Plan one promotion pass.

    Args:
        notes: parsed daily notes (any order).
        memory: MEMORY.md as parsed now.
        config: the workspace's rules.
        now: local wall-clock time in the workspace timezone.
        ledger: marks (see ``gardener.model.marks``) of entries already
            processed; they are skipped, so a pass twice changes nothing and
            hand edits to MEMORY.md are never undone.
        memo: MEMORY.md lines rendered before (``gardener.store.linememo``), if at hand.
        retired: marks of the daily-note entries ``forget`` retired -> when
            (``gardener.formats.retired``): those written before are processed
            without being filed.
        explain: also say, in the plan's ``entries``, what became of each
            entry of the pass and why (costs a little: for ``--dry-run --json``).
        judged: the judge's readings (``gardener.planning.judging``) of
            pending entries, by ledger mark: they replace the rules' reading.
        recorded: ledger mark -> valid time of untimed entries, as the
            machine that committed them wrote them (``planning.times``).
    Returns the plan; nothing is written. Its ledger also says which notes
    are settled (see ``marks.settle``). A durable entry a never-store rule
    matches, or whose value is over ``entryline.MAX_ENTRY_CHARS``, is
    "refused": not filed, and read again by the next pass. Raises ParseError
    (MEMORY.md and line) for a fact whose since, until or expires is not a
    date: the timeline cannot be trusted then.
    """
    notes = list(notes)
    check_dates(memory, config.memory_file)
    # an entry dated later waits for its time: filed now, it would be current
    # before it holds (--as-of and why would disagree with recall); an hour of
    # slack for an agent's clock running a little ahead
    horizon = now + timedelta(seconds=FUTURE_SLACK_S)
    work = Reconciliation(memory, config, format_instant(now))
    seen = Growing(ledger)  # 500,000 marks of a big note stay compact
    per_note = [entry_marks(n) for n in notes]
    queue = _queue(notes, per_note, seen, config.zone, horizon, recorded)
    judged = judged or {}
    reader = SlotReader(work.facts, work.today, lexicon(tuple(config.languages)))
    kinds = [judged.get(row[4]) or classify(row[3], config) for row in queue]
    texts = {
        # a judge's key and value are checked with the text: they are what it writes
        i: "\n".join(
            [row[3].text, *row[3].nested, *([c.key or "", c.value] if c.judge else [])]
        )
        for i, (row, c) in enumerate(zip(queue, kinds, strict=True))
        if c.durable
    }
    refused = dict(zip(texts, refusals(list(texts.values()), config), strict=True))
    outcomes: list[Outcome] = []
    pending: list[Waiting] = []
    keys = KeyIndex(work.topic_names)  # the current keys' words, for restatements
    unkeyed = LooseIndex()  # and the unkeyed facts' that hold a number
    every = FactIndex()  # and every current fact's, for near changes
    for i, row in enumerate(queue):
        at, entry, mark = row[0], row[3], row[4]
        when = retired.get(retired_mark(entry.path, entry.value)) if retired else None
        gone = when is not None and retired_before(format_instant(at), when)
        text = "\n".join([entry.text, *entry.nested])
        if kinds[i].undecided and not gone and reads_as_instruction(text):
            # a person's to decide (approve/reject), never a judge's: held
            _file(work, seen, row, kinds[i], text, None)
            if explain:
                outcomes.append(_outcome(entry, kinds[i], work.decisions[-1], False))
            continue
        if kinds[i].ends and kinds[i].key is None and config.judge != "none":
            # "we stopped using restic": which key it ends, only the judge can say
            # when no current value is named (an anchored one files as usual)
            kinds[i] = anchored(kinds[i], (f for f in work.facts if not f.get("until")))
            kinds[i] = _key_left(kinds[i], keys, work)
            if not kinds[i].key:
                kinds[i] = replacing(
                    kinds[i], (f for f in work.facts if not f.get("until"))
                )
        if not kinds[i].durable and not gone and kinds[i].ends:
            # a log line (or an undecided one: "Black is gone") removing the
            # one current value it names ends it
            ends = anchored(kinds[i], (f for f in work.facts if not f.get("until")))
            ends = _key_left(ends, keys, work)
            if not ends.key:  # "cancelled Pingdom" after "Uptime checks via Pingdom"
                ends = replacing(ends, (f for f in work.facts if not f.get("until")))
            if ends.key or ends.replaces:
                kinds[i] = replace(
                    ends, kind=ends.kind or "decision", durable=True, rule="removal"
                )
                texts[i] = text
                refused[i] = refusals([text], config)[0]
        if not gone and _restatable(kinds[i], work):
            # "rate limit raised to 300 requests/min" after "Rate limit: 100
            # requests/min": a log line naming a current key gives it a new value
            keys.grow(work.slot_keys)
            given = kinds[i].value if kinds[i].key and kinds[i].durable else None
            found = restate(entry.value, keys, work.current, reader.words, given)
            if found is not None and not (
                kinds[i].key and apart(kinds[i].key, found.fact.key or "")
            ):
                kinds[i] = _restating(kinds[i], found, config.durable_kinds)
            elif not kinds[i].durable:
                # "renamed master → main": a log line's change of the one
                # current value it names
                kinds[i] = _changed_value(kinds[i], entry.value, reader.words, work)
            if kinds[i].keyed_by != "restated" and _restatable(kinds[i], work):
                loose = restate_unkeyed(
                    entry.value,
                    work.facts,
                    unkeyed,
                    reader.words,
                    kinds[i].value if kinds[i].durable else None,
                )
                if loose is not None:
                    kinds[i] = replace(
                        _restating(kinds[i], loose, config.durable_kinds),
                        replaces=loose.fact.id,
                    )
            if kinds[i].keyed_by == "restated":
                texts[i] = text
                refused[i] = refusals([text], config)[0]
        near = None
        if not gone:  # "PRs stay under 250 lines now" after "... under 400 lines"
            kinds[i], near = restated(
                kinds[i], reader, work.current, config.durable_kinds
            )
        wait = None if gone else waits(kinds[i], config, work.current)
        if near is None and wait is None and not gone and config.judge != "none":
            # "Fallback: kimi-k2.5" under "Switched to Ollama": a change the
            # rules cannot tie to the fact it shares words with
            near = near_change(kinds[i], entry, format_instant(at), work.facts,
                               every, work.current, reader.words)  # fmt: skip
        if near is not None and config.judge != "none":
            wait = near
        if wait is not None:
            # left unmarked: its note is read again until the judge answers
            why, held = wait
            pending.append(
                Waiting(pending_id(mark), mark, entry, format_instant(at), kinds[i],
                        why, guessed_action(kinds[i], held), held)
            )  # fmt: skip
            if explain:
                outcomes.append(_outcome(entry, kinds[i], None, False, why))
            continue
        if not kinds[i].durable or gone:
            # a retired one was forgotten before it was filed; an undecided
            # one stays unmarked, so a later rule or a judge can still place
            # it (its note is read again each pass until it is pruned)
            if gone or not kinds[i].undecided:
                seen.add(mark)
            if explain:
                outcomes.append(_outcome(entry, kinds[i], None, gone))
            continue
        made = len(work.decisions)
        _file(work, seen, row, kinds[i], texts[i], refused[i])
        if explain:
            decided = work.decisions[made] if len(work.decisions) > made else None
            outcomes.append(_outcome(entry, kinds[i], decided, False))
    settle(seen, notes, per_note)
    facts = without_dangling_links(work.facts)
    unlinked = tuple(
        f"{old.id} {name}={old.get(name)}"
        for old, new in zip(work.facts, facts, strict=True)
        for name in LINKS
        if old.get(name) and not new.get(name)
    )
    # a deleted begin marker (memory.begin == "") is put back by any pass
    changed_facts = facts != memory.facts or memory.begin == ""
    text = render_memory(memory, facts, memo) if changed_facts else memory.text
    over = max(0, len(text) - config.memory_budget_chars)
    undecided = sum(1 for c in kinds if c.undecided)
    return PromotionPlan(
        facts, tuple(work.decisions), seen.frozen(), text, text != memory.text,
        over, undecided, entries=tuple(outcomes), pending=tuple(pending),
        unlinked=unlinked,
    )  # fmt: skip


LINKS = ("supersedes", "superseded-by")


def without_dangling_links(facts: Sequence[Fact]) -> tuple[Fact, ...]:
    """``facts`` without the ``supersedes``/``superseded-by`` links that name
    no entry of them: the entry they named was deleted by hand (a cut
    accepted with ``record --accept``), so no pass could ever make them
    whole again and ``check`` would report them for ever. The entries
    themselves, their ``since`` and ``until``, stay as they are."""
    ids = {f.id for f in facts if f.id}
    out = []
    for fact in facts:
        gone = {n: None for n in LINKS if (t := fact.get(n)) and t not in ids}
        out.append(fact.with_attrs(**gone) if gone else fact)
    return tuple(out)


def _outcome(
    entry: Entry,
    c: Classified,
    decided: Decision | None,
    retired: bool,
    waiting: str = "",
) -> Outcome:
    """What became of ``entry`` (classified ``c``): ``decided`` when it was
    filed; ``waiting``: why it waits for the judge, if it does."""
    placed = "durable" if c.durable else "undecided" if c.undecided else "transient"
    if waiting:
        action, reason = "pending", f"{waiting}: waits for the judge (gardener review)"
    elif decided is not None:
        action, reason = decided.action, decided.reason
    elif retired:
        action, reason = "skip", "retired by forget before it was filed"
    elif c.undecided:
        action, reason = "skip", "undecided: no rule placed it; left in its note"
    else:
        what = f"kind {c.kind}" if c.kind else "no durable kind"
        action, reason = (
            "skip",
            f"transient ({what}, by {c.rule or 'no rule'}); left in its note",
        )
    if decided is None:
        return Outcome(
            entry.path, entry.line, entry.text, placed, c.kind, c.key, c.value,
            c.keyed_by, c.rule, c.ends, action, reason,
        )  # fmt: skip
    return Outcome(
        entry.path, entry.line, entry.text, placed, c.kind, decided.key or c.key,
        c.value, c.keyed_by, c.rule, c.ends, action, reason, decided.fact,
        decided.replaced,
    )  # fmt: skip
