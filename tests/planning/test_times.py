"""Recorded times (planning.times, store.times): an untimed line keeps the
time it took where it was written, whatever a union merge puts above it."""

from __future__ import annotations

from datetime import UTC, date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.model.marks import entry_marks
from gardener.planning.times import recorded_times, valid_times
from gardener.store import times as store_times

DAY = date(2026, 3, 2)
PATH = "memory/2026-03-02.md"

# an entry line: timed ("- 09:30 ...") or not; texts unique per side
clock = st.tuples(st.integers(0, 23), st.integers(0, 59)).map(
    lambda t: f"{t[0]:02d}:{t[1]:02d} "
)
side = st.lists(st.one_of(st.just(""), clock), min_size=0, max_size=8)


def lines(who: str, clocks: list[str]) -> list[str]:
    return [f"- {c}{who} wrote line {i}\n" for i, c in enumerate(clocks)]


def note(text: str):
    return parse_note(PATH, DAY, text)


def times_of(text: str, recorded=None) -> dict[str, str]:
    parsed = note(text)
    at = valid_times(parsed, UTC, recorded)
    return {m: t.isoformat() for m, t in zip(entry_marks(parsed), at, strict=True)}


@settings(max_examples=200, deadline=None)
@given(base=side, ours=side, theirs=side)
def test_a_union_merge_moves_no_recorded_entry(base, ours, theirs):
    head = "".join(lines("base", base))
    mine, yours = head + "".join(lines("a", ours)), head + "".join(lines("b", theirs))
    recorded = recorded_times(note(head), note(mine), UTC)
    recorded |= recorded_times(note(head), note(yours), UTC)
    # union: base, then our side's lines, then theirs (git's merge=union)
    merged = mine + "".join(lines("b", theirs))
    before = times_of(mine) | times_of(yours)  # each side as its machine saw it
    after = times_of(merged, recorded)
    assert after == before
    # on one machine, recorded times change nothing
    assert times_of(mine, recorded) == times_of(mine)


def test_only_untimed_lines_a_commit_adds_are_recorded():
    old = note("- 09:00 a\n- b\n")
    new = note("- 09:00 a\n- b\n- 10:00 c\n- d\n")
    (mark,) = recorded_times(old, new, UTC)
    assert recorded_times(old, new, UTC) == {mark: "2026-03-02T10:00"}
    assert recorded_times(None, note("- first\n"), UTC).popitem()[1] == "2026-03-02"


def test_a_recorded_time_of_another_day_is_ignored():
    parsed = note("- 09:00 a\n- b\n")
    mark = entry_marks(parsed)[1]
    at = valid_times(parsed, UTC, {mark: "2026-03-05T08:00"})
    assert at[1].isoformat() == "2026-03-02T09:00:00"
    at = valid_times(parsed, UTC, {mark: "not a time"})
    assert at[1].isoformat() == "2026-03-02T09:00:00"


@given(
    st.dictionaries(
        st.from_regex(
            r"memory/2026-0[1-9]-1[0-9]\.md\t[0-9a-f]{16}(#[1-9])?", fullmatch=True
        ),
        st.sampled_from(["2026-03-02", "2026-03-02T09:00", "2026-03-02T23:59"]),
        max_size=6,
    )
)
def test_a_file_round_trips_and_keeps_the_earlier_of_two_times(times):
    text = store_times.render(f"{m}\t{t}" for m, t in times.items())
    assert store_times.parse(text) == times
    for mark in times:
        doubled = text + f"{mark}\t2026-03-01T00:01\n"
        assert store_times.parse(doubled)[mark] == "2026-03-01T00:01"


def test_files_by_month_and_without_deleted_notes(tmp_path: Path):
    marks = {
        "memory/2026-01-12.md\taaaa": "2026-01-12T09:00",
        "memory/2026-02-03.md\tbbbb": "2026-02-03",
    }
    files = store_times.added(tmp_path, marks)
    assert sorted(files) == [".gardener/times.d/2026-01", ".gardener/times.d/2026-02"]
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert store_times.added(tmp_path, marks) == {}
    assert store_times.read(tmp_path, ["memory/2026-01-12.md"]) == {
        "memory/2026-01-12.md\taaaa": "2026-01-12T09:00"
    }
    assert store_times.without(tmp_path, ["memory/2026-01-12.md"]) == {
        ".gardener/times.d/2026-01": None
    }
