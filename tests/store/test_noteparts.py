"""A note read in parts, and read on from where the last read stopped, gives
the entries a whole parse gives (``gardener.store.noteparts``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.store import noteparts
from gardener.store.noteparts import NotParts, Point
from tests.store.test_notetail import DAY, REL, _note


def _read(where: Path, known: Point | None) -> tuple[bool, list, Point]:
    reading = noteparts.start(REL, DAY, str(where), known)
    entries = []
    gen = reading.parts
    while True:
        try:
            entries += next(gen)
        except StopIteration as stop:
            return reading.resumed, entries, stop.value


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(_note(), st.sampled_from([1, 7, 40, 1 << 20]))
# a closing "---" with no newline yet, around a body that is not YAML's mapping:
# an append can still make it a front matter never closed
@example(note=("---\n- 09:15 decision: **db**: Postgres\n---", ["- 09:15 x"]), part=1)
def test_parts_and_resumed_reads_give_the_whole_parse(tmp_path, note, part) -> None:
    first, appends = note
    where = tmp_path / "note.md"
    where.write_bytes(first.encode("utf-8"))
    old = noteparts.PART
    noteparts.PART = part
    try:
        known = None
        for more in [*appends, ""]:
            text = where.read_bytes().decode("utf-8")
            try:
                resumed, entries, point = _read(where, known)
            except NotParts:  # front matter left open: the whole parse reads it
                assert text.lstrip("\ufeff").startswith("---")
                known = None
            else:
                whole = parse_note(REL, DAY, text).entries
                assert resumed == (known is not None and known.digest != "")
                if resumed:  # the entries from the point's line on
                    whole = tuple(e for e in whole if e.line > known.index)
                assert tuple(entries) == whole
                assert point.size == len(text.encode("utf-8"))
                assert Point.loads(point.dumps()) == point
                # a cold read of the same bytes stops at the same point
                assert _read(where, None)[2] == point
                known = point
            with where.open("ab") as out:
                out.write(more.encode("utf-8"))
    finally:
        noteparts.PART = old


def test_a_note_edited_above_its_end_is_read_from_its_start(tmp_path) -> None:
    where = tmp_path / "note.md"
    where.write_bytes(b"- 09:00 one\n- 10:00 two\n- three\n")
    _, _, point = _read(where, None)
    where.write_bytes(b"- 09:00 uno\n- 10:00 two\n- three\n- four\n")
    resumed, entries, _ = _read(where, point)
    assert not resumed
    assert [e.text for e in entries] == ["09:00 uno", "10:00 two", "three", "four"]
    where.write_bytes(b"- 09:00 uno\n- 10:00 two\n- three\n- four\n- five")
    _, _, point = _read(where, None)
    with where.open("ab") as out:
        out.write(b" and more\n- six\n")
    resumed, entries, _ = _read(where, point)
    assert resumed
    # from the last item whose line was whole when read
    assert [e.text for e in entries] == ["four", "five and more", "six"]


def test_a_note_that_is_not_utf8_is_not_read_in_parts(tmp_path) -> None:
    where = tmp_path / "note.md"
    where.write_bytes(b"- 09:00 one\n- caf\xe9\n")
    with pytest.raises(NotParts):
        _read(where, None)
