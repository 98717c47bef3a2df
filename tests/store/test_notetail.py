"""A note parsed from where the last pass left it plans as the whole note does
(``gardener.store.notetail``): the same entries, marks and valid times for
every entry the ledger does not hold, after any appends."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.model.marks import (
    APPROVED,
    HELD,
    SETTLED,
    entry_digest,
    entry_marks,
    settled_mark,
)
from gardener.planning.times import valid_times as _valid_times
from gardener.store import notetail

DAY = date(2026, 1, 5)
REL = "memory/2026-01-05.md"
WHERE = Path("/nonexistent") / REL
LEDGER = (("", "a" * 40), ("", ""), ("", ""))
ZONE = ZoneInfo("UTC")

_LINES = st.sampled_from(
    [
        "- 09:15 decision: **db**: Postgres",
        "- 10:00 fact: the same line",
        "- the same line",
        "- the same line",
        "- untimed prose bullet",
        "* 23:59 - late thing",
        "1. numbered item",
        "   - indented three",
        "  - nested under",
        "    nested deeper",
        "lazy continuation text",
        "",
        "# Heading one",
        "## Decisions",
        "### Deep",
        "```",
        "~~~",
        "  ```",
        "````",
        "| a | b |",
        "> quoted",
        "---",
        "plain prose",
        "- [ ] a task",
        "- 07:00 **key**: value (source: x) (by: y)",
    ]
)


@st.composite
def _chunk(draw: st.DrawFn) -> str:
    lines = draw(st.lists(_LINES, max_size=12))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines)
    return text + end if draw(st.booleans()) else text


@st.composite
def _note(draw: st.DrawFn) -> tuple[str, list[str]]:
    head = draw(st.sampled_from(["", "\ufeff", "---\nagent: bot\n---\n"]))
    first = head + draw(_chunk())
    return first, draw(st.lists(_chunk(), min_size=1, max_size=4))


def _whole(raw: bytes):
    note = parse_note(REL, DAY, raw.decode("utf-8"))
    return note, entry_marks(note)


def _asked(marks: list[str], note) -> set[str]:
    """What a pass asks the ledger about a note with these marks."""
    out = {settled_mark(REL, note.digest)}
    for m in marks:
        out.update((m, m + HELD, m + APPROVED))
    return out


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_note(), st.randoms(use_true_random=False))
# a closing "---" with no newline yet: an append makes it part of a longer line
@example(
    note=("---\n---", ["- 09:15 decision: **db**: Postgres\n- 09:15 x"]), rnd=Random(0)
)
def test_a_tail_parse_plans_as_a_whole_parse(note, rnd) -> None:
    first, appends = note
    raw = first.encode("utf-8")
    # the month's ledger (all of it), with stale marks of this note's lines
    ledger: set[str] = {
        f"{REL}\t{entry_digest(text)}#{n}"
        for text in ("the same line", "untimed prose bullet")
        for n in range(3)
        if rnd.random() < 0.3
    }
    kept = None
    for more in [*appends, ""]:
        # with no tail, the month read whole: a read in parts (or a whole parse)
        settled = ledger.__contains__ if kept is None and rnd.random() < 0.5 else None
        got_note, got = notetail.read(
            REL, DAY, raw, WHERE, kept, LEDGER, min_bytes=0, settled=settled
        )
        whole, marks = _whole(raw)
        mine = entry_marks(got_note)
        assert got_note.digest is not None
        by_line = {e.line: (e, m) for e, m in zip(whole.entries, marks, strict=True)}
        times = dict(
            zip(
                [e.line for e in whole.entries],
                _valid_times(whole, ZONE),
                strict=True,
            )
        )
        lines = [e.line for e in got_note.entries]
        assert lines == sorted(set(lines))
        for entry, mark, at in zip(
            got_note.entries, mine, _valid_times(got_note, ZONE), strict=True
        ):
            assert by_line[entry.line] == (entry, mark)
            assert times[entry.line] == at
        left = {e.line for e in got_note.entries}
        for line, (_, mark) in by_line.items():
            if line not in left:  # what the tail left unread is in the ledger
                assert mark in ledger
        if got is None:  # front matter left open: a whole parse each time
            assert mine == marks
            kept = None
            continue
        whole_month = kept is None or rnd.random() < 0.3
        if whole_month:
            view = {m for m in ledger if m.startswith(REL + "\t")}
        else:  # the month read in part: what the tail vouches for
            view = notetail.vouched(kept, got_note)
            asked = _asked(mine, got_note)
            assert view == asked & ledger
        # the pass settles some of what it read (a random share), holds some
        for m in mine:
            if rnd.random() < 0.6:
                ledger.add(m)
                view.add(m)
            elif rnd.random() < 0.2:
                ledger.add(m + HELD)
                view.add(m + HELD)
        carried = frozenset()
        if not whole_month and got.base is not None:
            carried = frozenset(m for m in got.base.rest if SETTLED not in m)
        kept = notetail.tail(got, view, carried, LEDGER)
        raw += more.encode("utf-8")


def test_a_tail_is_not_used_when_the_note_changed_above_its_end() -> None:
    raw = b"- 09:00 one\n- 10:00 two\n- three\n"
    _, got = notetail.read(REL, DAY, raw, WHERE, None, None, min_bytes=0)
    assert got is not None
    kept = notetail.tail(got, set(entry_marks(got.note)), frozenset(), LEDGER)
    edited = raw.replace(b"one", b"uno") + b"- four\n"
    note, _ = notetail.read(REL, DAY, edited, WHERE, kept, LEDGER, min_bytes=0)
    assert [e.text for e in note.entries] == ["09:00 uno", "10:00 two", "three", "four"]
    # nor when the month's ledger changed since
    grown = raw + b"- four\n"
    other = (("", "b" * 40), ("", ""), ("", ""))
    note, _ = notetail.read(REL, DAY, grown, WHERE, kept, other, min_bytes=0)
    assert len(note.entries) == 4
    note, _ = notetail.read(REL, DAY, grown, WHERE, kept, LEDGER, min_bytes=0)
    assert [e.text for e in note.entries] == ["10:00 two", "three", "four"]
