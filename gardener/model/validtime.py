"""Valid time: the instants at which a value became true (``since``) or stopped (``until``).

Valid times are written as local wall-clock strings in the workspace's timezone
(rules.md ``timezone``): ``YYYY-MM-DD`` (the start of that day) or
``YYYY-MM-DDTHH:MM``. Strings keep MEMORY.md readable and diffs one line long;
these helpers turn them into naive ``datetime`` values for comparison.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache

# typing and zoneinfo cost ~8 ms to import, and a warm recall needs neither
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from gardener.model.facts import Entry, Fact

_STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2})?")


@lru_cache(maxsize=1 << 16)
def parse_instant(text: str) -> datetime:
    """Parse ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM[:SS]`` into a naive local datetime.

    Raises ValueError if ``text`` has neither shape or names no real day.
    Cached: a pass compares the same few thousand stamps again and again.
    """
    if _CANONICAL.fullmatch(text):  # what the gardener writes: the C parser will do
        return datetime.fromisoformat(text)
    m = _STAMP.match(text.strip())
    if not m:
        raise ValueError(f"not a date or date-time: {text!r}")
    y, mo, d, hh, mm, ss = m.groups()
    return datetime(int(y), int(mo), int(d), int(hh or 0), int(mm or 0), int(ss or 0))


def is_instant(text: str) -> bool:
    """True if ``text`` parses as a valid-time string."""
    try:
        parse_instant(text)
    except ValueError:
        return False
    return True


def format_instant(moment: datetime) -> str:
    """Render a naive local datetime: a bare date at midnight, else ``...THH:MM``."""
    # isoformat, not strftime: %Y does not pad a year before 1000 to four digits
    if moment.hour == 0 and moment.minute == 0:
        return moment.date().isoformat()
    return moment.isoformat(timespec="minutes")


def stamp(day: date, time: str | None = None) -> str:
    """The valid-time string for a note's ``day`` and optional ``HH:MM`` time."""
    if time:
        hh, mm = time.split(":")
        return f"{day.isoformat()}T{int(hh):02d}:{mm}"
    return day.isoformat()


def day_span(text: str) -> tuple[datetime, datetime]:
    """The half-open span an as-of query covers: a bare date means that whole day."""
    start = parse_instant(text)
    if "T" in text or " " in text.strip():
        return start, start
    return start, start + timedelta(days=1)


def zone_named(name: str) -> tzinfo:
    """The IANA timezone ``name``; "UTC" without loading zoneinfo.

    Raises ZoneInfoNotFoundError (a KeyError) or ValueError for an unknown name.
    """
    if name == "UTC":
        return UTC
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def local_now(zone: tzinfo | str, override: str | None = None) -> datetime:
    """Now, as a naive wall-clock datetime in ``zone`` (a tzinfo or an IANA
    name, looked up only if needed).

    ``override`` is an ISO 8601 string (env ``GARDENER_NOW``); a naive one is read
    as wall-clock time in ``zone``, one with an offset is converted to ``zone``.
    Raises ValueError for a malformed override.
    """
    if override:
        moment = datetime.fromisoformat(override.strip().replace("Z", "+00:00"))
        if not 1971 <= moment.year <= 9000:  # date arithmetic on TTLs must not overflow
            raise ValueError(f"year {moment.year} is out of range (1971-9000)")
        if moment.tzinfo is None:
            return moment.replace(microsecond=0)
        zone = zone_named(zone) if isinstance(zone, str) else zone
        return moment.astimezone(zone).replace(tzinfo=None, microsecond=0)
    zone = zone_named(zone) if isinstance(zone, str) else zone
    return datetime.now(zone).replace(tzinfo=None, microsecond=0)


def entry_since(entry: Entry, zone: tzinfo | None = None) -> str:
    """When the entry became true, as local time in ``zone`` (the workspace's).

    A note with its own ``timezone`` front matter is converted; a bad zone name
    there is ignored (the time is then taken as the workspace's local time).
    """
    if entry.timezone and entry.time and zone is not None:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            own = ZoneInfo(entry.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            return stamp(entry.day, entry.time)
        hh, mm = entry.time.split(":")
        there = datetime(
            entry.day.year, entry.day.month, entry.day.day, int(hh), int(mm), tzinfo=own
        )
        try:
            return format_instant(there.astimezone(zone).replace(tzinfo=None))
        except OverflowError:  # a note named 9999-12-31 in a zone behind UTC
            return stamp(entry.day, entry.time)
    return stamp(entry.day, entry.time)


def is_current(fact: Fact, today: str) -> bool:
    """Current: outside Superseded, and neither ``until`` nor ``expires`` has passed."""
    return current_at(fact.superseded, fact.get("until"), fact.get("expires"), today)


def current_at(
    superseded: bool, until: str | None, expires: str | None, today: str
) -> bool:
    """``is_current`` over the fields themselves (the recall index stores them)."""
    if superseded:
        return False
    if until and _before(until, today):
        return False
    return not (expires and _before(expires, today))


def _before(when: str, today: str) -> bool:
    try:
        return parse_instant(when) <= parse_instant(today)
    except ValueError:
        return False
