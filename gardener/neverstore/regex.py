"""The regex helpers every never-store module uses: spans, checks, lazy patterns."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

Span = tuple[int, int]  # (start, end) offsets into a text, end exclusive
# a rule's check: (text, its pattern's match) -> the secret's span, or None (no
# secret); a check that finds several kinds of secret may add the rule id it
# reports: (start, end, rule) (``evidence.check``)
Check = Callable[[str, "re.Match[str]"], "Span | tuple[int, int, str] | None"]
ALNUM_ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


class _Lazy:
    """A regex compiled on first use. Most texts need none of the helper
    patterns, and compiling them all costs ~3 ms of every ``gardener note``."""

    __slots__ = ("_args", "_pattern")

    def __init__(self, *args: object) -> None:
        self._args = args
        self._pattern: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        if self._pattern is None:
            self._pattern = re.compile(*self._args)  # type: ignore[call-overload]
        return getattr(self._pattern, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done the first time the pattern is used."""
    # not typing.cast: importing typing costs ~4 ms of a note's start
    return _Lazy(pattern, flags)  # type: ignore[return-value]


@functools.cache
def compiled(source: str) -> re.Pattern[str]:
    """``re.compile(source)``, once per source."""
    return re.compile(source)


def target(m: re.Match[str]) -> Span:
    """The span of a match's ``value`` group if it has one, else of the match."""
    return m.span("value") if "value" in m.re.groupindex else m.span()
