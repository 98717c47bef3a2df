"""Valid time: local wall-clock strings, the span of a bare date, and "now"."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.model.validtime import (
    day_span,
    format_instant,
    is_instant,
    local_now,
    parse_instant,
    stamp,
)


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("2026-01-05", datetime(2026, 1, 5)),
        ("2026-01-05T09:30", datetime(2026, 1, 5, 9, 30)),
        ("2026-01-05 09:30", datetime(2026, 1, 5, 9, 30)),
        ("2026-01-05T9:30", datetime(2026, 1, 5, 9, 30)),
        ("2026-01-05T09:30:15", datetime(2026, 1, 5, 9, 30, 15)),
        (" 2026-01-05\n", datetime(2026, 1, 5)),
        ("2028-02-29", datetime(2028, 2, 29)),
    ],
)
def test_parse_instant(text, moment):
    assert parse_instant(text) == moment
    assert parse_instant(text).tzinfo is None
    assert is_instant(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2026-1-5",
        "05.01.2026",
        "2026-02-30",  # no such day
        "2027-02-29",
        "2026-13-01",
        "2026-01-05T24:00",
        "2026-01-05T09:60",
        "2026-01-05T09:30Z",  # valid times are local: no offsets
        "2026-01-05T09:30+01:00",
    ],
)
def test_parse_instant_refuses(text):
    with pytest.raises(ValueError):
        parse_instant(text)
    assert not is_instant(text)


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 1, 5), "2026-01-05"),
        (datetime(2026, 1, 5, 9, 30), "2026-01-05T09:30"),
        (datetime(2026, 1, 5, 0, 1), "2026-01-05T00:01"),
        (datetime(2026, 1, 5, 9, 30, 59), "2026-01-05T09:30"),  # minutes only
    ],
)
def test_format_instant(moment, text):
    assert format_instant(moment) == text


@pytest.mark.parametrize("text", ["2026-01-05", "2026-01-05T09:30", "2026-12-31T23:59"])
def test_format_parse_round_trip(text):
    assert format_instant(parse_instant(text)) == text


@pytest.mark.parametrize(
    ("time", "text"),
    [
        (None, "2026-01-05"),
        ("", "2026-01-05"),
        ("09:30", "2026-01-05T09:30"),
        ("9:05", "2026-01-05T09:05"),
        ("00:00", "2026-01-05T00:00"),
    ],
)
def test_stamp(time, text):
    assert stamp(date(2026, 1, 5), time) == text
    assert is_instant(stamp(date(2026, 1, 5), time))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # a bare date is that whole day
        ("2026-01-05", datetime(2026, 1, 5), datetime(2026, 1, 6)),
        ("2026-02-28", datetime(2026, 2, 28), datetime(2026, 3, 1)),
        ("2026-12-31", datetime(2026, 12, 31), datetime(2027, 1, 1)),
        (" 2026-01-05 ", datetime(2026, 1, 5), datetime(2026, 1, 6)),
        # a date and time is that instant
        ("2026-01-05T09:30", datetime(2026, 1, 5, 9, 30), datetime(2026, 1, 5, 9, 30)),
        ("2026-01-05 09:30", datetime(2026, 1, 5, 9, 30), datetime(2026, 1, 5, 9, 30)),
    ],
)
def test_day_span(text, start, end):
    assert day_span(text) == (start, end)


NEW_YORK = ZoneInfo("America/New_York")  # UTC-5 in January, UTC-4 in July
KOLKATA = ZoneInfo("Asia/Kolkata")  # UTC+5:30, no DST


@pytest.mark.parametrize(
    ("zone", "override", "expected"),
    [
        # naive: already wall-clock time in the zone
        (NEW_YORK, "2026-07-01T12:00", datetime(2026, 7, 1, 12, 0)),
        (NEW_YORK, "2026-07-01", datetime(2026, 7, 1)),
        (NEW_YORK, " 2026-07-01T12:00:30.5 ", datetime(2026, 7, 1, 12, 0, 30)),
        # Z and offsets: converted to the zone, daylight saving included
        (NEW_YORK, "2026-07-01T12:00Z", datetime(2026, 7, 1, 8, 0)),
        (NEW_YORK, "2026-01-15T12:00Z", datetime(2026, 1, 15, 7, 0)),
        (NEW_YORK, "2026-07-01T12:00+02:00", datetime(2026, 7, 1, 6, 0)),
        (NEW_YORK, "2026-01-01T03:00:00.999+00:00", datetime(2025, 12, 31, 22, 0)),
        (KOLKATA, "2026-01-05T20:00Z", datetime(2026, 1, 6, 1, 30)),
        (KOLKATA, "2026-01-05T20:00-05:00", datetime(2026, 1, 6, 6, 30)),
    ],
)
def test_local_now_with_an_override(zone, override, expected):
    moment = local_now(zone, override)
    assert moment == expected
    assert moment.tzinfo is None
    assert moment.microsecond == 0


@pytest.mark.parametrize("override", ["garbage", "2026-13-01T00:00", "1900-01-01"])
def test_local_now_refuses_a_malformed_override(override):
    with pytest.raises(ValueError):
        local_now(NEW_YORK, override)


@pytest.mark.parametrize("override", [None, ""])
def test_local_now_without_an_override_is_the_zones_wall_clock(override):
    expected = datetime.now(NEW_YORK).replace(tzinfo=None)
    moment = local_now(NEW_YORK, override)
    assert moment.tzinfo is None
    assert moment.microsecond == 0
    assert abs(moment - expected) < timedelta(seconds=5)


_STAMP_PIECES = [*"0123456789-T: \n", "2026-", "02-30", "T09:05", "٣"]


def _by_the_pattern(text: str) -> datetime:
    """parse_instant as the pattern alone reads it (no fast path for canonical text)."""
    import re

    m = re.match(
        r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$",
        text.strip(),
    )
    if not m:
        raise ValueError(text)
    y, mo, d, hh, mm, ss = m.groups()
    return datetime(int(y), int(mo), int(d), int(hh or 0), int(mm or 0), int(ss or 0))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_STAMP_PIECES), max_size=12).map("".join))
def test_parse_instant_reads_what_its_pattern_reads(text: str) -> None:
    def outcome(parse: Callable[[str], datetime]) -> datetime | None:
        try:
            return parse(text)
        except ValueError:
            return None

    assert outcome(parse_instant) == outcome(_by_the_pattern)
